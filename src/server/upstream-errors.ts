// A failed call to the service, as the companion answers it: one typed table from every
// `ServiceErrorCode` to a companion error (README: "Error codes: the companion and the service").
// The visitor gets the companion's code and words; the service's code, message and GraphQL
// messages go to the log as the reason, never into the answer.
import { redactTokens } from '../api/redact.js';
import { ServiceError, type ServiceErrorCode } from '../api/service-error.js';
import { clampRetryAfter } from './checks.js';
import { HttpError, type CompanionErrorCode } from './errors.js';
import type { RouteName } from './routes.js';

/** What the visitor is answered for one service error. */
export interface UpstreamAnswer {
  code: CompanionErrorCode;
  message: string;
  /** Replaces `message` on `POST /dials`. */
  messageOnCreate?: string;
  /** Added to the logged reason: the setting to check. */
  hint?: string;
  /** The service's `Retry-After` is passed on, clamped to 1–300 s. */
  retryAfter?: true;
}

const CLIENT_CLOSED: UpstreamAnswer = { code: 'client_closed', message: 'the client closed the connection' };
const TIMEOUT: UpstreamAnswer = { code: 'upstream_timeout', message: 'the calling service did not answer in time' };
/**
 * 400 and 422 too: the companion checked the visitor's input already, so these mean a
 * configuration problem (a wrong agent id, say), which the visitor cannot fix.
 */
const FAILED: UpstreamAnswer = { code: 'upstream_error', message: 'the calling service could not handle the request' };

const GRAPHQL_URL: UpstreamAnswer = { ...FAILED, hint: 'check VOICE_AGENT_GRAPHQL_URL' };

/** How the companion answers a service error: on the REST dial calls, and on the GraphQL step of the token route. */
export interface UpstreamErrorRow {
  /** `POST /dials`, `POST /dials/{id}/token`, `GET /dials/{id}`, `POST /dials/{id}/hangup`. */
  readonly rest: UpstreamAnswer;
  /** `browserDialToken`: anything but a timeout is a 502. */
  readonly graphql: UpstreamAnswer;
}

/** Every service error, what the companion answers for it. */
export const UPSTREAM_ERRORS: { readonly [Code in ServiceErrorCode]: UpstreamErrorRow } = {
  bad_request: { rest: FAILED, graphql: FAILED },
  unauthorized: { rest: { ...FAILED, hint: 'check VOICE_AGENT_API_KEY' }, graphql: FAILED },
  not_found: { rest: { code: 'not_found', message: 'no such dial' }, graphql: GRAPHQL_URL },
  // The companion has one 409 code. On create it means a reused Idempotency-Key (one the service
  // names a dial for is adopted before this table is read); on the dial's own routes the service
  // refuses because of the dial's state (e.g. a token for an ended dial).
  conflict: {
    rest: {
      code: 'duplicate_request',
      message: 'the dial has already ended or cannot do this now',
      messageOnCreate: 'this Idempotency-Key is already in use for a dial the service did not name',
    },
    graphql: FAILED,
  },
  unprocessable: { rest: FAILED, graphql: FAILED },
  rate_limited: {
    rest: { code: 'rate_limited', message: 'the calling service is busy; try again later', retryAfter: true },
    graphql: FAILED,
  },
  server_error: { rest: FAILED, graphql: FAILED },
  network_error: { rest: FAILED, graphql: GRAPHQL_URL },
  timeout: { rest: TIMEOUT, graphql: TIMEOUT },
  aborted: { rest: CLIENT_CLOSED, graphql: FAILED },
  invalid_response: { rest: FAILED, graphql: FAILED },
  graphql_error: { rest: FAILED, graphql: FAILED },
};

function answer(error: ServiceError, entry: UpstreamAnswer, route: RouteName, reason: string): HttpError {
  return new HttpError(entry.code, route === 'create' ? (entry.messageOnCreate ?? entry.message) : entry.message, {
    reason: entry.hint === undefined ? reason : `${reason} (${entry.hint})`,
    ...(entry.retryAfter ? { headers: { 'retry-after': String(clampRetryAfter(error.retryAfterSeconds)) } } : {}),
  });
}

/** A REST dial call's failure as the companion's answer; anything but a `ServiceError` is rethrown (a bug). */
export function upstreamFailure(error: unknown, route: RouteName): HttpError {
  if (!(error instanceof ServiceError)) throw error;
  return answer(error, UPSTREAM_ERRORS[error.code].rest, route, `${error.code}: ${error.message}`);
}

/** A failure of the GraphQL step: the service's own messages go to the log, never to the visitor. */
export function graphqlFailure(error: unknown): HttpError {
  if (!(error instanceof ServiceError)) throw error;
  // Redacted here too: a service client of the integrator's own may not have done it.
  const said =
    error.serviceMessages.length > 0
      ? `; the service said: ${error.serviceMessages.map((message) => redactTokens(message)).join(' | ')}`
      : '';
  return answer(
    error,
    UPSTREAM_ERRORS[error.code].graphql,
    'token',
    `browserDialToken: ${error.code}: ${error.message}${said}`,
  );
}
