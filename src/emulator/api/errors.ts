// Every error the REST half answers is `{ error: { code, message } }` with a fitting status, so a
// client can branch on `code` without parsing prose. One table gives each code its one status
// (the class and its status logic are the companion's too: src/shared/status-error.ts).
import { StatusError } from '../../shared/status-error.js';

/** Each code the REST half answers, and the HTTP status that always comes with it. */
const STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  not_found: 404,
  method_not_allowed: 405,
  idempotency_conflict: 409,
  dial_ended: 409,
  payload_too_large: 413,
  validation_failed: 422,
  internal_error: 500,
} as const;

export type ApiErrorCode = keyof typeof STATUS;

export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string } & Record<string, unknown>;
}

export class ApiError extends StatusError<ApiErrorCode> {
  override readonly name = 'ApiError';
  /** Extra fields placed next to `code` and `message` (e.g. the `dialId` of a 409). */
  readonly details: Record<string, unknown>;

  constructor(
    code: ApiErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(STATUS, code, message, { headers });
    this.details = details;
  }

  toBody(): ApiErrorBody {
    return { error: { ...this.details, code: this.code, message: this.message } };
  }
}

/** A 400 (the seed's "Invalid input"): the body is not the schema's JSON shape. */
export const badRequest = (message: string): ApiError => new ApiError('invalid_request', message);
/**
 * A 422 (the seed's "Validation exception"): a well-typed value the service cannot use; `field`
 * (when given) is answered as `error.field`, so a client can point at the input.
 */
export const unprocessable = (message: string, field?: string): ApiError =>
  new ApiError('validation_failed', message, field === undefined ? {} : { field });
export const notFound = (message: string): ApiError => new ApiError('not_found', message);
