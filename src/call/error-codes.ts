// The codes a `call-error` (and `CallResult.error`) carries, and what the widget makes of a failed
// setup step. The companion's codes are the wire contract's (src/wire/companion.ts), which src/server
// imports too; test/node/call-error-codes.test.ts holds them to the docs. README: "Error codes".
import { CallError, CompanionError } from './errors.js';
import type { CallSessionEventMap } from './types.js';
import type { CompanionErrorCode as WireCompanionErrorCode } from '../wire/companion.js';

/** The companion's codes a browser reads: every one of the wire contract's but `client_closed` (an answer nobody reads). */
type AnsweredCode = Exclude<WireCompanionErrorCode, 'client_closed'>;

/** The companion refused the request (4xx): the call ends `setup-failed`, and another call will not help. */
export type CompanionRefusalCode = Extract<
  AnsweredCode,
  | 'duplicate_request'
  | 'host_not_allowed'
  | 'invalid_handle'
  | 'invalid_request'
  | 'method_not_allowed'
  | 'not_found'
  | 'origin_not_allowed'
  | 'payload_too_large'
>;

/** The companion or the service failed (5xx): the call ends `setup-failed`, and another call may help. */
export type CompanionFailureCode = Extract<
  AnsweredCode,
  'internal_error' | 'unsupported_media_provider' | 'upstream_error' | 'upstream_timeout'
>;

/**
 * The companion's error codes (`{ error: { code, message } }`; README "Error codes" has the status
 * each comes with), by what they mean for the call; `rate_limited` (429) ends it `busy`, and a
 * later call may get through. The widget passes each on unchanged as its own code (an error answer
 * without a code becomes `http_<status>`); the answer's status decides the outcome (`setupFailure`).
 * The codes come from the wire contract (src/wire/companion.ts); the sorting above must cover them.
 */
export type CompanionErrorCode = CompanionRefusalCode | 'rate_limited' | CompanionFailureCode;

type Holds<T extends true> = T;
/** Fails to compile when the wire contract has a code the sorting above leaves out. */
export type CompanionCodesSorted = Holds<[Exclude<AnsweredCode, CompanionErrorCode>] extends [never] ? true : false>;

/** The codes the widget itself reports (README "Error codes" says when). */
export type WidgetErrorCode =
  | 'unsupported_browser'
  | 'call_in_progress'
  | 'microphone_denied'
  | 'microphone_unavailable'
  | 'network_error'
  | 'request_timeout'
  | 'invalid_response'
  | `http_${number}`
  | 'media_failed'
  | 'session_start_failed'
  | 'network_lost'
  | 'load_failed'
  | 'hold_failed'
  | 'device_failed'
  | 'transfer_failed';

/**
 * Every code of `call-error`'s `detail.code` and `CallResult.error.code`. (`internal_error` is
 * also the widget's own code for a failure it did not foresee: a bug.)
 */
export type CallErrorCode = WidgetErrorCode | CompanionErrorCode;

/** `call-error`'s detail: what failed, and whether starting a new call may help. */
export type ReportedError = CallSessionEventMap['call-error'];

/**
 * A setup step (dial, token, media) failed: what `call-error` says, and how the call ends. An
 * answer's HTTP status decides (no answer counts as 0, worth another call); anything that is not
 * a `CallError` is a bug, reported as `internal_error`.
 */
export function setupFailure(error: unknown): { reason: 'busy' | 'setup-failed'; error: ReportedError } {
  if (!(error instanceof CallError) || error.code === 'aborted') {
    const message = error instanceof Error ? error.message : String(error);
    return { reason: 'setup-failed', error: { code: 'internal_error', message, recoverable: true } };
  }
  const status = error instanceof CompanionError ? error.status : 0;
  const recoverable = status === 0 || status === 429 || status >= 500;
  return {
    reason: status === 429 ? 'busy' : 'setup-failed',
    error: { code: error.code, message: error.message, recoverable },
  };
}
