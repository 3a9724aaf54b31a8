// Typed errors of a call. The `code` says what happened; `message` is for people and logs.
import type { CallErrorCode } from './error-codes.js';
import type { CallState } from './types.js';

/**
 * A call step failed. `code` is the one `call-error` reports (error-codes.ts), or `aborted`: the
 * step's call ended first, so nobody hears of it.
 */
export class CallError extends Error {
  override readonly name: string = 'CallError';
  readonly code: CallErrorCode | 'aborted';

  constructor(code: CallErrorCode | 'aborted', message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * The companion answered with an error (`{ error: { code, message } }`), or could not be reached:
 * `code` is the companion's own code (`rate_limited`, `upstream_error`, …), `http_<status>` for an
 * error answer without a code it is known to send, or, when there was no usable answer,
 * `network_error` / `request_timeout` / `invalid_response`.
 */
export class CompanionError extends CallError {
  override readonly name: string = 'CompanionError';
  /** HTTP status, or 0 when there was no answer. */
  readonly status: number;

  constructor(code: CallErrorCode | 'aborted', message: string, init: { status?: number; cause?: unknown } = {}) {
    super(code, message, { cause: init.cause });
    this.status = init.status ?? 0;
  }
}

/** A code path asked for a state change the transition table does not allow: a bug, never user input. */
export class IllegalTransitionError extends Error {
  override readonly name: string = 'IllegalTransitionError';
  readonly from: CallState;
  readonly to: CallState;

  constructor(from: CallState, to: CallState) {
    super(`illegal call state transition ${from} -> ${to}`);
    this.from = from;
    this.to = to;
  }
}

/** The error a step rejects with when its call's AbortSignal fired. */
export function abortError(signal: AbortSignal): CallError {
  return new CallError('aborted', 'the call ended before this step finished', { cause: signal.reason });
}
