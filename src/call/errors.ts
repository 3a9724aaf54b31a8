// Typed errors of a call. The `code` says what happened; `message` is for people and logs.
import type { CallState } from './types.js';

/** Why a call step failed, before it is mapped to an `EndReason`. */
export type CallErrorCode =
  | 'microphone-denied'
  | 'microphone-unavailable'
  | 'companion-error'
  | 'network-error'
  | 'request-timeout'
  | 'invalid-response'
  | 'media-failed'
  | 'aborted';

export class CallError extends Error {
  override readonly name: string = 'CallError';
  readonly code: CallErrorCode;

  constructor(code: CallErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * The companion answered with an error (`{ error: { code, message } }`), or could not be reached.
 * `companionCode` is the companion's own code (`rate_limited`, `upstream_error`, …) or, when there
 * was no answer, `network_error` / `request_timeout` / `invalid_response`.
 */
export class CompanionError extends CallError {
  override readonly name: string = 'CompanionError';
  /** HTTP status, or 0 when there was no answer. */
  readonly status: number;
  readonly companionCode: string;
  /** Seconds from `Retry-After`, when the companion sent one. */
  readonly retryAfterSeconds: number | null;

  constructor(
    code: CallErrorCode,
    companionCode: string,
    message: string,
    init: { status?: number; retryAfterSeconds?: number | null; cause?: unknown } = {},
  ) {
    super(code, message, { cause: init.cause });
    this.companionCode = companionCode;
    this.status = init.status ?? 0;
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
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
