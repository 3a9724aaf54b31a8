// Every error the REST half answers is `{ error: { code, message } }` with a fitting status, so a
// client can branch on `code` without parsing prose.

export type ApiErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'not_found'
  | 'method_not_allowed'
  | 'idempotency_conflict'
  | 'dial_ended'
  | 'payload_too_large'
  | 'validation_failed'
  | 'internal_error';

export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string } & Record<string, unknown>;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode;
  /** Extra fields placed next to `code` and `message` (e.g. the `dialId` of a 409). */
  readonly details: Record<string, unknown>;
  /** Response headers that belong to this error (e.g. `Allow` on a 405). */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: ApiErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  toBody(): ApiErrorBody {
    return { error: { ...this.details, code: this.code, message: this.message } };
  }
}

export const badRequest = (message: string): ApiError => new ApiError(400, 'invalid_request', message);
/** A 422; `field` (when given) is answered as `error.field`, so a client can point at the input. */
export const unprocessable = (message: string, field?: string): ApiError =>
  new ApiError(422, 'validation_failed', message, field === undefined ? {} : { field });
export const notFound = (message: string): ApiError => new ApiError(404, 'not_found', message);
