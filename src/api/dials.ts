// The dial calls, one function each: the four REST routes a browser dial needs and the one GraphQL
// mutation (`browserDialToken`) that turns a dial token into media credentials, sent exactly as
// the service's own browser client sends it. The companion imports these and nothing else of the
// client; `api.dials` (resources/dials.ts) wraps them for everyone else.
// A create keeps no error body except the dial a 409 names (`conflictingDial`).
import { redactTokens } from './redact.js';
import { requestService } from './request.js';
import { ServiceError, invalidResponse, type ConflictingDial } from './service-error.js';
import type { CallOptions, DialTransport } from './transport.js';
import type {
  BrowserDialTokenOutput,
  CreateDialOutput,
  CreateDialRequest,
  DialTokenOutput,
  ServiceDial,
} from './types/dials.js';

/** The mutation text the service's own browser client sends, character for character. */
export const BROWSER_DIAL_TOKEN_MUTATION =
  'mutation BrowserDialToken($input: BrowserDialTokenInput!) { browserDialToken(input: $input) { token iceConfig telephonyProvider url } }';

/** At most this many characters of each service message reach the log, token-shaped parts redacted. */
const SERVICE_MESSAGE_LENGTH = 200;

const BROWSER_DIAL_TOKEN = 'GraphQL BrowserDialToken';

/** The hang-up mutation text the service's own browser client sends, character for character. */
export const HANGUP_CALL_MUTATION =
  'mutation HangupCall($dialId: ID!, $dropVoicemail: Boolean, $transferNumber: String) { hangupCall(dialId: $dialId, dropVoicemail: $dropVoicemail, transferNumber: $transferNumber) }';

const HANGUP_CALL = 'GraphQL HangupCall';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A call on one dial without a body: `what` names it without the id. */
function dialCall(
  transport: DialTransport,
  method: 'GET' | 'POST',
  dialId: string,
  action: '' | '/token' | '/hangup',
  what: string,
  options: CallOptions,
): Promise<unknown> {
  return requestService(transport, {
    method,
    path: `/dials/${encodeURIComponent(dialId)}${action}`,
    what,
    signal: options.signal,
    traceContext: options.traceContext,
  });
}

/** `POST /dials`. */
export async function createDial(
  transport: DialTransport,
  input: CreateDialRequest,
  options: CallOptions = {},
): Promise<CreateDialOutput> {
  let answer: unknown;
  try {
    answer = await requestService(transport, {
      method: 'POST',
      path: '/dials',
      what: 'POST /dials',
      body: input,
      keepErrorBody: true,
      signal: options.signal,
      idempotencyKey: options.idempotencyKey,
      traceContext: options.traceContext,
    });
  } catch (error) {
    throw withoutBody(error);
  }
  if (!isObject(answer) || typeof answer.dialId !== 'string' || !answer.dialId || typeof answer.dialToken !== 'string')
    throw invalidResponse('POST /dials');
  return {
    dialId: answer.dialId,
    dialToken: answer.dialToken,
    sessionId: typeof answer.sessionId === 'string' ? answer.sessionId : '',
  };
}

/** `POST /dials/{id}/token`: a fresh dial token. */
export async function getDialToken(
  transport: DialTransport,
  dialId: string,
  options: CallOptions = {},
): Promise<DialTokenOutput> {
  const answer = await dialCall(transport, 'POST', dialId, '/token', 'POST /dials/:id/token', options);
  if (!isObject(answer) || typeof answer.dialToken !== 'string' || !answer.dialToken)
    throw invalidResponse('POST /dials/:id/token');
  return { dialToken: answer.dialToken };
}

/** The GraphQL mutation `browserDialToken` for the dial session, authorised by the dial token. */
export async function browserDialToken(
  transport: DialTransport,
  dialToken: string,
  sessionId: string,
  options: CallOptions = {},
): Promise<BrowserDialTokenOutput> {
  // The dial token, not the API key, authorises it: the same request the service's browser client makes.
  const answer = await requestService(
    { ...transport, baseUrl: transport.graphqlUrl, apiKey: dialToken },
    {
      method: 'POST',
      path: '',
      what: BROWSER_DIAL_TOKEN,
      body: {
        operationName: 'BrowserDialToken',
        query: BROWSER_DIAL_TOKEN_MUTATION,
        variables: { input: { type: 'DIAL_SESSION', dialSessionId: sessionId, liveListen: false } },
      },
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.traceContext ? { traceContext: options.traceContext } : {}),
    },
  );
  throwGraphqlErrors(answer, BROWSER_DIAL_TOKEN);
  const data = isObject(answer) && isObject(answer.data) ? answer.data.browserDialToken : undefined;
  if (!isObject(data) || typeof data.token !== 'string' || !data.token || typeof data.telephonyProvider !== 'string')
    throw invalidResponse(BROWSER_DIAL_TOKEN);
  return {
    token: data.token,
    telephonyProvider: data.telephonyProvider,
    url: typeof data.url === 'string' && data.url ? data.url : null,
    iceConfig: typeof data.iceConfig === 'string' && data.iceConfig ? data.iceConfig : null,
  };
}

/** A GraphQL answer with `errors` (HTTP 200, the GraphQL way) as a `ServiceError` `graphql_error`. */
function throwGraphqlErrors(answer: unknown, what: string): void {
  if (!isObject(answer) || !Array.isArray(answer.errors) || answer.errors.length === 0) return;
  const serviceMessages = answer.errors.map((error: unknown) =>
    isObject(error) && typeof error.message === 'string'
      ? redactTokens(error.message.slice(0, 4 * SERVICE_MESSAGE_LENGTH)).slice(0, SERVICE_MESSAGE_LENGTH)
      : '(no message)',
  );
  throw new ServiceError(
    'graphql_error',
    `the service answered ${what} with ${answer.errors.length} GraphQL error(s)`,
    {
      status: 200,
      serviceMessages,
    },
  );
}

/**
 * The GraphQL mutation `hangupCall(dialId, transferNumber)`: the service hands the live call to
 * `transferNumber` (E.164) and the AI leaves it. Authorised by the workspace API key (the service
 * accepts one on GraphQL as well as a dial token). Resolves once the service accepted it.
 */
export async function transferCall(
  transport: DialTransport,
  dialId: string,
  transferNumber: string,
  options: CallOptions = {},
): Promise<{ success: boolean }> {
  const answer = await requestService(
    { ...transport, baseUrl: transport.graphqlUrl },
    {
      method: 'POST',
      path: '',
      what: HANGUP_CALL,
      body: {
        operationName: 'HangupCall',
        query: HANGUP_CALL_MUTATION,
        variables: { dialId, dropVoicemail: null, transferNumber },
      },
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
  throwGraphqlErrors(answer, HANGUP_CALL);
  const data = isObject(answer) && isObject(answer.data) ? answer.data.hangupCall : undefined;
  if (typeof data !== 'boolean') throw invalidResponse(HANGUP_CALL);
  return { success: data };
}

/** `GET /dials/{id}`: checked for a `status`; the rest is the service's, for the caller to check. */
export async function getDial(
  transport: DialTransport,
  dialId: string,
  options: CallOptions = {},
): Promise<ServiceDial> {
  const answer = await dialCall(transport, 'GET', dialId, '', 'GET /dials/:id', options);
  if (!isObject(answer) || typeof answer.status !== 'string') throw invalidResponse('GET /dials/:id');
  // The parsed answer is this call's own: completed in place rather than copied.
  if (typeof answer.id !== 'string') answer.id = dialId;
  return answer as ServiceDial;
}

/** `POST /dials/{id}/hangup`. */
export async function hangupDial(
  transport: DialTransport,
  dialId: string,
  options: CallOptions = {},
): Promise<{ success: boolean }> {
  const answer = await dialCall(transport, 'POST', dialId, '/hangup', 'POST /dials/:id/hangup', options);
  return { success: isObject(answer) ? answer.success !== false : true };
}

/**
 * The create's error without the service's body (the dial calls keep none), except for a 409 that
 * names the dial holding the key: its ids become `conflictingDial`. The seed does not show the
 * 409's body, so both the top level and an `error` object are read.
 */
function withoutBody(error: unknown): unknown {
  if (!(error instanceof ServiceError) || error.status === 0) return error;
  let conflictingDial: ConflictingDial | null = null;
  if (error.code === 'conflict') {
    const body = (error.cause as { body?: unknown } | undefined)?.body;
    for (const place of [body, isObject(body) ? body.error : undefined]) {
      if (!isObject(place)) continue;
      const { dialId, sessionId } = place;
      if (typeof dialId === 'string' && dialId !== '') {
        conflictingDial = { dialId, sessionId: typeof sessionId === 'string' && sessionId !== '' ? sessionId : null };
        break;
      }
    }
  }
  return new ServiceError(error.code, error.message, {
    status: error.status,
    retryAfterSeconds: error.retryAfterSeconds,
    conflictingDial,
  });
}
