// A typed client for the calling service's dial operations (the four the companion needs).
// Web APIs only (fetch, AbortSignal), so it runs wherever the handler runs. Every call has a
// timeout and follows the caller's AbortSignal; every failure is a `ServiceError` whose message
// is written here — an upstream body or a fetch error's text never becomes part of it.

import { requestService, type ServiceTransport } from './service-request.js';

export type ServiceErrorCode =
  | 'bad_request' // 400
  | 'unauthorized' // 401 / 403: the API key was refused
  | 'not_found' // 404
  | 'conflict' // 409: idempotency key reused with another body
  | 'unprocessable' // 422: well-formed but invalid (unknown agent, ...)
  | 'rate_limited' // 429
  | 'server_error' // 5xx and any other unexpected status
  | 'network_error' // no answer at all
  | 'timeout' // no answer within `timeoutMs`
  | 'aborted' // the caller's signal fired
  | 'invalid_response'; // 2xx with a body that is not the documented shape

export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly code: ServiceErrorCode;
  /** The service's HTTP status, 0 when there was no answer. */
  readonly status: number;
  /** From the service's `Retry-After`, when it sent one. */
  readonly retryAfterSeconds: number | null;

  constructor(code: ServiceErrorCode, message: string, options: { status?: number; cause?: unknown; retryAfterSeconds?: number | null } = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.status = options.status ?? 0;
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
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

export interface DialTokenOutput {
  dialToken: string;
  /** The media server URL: an extension the emulator sends; the public API may omit it. */
  url?: string;
}

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
  getDial(dialId: string, options?: CallOptions): Promise<ServiceDial>;
  hangupDial(dialId: string, options?: CallOptions): Promise<{ success: boolean }>;
}

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (!baseUrl) throw new TypeError('createServiceClient: baseUrl is required');
  if (!options.apiKey) throw new TypeError('createServiceClient: apiKey is required');

  const transport: ServiceTransport = { baseUrl, apiKey: options.apiKey, timeoutMs, fetch: fetchImpl, maxResponseBytes: options.maxResponseBytes ?? 2 * 1024 * 1024 };
  const call = (method: 'GET' | 'POST', path: string, body: unknown, callOptions: CallOptions = {}): Promise<unknown> =>
    requestService(transport, {
      method,
      path,
      what: `${method} ${path.replace(/\/dials\/[^/]+/, '/dials/:id')}`,
      body,
      ...callOptions,
    });

  const invalid = (what: string): ServiceError => new ServiceError('invalid_response', `the service answered ${what} without the documented fields`, { status: 200 });
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
  const dialPath = (dialId: string) => `/dials/${encodeURIComponent(dialId)}`;

  return {
    async createDial(input, callOptions) {
      const answer = await call('POST', '/dials', input, callOptions);
      if (!isObject(answer) || typeof answer.dialId !== 'string' || !answer.dialId || typeof answer.dialToken !== 'string') {
        throw invalid('POST /dials');
      }
      return { dialId: answer.dialId, dialToken: answer.dialToken, sessionId: typeof answer.sessionId === 'string' ? answer.sessionId : '' };
    },
    async getDialToken(dialId, callOptions) {
      const answer = await call('POST', `${dialPath(dialId)}/token`, undefined, callOptions);
      if (!isObject(answer) || typeof answer.dialToken !== 'string' || !answer.dialToken) throw invalid('POST /dials/:id/token');
      const result: DialTokenOutput = { dialToken: answer.dialToken };
      if (typeof answer.url === 'string' && answer.url) result.url = answer.url;
      return result;
    },
    async getDial(dialId, callOptions) {
      const answer = await call('GET', dialPath(dialId), undefined, callOptions);
      if (!isObject(answer) || typeof answer.status !== 'string') throw invalid('GET /dials/:id');
      return { ...answer, id: typeof answer.id === 'string' ? answer.id : dialId, status: answer.status };
    },
    async hangupDial(dialId, callOptions) {
      const answer = await call('POST', `${dialPath(dialId)}/hangup`, undefined, callOptions);
      return { success: isObject(answer) ? answer.success !== false : true };
    },
  };
}
