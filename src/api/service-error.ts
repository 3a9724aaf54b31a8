// The one error every call to the service fails with: a `ServiceError` whose `code` says what went
// wrong. Its message is written by this client; an upstream body or a fetch error's text never
// becomes part of it.

/** What went wrong with a call to the service. */
export type ServiceErrorCode =
  | 'bad_request' // 400
  | 'unauthorized' // 401 / 403: the API key was refused
  | 'not_found' // 404
  | 'conflict' // 409: the idempotency key is already in use (see `conflictingDial`)
  | 'unprocessable' // 422: well-formed but invalid (unknown agent, ...)
  | 'rate_limited' // 429
  | 'server_error' // 5xx and any other unexpected status
  | 'network_error' // no answer at all
  | 'timeout' // no answer within `timeoutMs`
  | 'aborted' // the caller's signal fired
  | 'invalid_response' // 2xx with a body that is not the documented shape
  | 'graphql_error'; // the GraphQL endpoint answered with `errors` (messages in `serviceMessages`)

/** The code of each HTTP status the service answers on purpose; any other failing status is `server_error`. */
export const SERVICE_ERROR_OF_STATUS: Readonly<Record<number, ServiceErrorCode>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'unauthorized',
  404: 'not_found',
  409: 'conflict',
  422: 'unprocessable',
  429: 'rate_limited',
};

/** The dial that already holds an idempotency key, as a create's 409 names it. */
export interface ConflictingDial {
  dialId: string;
  sessionId: string | null;
}

export interface ServiceErrorOptions {
  status?: number;
  cause?: unknown;
  retryAfterSeconds?: number | null;
  serviceMessages?: readonly string[];
  conflictingDial?: ConflictingDial | null;
}

export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly code: ServiceErrorCode;
  /** The service's HTTP status, 0 when there was no answer. */
  readonly status: number;
  /** From the service's `Retry-After`, when it sent one. */
  readonly retryAfterSeconds: number | null;
  /**
   * On a 409 to a dial create: the dial that already holds the idempotency key, when the service's
   * answer names one (`dialId`, and `sessionId` if given, at the top level or under `error`).
   */
  readonly conflictingDial: ConflictingDial | null;
  /** The service's own messages (GraphQL `errors[].message`, shortened): for logs, never for visitors. */
  readonly serviceMessages: readonly string[];

  constructor(code: ServiceErrorCode, message: string, options: ServiceErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.status = options.status ?? 0;
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
    this.conflictingDial = options.conflictingDial ?? null;
    this.serviceMessages = options.serviceMessages ?? [];
  }
}

/** A 2xx answer that is not the documented shape. */
export function invalidResponse(what: string): ServiceError {
  return new ServiceError('invalid_response', `the service answered ${what} without the documented fields`, {
    status: 200,
  });
}
