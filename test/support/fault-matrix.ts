// Shared pieces of the browser fault matrix (test/browser/faults-*.test.ts): a recorder for a
// CallSession and the one assertion every cell makes about how the call ended.
import { expect } from '@open-wc/testing';
import { CallSession } from '../../src/call/call-session.js';
import type { CallResult, CallSessionOptions, CallState, EndReason } from '../../src/call/types.js';
import { emulatorDial } from './emulator.js';
import { present } from './present.js';
import { until } from './until.js';

/** The companion behind test/support/fault-proxy.mjs, with the fault `spec` injected (e.g. `dials-hold`). */
export const front = (spec: string) => `/__fault/${spec}`;

/** How long a dial may stay non-terminal on the emulator after the call ended (bounded poll). */
export const DIAL_TERMINAL_WITHIN_MS = 10000;
const TERMINAL = ['completed', 'failed', 'canceled', 'busy', 'no-answer'];

const realGetUserMedia = navigator.mediaDevices.getUserMedia;

export interface Harness {
  container: HTMLElement;
  micTracks: MediaStreamTrack[];
  /** The page's getUserMedia during the cell: the browser's, recording the tracks it gives. */
  getUserMedia: (constraints?: MediaStreamConstraints) => Promise<MediaStream>;
  /** Index into the fault log when the cell began: dials made since then are the cell's. */
  logStart: number;
}

export async function setUpHarness(): Promise<Harness> {
  const micTracks: MediaStreamTrack[] = [];
  const getUserMedia = async (constraints?: MediaStreamConstraints): Promise<MediaStream> => {
    const stream = await realGetUserMedia.call(navigator.mediaDevices, constraints);
    micTracks.push(...stream.getTracks());
    return stream;
  };
  const harness: Harness = {
    container: document.createElement('div'),
    micTracks,
    getUserMedia,
    logStart: (await faultLog()).length,
  };
  navigator.mediaDevices.getUserMedia = getUserMedia;
  document.body.append(harness.container);
  return harness;
}

export function tearDownHarness(harness: Harness): void {
  navigator.mediaDevices.getUserMedia = realGetUserMedia;
  harness.container.remove();
}

/**
 * A fresh Harness for each test of the calling suite (set up before, torn down after). The one
 * object returned is refilled before every test, so a suite can hold it in a constant.
 */
export function useHarness(): Harness {
  const harness: Harness = {
    container: document.createElement('div'),
    micTracks: [],
    getUserMedia: realGetUserMedia,
    logStart: 0,
  };
  beforeEach(async () => {
    Object.assign(harness, await setUpHarness());
  });
  afterEach(() => tearDownHarness(harness));
  return harness;
}

export function newSession(
  harness: Harness,
  endpoint: string,
  agent: string,
  options: Partial<CallSessionOptions> = {},
): CallSession {
  return new CallSession({
    endpoint,
    agent,
    audioContainer: harness.container,
    requestTimeoutMs: 2500,
    resultTimeoutMs: 2500,
    agentTimeoutMs: 8000,
    maxReconnectAttempts: 1,
    ...options,
  });
}

export interface Seen {
  states: CallState[];
  ended: CallResult[];
  errors: string[];
  connected: string[];
}

export function record(session: CallSession): Seen {
  const seen: Seen = { states: [], ended: [], errors: [], connected: [] };
  session.addEventListener('call-state', (event) => seen.states.push(event.detail.state));
  session.addEventListener('call-ended', (event) => seen.ended.push(event.detail));
  session.addEventListener('call-error', (event) => seen.errors.push(event.detail.code));
  session.addEventListener('call-connected', (event) => seen.connected.push(event.detail.dialId));
  return seen;
}

export { emulatorDial, until };

export interface LogEntry {
  method: string;
  path: string;
  status: number;
  dialId: string | null;
  key: string | null;
  front?: boolean;
}

export async function faultLog(): Promise<LogEntry[]> {
  return (await fetch('/__fault/log')).json();
}

/** The dials of `dialIds` still not terminal on the emulator after up to `withinMs` (`id status` each). */
export async function orphanDials(dialIds: Iterable<string>, withinMs: number): Promise<string[]> {
  const deadline = Date.now() + withinMs;
  let orphans: string[] = [];
  do {
    orphans = [];
    for (const id of dialIds) {
      const dial = await emulatorDial(id);
      if (!TERMINAL.includes(dial.status)) orphans.push(`${id} ${dial.status}`);
    }
    if (orphans.length) await new Promise((resolve) => setTimeout(resolve, 250));
  } while (orphans.length && Date.now() < deadline);
  return orphans;
}

export interface Expected {
  reason: EndReason;
  /** `error.code` of the result; null: no error. */
  code: string | null;
  /** Dials the emulator must hold for this cell (default: whatever the widget or the proxies saw). */
  dials?: number;
  /** Where the cell's dials live (default `/__emu`). */
  emulator?: string;
}

/**
 * The matrix's shared assertion: exactly one `call-ended` with the reason and error code, state
 * `ended`, no live microphone track, no audio element, and every dial the cell created (the
 * result's and any the proxies saw) terminal on the emulator within DIAL_TERMINAL_WITHIN_MS.
 */
export async function expectCleanEnd(
  harness: Harness,
  session: { readonly state: CallState },
  seen: Seen,
  expected: Expected,
): Promise<void> {
  await until(() => seen.ended.length > 0, 20000, 'call-ended');
  const result = present(seen.ended[0], 'a call-ended result');
  const summary = `${result.reason} ${result.error?.code ?? '-'} states=${seen.states.join('>')}`;
  expect(result.reason, summary).to.equal(expected.reason);
  expect(result.error?.code ?? null, summary).to.equal(expected.code);
  expect(session.state).to.equal('ended');
  expect(seen.states.at(-1)).to.equal('ended');
  expect(harness.micTracks.filter((track) => track.readyState === 'live').length, 'live microphone tracks').to.equal(0);
  expect(harness.container.querySelectorAll('audio').length, 'audio elements left').to.equal(0);
  const dialIds = new Set<string>();
  if (result.dialId) dialIds.add(result.dialId);
  // A dial request still under way (e.g. the page left while it was held) may yet create a dial.
  let entries: LogEntry[] = [];
  await until(
    async () => (entries = (await faultLog()).slice(harness.logStart)).every((entry) => entry.status !== 0),
    8000,
    'proxied requests answered',
  );
  for (const entry of entries) if (entry.dialId) dialIds.add(entry.dialId);
  if (expected.dials !== undefined)
    expect(dialIds.size, `dials created: ${[...dialIds].join(', ')}`).to.equal(expected.dials);
  for (const dialId of dialIds) {
    await until(
      async () => TERMINAL.includes((await emulatorDial(dialId, expected.emulator)).status),
      DIAL_TERMINAL_WITHIN_MS,
      `dial ${dialId} terminal`,
    );
  }
  // Still exactly one, after everything settled.
  expect(seen.ended, summary).to.have.length(1);
}
