// Reading a dial's record through the companion: every few seconds during a call (its transcript,
// when no live stream brings it), and after the call has left the room, until the service has
// written its final result or once, within a time limit.
import {
  isTerminal,
  timeoutSignal,
  type CompanionClient,
  type DialHandle,
  type DialRecord,
} from './companion-client.js';

/** How often the final dial record is read while it is not terminal yet. */
const RESULT_POLL_MS = 300;

/** Resolves after `ms`, or rejects with the signal's reason once it aborts. */
export function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => resolve(signal.removeEventListener('abort', stop)), ms);
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
}

/**
 * The dial's record, read until terminal (`poll`) or once, within `timeoutMs`; the last one read,
 * or null when none could be. `stop` ends the reading early (the call was abandoned meanwhile).
 */
export async function readRecord(
  companion: CompanionClient,
  dial: DialHandle,
  mode: 'poll' | 'once',
  timeoutMs: number,
  stop: () => boolean,
): Promise<DialRecord | null> {
  const timer = timeoutSignal(timeoutMs);
  const { signal } = timer;
  const deadline = Date.now() + timeoutMs;
  let record: DialRecord | null = null;
  try {
    record = await readUntil(companion, dial, mode, signal, deadline, stop);
  } finally {
    timer.clear();
  }
  return record;
}

async function readUntil(
  companion: CompanionClient,
  dial: DialHandle,
  mode: 'poll' | 'once',
  signal: AbortSignal,
  deadline: number,
  stop: () => boolean,
): Promise<DialRecord | null> {
  let record: DialRecord | null = null;
  for (;;) {
    try {
      record = await companion.readDial(dial, signal);
    } catch {
      if (signal.aborted) break;
    }
    if (stop() || mode === 'once' || (record && isTerminal(record))) break;
    if (Date.now() + RESULT_POLL_MS >= deadline) break;
    try {
      await delay(RESULT_POLL_MS, signal);
    } catch {
      break;
    }
  }
  return record;
}

/**
 * Reads the dial every `intervalMs` until `signal` aborts or `onRecord` says it has seen enough; a
 * failed read is tried again at the next interval.
 */
export async function pollDial(
  companion: CompanionClient,
  dial: DialHandle,
  intervalMs: number,
  signal: AbortSignal,
  onRecord: (record: DialRecord) => boolean,
): Promise<void> {
  while (!signal.aborted) {
    try {
      const record = await companion.readDial(dial, signal);
      if (signal.aborted || onRecord(record)) return;
    } catch {
      // The next read, unless the call is over.
    }
    try {
      await delay(intervalMs, signal);
    } catch {
      return;
    }
  }
}
