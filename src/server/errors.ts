// The companion's error answers: JSON `{ error: { code, message } }` with a fitting status.
// Messages are the companion's own words; an upstream body or an exception's text never reaches them.
import type { CompanionErrorCode, ErrorAnswer } from '../wire/companion.js';
import type { CompanionAnswer } from './exchange.js';
import { StatusError } from '../shared/status-error.js';

/** The codes are the wire contract's (src/wire/companion.ts). */
export type { CompanionErrorCode };

/** Each code's HTTP status. */
export const STATUS_OF: Record<CompanionErrorCode, number> = {
  invalid_request: 400,
  invalid_handle: 401,
  origin_not_allowed: 403,
  host_not_allowed: 403,
  not_found: 404,
  method_not_allowed: 405,
  duplicate_request: 409,
  payload_too_large: 413,
  rate_limited: 429,
  // nginx's code for "the client went away first": nobody reads this answer, it is for the log.
  client_closed: 499,
  internal_error: 500,
  upstream_error: 502,
  unsupported_media_provider: 502,
  upstream_timeout: 504,
};

/** Thrown inside the handler to answer with an error; `reason` goes to the log only. */
export class HttpError extends StatusError<CompanionErrorCode> {
  override readonly name = 'HttpError';
  readonly reason: string | undefined;

  constructor(
    code: CompanionErrorCode,
    message: string,
    options: { headers?: Record<string, string>; reason?: string; cause?: unknown } = {},
  ) {
    super(STATUS_OF, code, message, options);
    this.reason = options.reason;
  }
}

/** The headers every answer carries. */
export const BASE_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/** A JSON answer with the headers every answer carries. */
export function jsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}): CompanionAnswer {
  return {
    status,
    headers: { ...BASE_HEADERS, 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}

/** The body of every error answer. */
export type CompanionErrorBody = ErrorAnswer;

export function errorAnswer(error: HttpError, headers: Readonly<Record<string, string>> = {}): CompanionAnswer {
  const body: CompanionErrorBody = { error: { code: error.code, message: error.message } };
  return jsonAnswer(error.status, body, { ...headers, ...error.headers });
}
