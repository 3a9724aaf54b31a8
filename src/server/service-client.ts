// A typed client for the calling service's dial operations: the four REST routes the companion
// needs, and the one GraphQL mutation (`browserDialToken`) that turns a dial token into media
// credentials, sent exactly as the service's own browser client sends it.
// Web APIs only (fetch, AbortSignal), so it runs wherever the handler runs. Every call has a
// timeout and follows the caller's AbortSignal; every failure is a `ServiceError` whose message
// is written here — an upstream body or a fetch error's text never becomes part of it.

import { requestService, type ServiceTransport } from './service-request.js';

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

export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly code: ServiceErrorCode;
  /** The service's HTTP status, 0 when there was no answer. */
  readonly status: number;
  /** From the service's `Retry-After`, when it sent one. */
  readonly retryAfterSeconds: number | null;
  /**
   * On a 409 to `createDial`: the dial that already holds the idempotency key, when the service's
   * answer names one (`dialId`, and `sessionId` if given, at the top level or under `error`).
   */
  readonly conflictingDial: { dialId: string; sessionId: string | null } | null;
  /** The service's own messages (GraphQL `errors[].message`, shortened): for logs, never for visitors. */
  readonly serviceMessages: readonly string[];

  constructor(
    code: ServiceErrorCode,
    message: string,
    options: {
      status?: number;
      cause?: unknown;
      retryAfterSeconds?: number | null;
      serviceMessages?: readonly string[];
      conflictingDial?: { dialId: string; sessionId: string | null } | null;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.code = code;
    this.status = options.status ?? 0;
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
    this.conflictingDial = options.conflictingDial ?? null;
    this.serviceMessages = options.serviceMessages ?? [];
  }
}

export interface CreateDialInput {
  callAgentId: string;
  browserCall: boolean;
  callAgentInput?: Record<string, string>;
  timeoutMinutes?: number;
}

export interface CreateDialOutput {
  dialToken: string;
  sessionId: string;
  dialId: string;
}

/** `POST /dials/{id}/token`: a fresh dial token; it authorises the GraphQL API for this dial only. */
export interface DialTokenOutput {
  dialToken: string;
}

/** `browserDialToken`'s answer (`BrowserDialTokenRes`): the media credentials. */
export interface BrowserDialTokenOutput {
  /** For `telephonyProvider: "livekit"`, a LiveKit access token. */
  token: string;
  /** `livekit`, or another provider (e.g. `vonage`) whose SDK this project does not use. */
  telephonyProvider: string;
  /** The media server URL, when the service sends one. */
  url: string | null;
  /** A string in the schema; its format is not documented. */
  iceConfig: string | null;
}

/** The mutation text the service's own browser client sends, character for character. */
export const BROWSER_DIAL_TOKEN_MUTATION =
  'mutation BrowserDialToken($input: BrowserDialTokenInput!) { browserDialToken(input: $input) { token iceConfig telephonyProvider url } }';

export interface ServiceTranscriptLine {
  text: string;
  speaker: string;
  startTimeMs?: number;
  endTimeMs?: number;
}

/** The part of the service's Dial record the companion reads; the rest is left untyped on purpose. */
export interface ServiceDial {
  id: string;
  status: string;
  systemResultType?: string | null;
  transcript?: ServiceTranscriptLine[] | null;
  durationSeconds?: number | null;
  aiDurationSeconds?: number | null;
  aiResult?: unknown;
  startedAt?: string | null;
  endedAt?: string | null;
  [field: string]: unknown;
}

export interface ServiceClientOptions {
  /** The service's API base URL, e.g. `https://api.example.com/api` or the emulator's `apiUrl`. */
  baseUrl: string;
  /** The service's GraphQL endpoint. Default: the origin of `baseUrl` + `/query`. */
  graphqlUrl?: string;
  apiKey: string;
  /** Per call, including reading the body. Default 10 000 ms. */
  timeoutMs?: number;
  /** Replaces the global fetch (tests, instrumented fetches). */
  fetch?: typeof fetch;
  /** Longest answer read from the service, default 2 MiB (a long call's full transcript is a few hundred KB). */
  maxResponseBytes?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Sent as the `Idempotency-Key` header (create only). */
  idempotencyKey?: string;
}

export interface ServiceClient {
  createDial(input: CreateDialInput, options?: CallOptions): Promise<CreateDialOutput>;
  getDialToken(dialId: string, options?: CallOptions): Promise<DialTokenOutput>;
  /** The GraphQL mutation `browserDialToken` for the dial session, authorised by the dial token. */
  browserDialToken(dialToken: string, sessionId: string, options?: CallOptions): Promise<BrowserDialTokenOutput>;
  getDial(dialId: string, options?: CallOptions): Promise<ServiceDial>;
  hangupDial(dialId: string, options?: CallOptions): Promise<{ success: boolean }>;
}

/**
 * The create's error without the service's body (this client keeps none), except for a 409 that
 * names the dial holding the key: its ids become `conflictingDial`. The seed does not show the
 * 409's body, so both the top level and an `error` object are read.
 */
function withoutBody(error: unknown): unknown {
  if (!(error instanceof ServiceError) || error.status === 0) return error;
  let conflictingDial: { dialId: string; sessionId: string | null } | null = null;
  if (error.code === 'conflict') {
    const body = (error.cause as { body?: unknown } | undefined)?.body;
    for (const place of [body, (body as { error?: unknown } | null | undefined)?.error]) {
      if (typeof place !== 'object' || place === null) continue;
      const { dialId, sessionId } = place as { dialId?: unknown; sessionId?: unknown };
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

/** The GraphQL endpoint the service's browser client uses: the API's origin + `/query`. */
export function defaultGraphqlUrl(baseUrl: string): string {
  return new URL('/query', baseUrl).href;
}

/** At most this many characters of each service message reach the log. */
const SERVICE_MESSAGE_LENGTH = 200;

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (!baseUrl) throw new TypeError('createServiceClient: baseUrl is required');
  if (!options.apiKey) throw new TypeError('createServiceClient: apiKey is required');
  let graphqlUrl: string;
  try {
    graphqlUrl = options.graphqlUrl ? new URL(options.graphqlUrl).href : defaultGraphqlUrl(baseUrl);
  } catch {
    throw new TypeError('createServiceClient: graphqlUrl (or baseUrl) is not an absolute URL');
  }

  const transport: ServiceTransport = {
    baseUrl,
    apiKey: options.apiKey,
    timeoutMs,
    fetch: fetchImpl,
    maxResponseBytes: options.maxResponseBytes ?? 2 * 1024 * 1024,
  };
  const call = (
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    callOptions: CallOptions = {},
    keepErrorBody = false,
  ): Promise<unknown> =>
    requestService(transport, {
      method,
      path,
      what: `${method} ${path.replace(/\/dials\/[^/]+/, '/dials/:id')}`,
      body,
      keepErrorBody,
      ...callOptions,
    });

  const invalid = (what: string): ServiceError =>
    new ServiceError('invalid_response', `the service answered ${what} without the documented fields`, { status: 200 });
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  const dialPath = (dialId: string) => `/dials/${encodeURIComponent(dialId)}`;

  return {
    async createDial(input, callOptions) {
      let answer: unknown;
      try {
        answer = await call('POST', '/dials', input, callOptions, true);
      } catch (error) {
        throw withoutBody(error);
      }
      if (
        !isObject(answer) ||
        typeof answer.dialId !== 'string' ||
        !answer.dialId ||
        typeof answer.dialToken !== 'string'
      ) {
        throw invalid('POST /dials');
      }
      return {
        dialId: answer.dialId,
        dialToken: answer.dialToken,
        sessionId: typeof answer.sessionId === 'string' ? answer.sessionId : '',
      };
    },
    async getDialToken(dialId, callOptions) {
      const answer = await call('POST', `${dialPath(dialId)}/token`, undefined, callOptions);
      if (!isObject(answer) || typeof answer.dialToken !== 'string' || !answer.dialToken)
        throw invalid('POST /dials/:id/token');
      return { dialToken: answer.dialToken };
    },
    async browserDialToken(dialToken, sessionId, callOptions = {}) {
      const what = 'GraphQL BrowserDialToken';
      // The dial token, not the API key, authorises it: the same request the service's browser client makes.
      const answer = await requestService(
        { ...transport, baseUrl: graphqlUrl, apiKey: dialToken },
        {
          method: 'POST',
          path: '',
          what,
          body: {
            operationName: 'BrowserDialToken',
            query: BROWSER_DIAL_TOKEN_MUTATION,
            variables: { input: { type: 'DIAL_SESSION', dialSessionId: sessionId, liveListen: false } },
          },
          ...(callOptions.signal ? { signal: callOptions.signal } : {}),
        },
      );
      if (isObject(answer) && Array.isArray(answer.errors) && answer.errors.length > 0) {
        const serviceMessages = answer.errors.map((error: unknown) =>
          isObject(error) && typeof error.message === 'string'
            ? error.message.slice(0, SERVICE_MESSAGE_LENGTH)
            : '(no message)',
        );
        throw new ServiceError(
          'graphql_error',
          `the service answered ${what} with ${answer.errors.length} GraphQL error(s)`,
          { status: 200, serviceMessages },
        );
      }
      const data = isObject(answer) && isObject(answer.data) ? answer.data.browserDialToken : undefined;
      if (
        !isObject(data) ||
        typeof data.token !== 'string' ||
        !data.token ||
        typeof data.telephonyProvider !== 'string'
      )
        throw invalid(what);
      return {
        token: data.token,
        telephonyProvider: data.telephonyProvider,
        url: typeof data.url === 'string' && data.url ? data.url : null,
        iceConfig: typeof data.iceConfig === 'string' && data.iceConfig ? data.iceConfig : null,
      };
    },
    async getDial(dialId, callOptions) {
      const answer = await call('GET', dialPath(dialId), undefined, callOptions);
      if (!isObject(answer) || typeof answer.status !== 'string') throw invalid('GET /dials/:id');
      // The parsed answer is this call's own: completed in place rather than copied.
      if (typeof answer.id !== 'string') answer.id = dialId;
      return answer as ServiceDial;
    },
    async hangupDial(dialId, callOptions) {
      const answer = await call('POST', `${dialPath(dialId)}/hangup`, undefined, callOptions);
      return { success: isObject(answer) ? answer.success !== false : true };
    },
  };
}
