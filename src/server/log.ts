// One JSON line per request (and per warning). The default writes to stderr through
// `console.error`, which exists in Node, Workers, Deno and Bun. Entries never carry the API key,
// the secret, a handle or an upstream body: only what is listed here.
import type { CompanionErrorCode } from './errors.js';

export interface CompanionLogEntry {
  time: string;
  level: 'info' | 'warn' | 'error';
  /** Route pattern, e.g. `POST /dials/:id/token`, or `-` when none matched. */
  route?: string;
  method?: string;
  status?: number;
  durationMs?: number;
  dialId?: string;
  /** Error code of the answer, when it was an error; or the rate limiter's store going away. */
  code?: CompanionErrorCode | 'rate_limit_store_unreachable' | 'pending_ends_store_unreachable';
  /** Why an error happened, in the companion's own words (never an upstream body). */
  reason?: string;
  message?: string;
  /** A visitor's rating, logged when no `onFeedback` hook takes it (never its comment). */
  rating?: 'up' | 'down';
  /** Whether that rating came with a comment (the comment itself is not logged). */
  commented?: boolean;
}

export type CompanionLogger = (entry: CompanionLogEntry) => void;

export const consoleLogger: CompanionLogger = (entry) => {
  console.error(JSON.stringify(entry));
};

export const silentLogger: CompanionLogger = () => {};

export interface BufferedLogger extends CompanionLogger {
  /** Writes what is buffered now (call it before the process exits). */
  flush(): void;
}

/**
 * JSON lines collected and handed to `write` in one piece every `intervalMs` (default 100) or once
 * `maxBytes` (default 64 KiB) are waiting; warnings and errors go out at once, after what is
 * buffered. On Node, stderr to a file or pipe is a blocking write per call: one per request was
 * a sixth of the companion's CPU under load, one per batch is noise.
 */
export function createBufferedLogger(
  write: (text: string) => void,
  options: { intervalMs?: number; maxBytes?: number } = {},
): BufferedLogger {
  const intervalMs = options.intervalMs ?? 100;
  const maxBytes = options.maxBytes ?? 64 * 1024;
  let buffered = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (buffered === '') return;
    const text = buffered;
    buffered = '';
    write(text);
  };
  const logger = (entry: CompanionLogEntry) => {
    buffered += JSON.stringify(entry) + '\n';
    if (entry.level !== 'info' || buffered.length >= maxBytes) {
      flush();
    } else if (timer === undefined) {
      timer = setTimeout(flush, intervalMs);
      // Where timers can be unref'd (Node), a pending flush does not keep the process alive.
      (timer as { unref?: () => void }).unref?.();
    }
  };
  return Object.assign(logger, { flush });
}
