// The companion endpoint: one Web-standard `(Request) => Promise<Response>` handler that holds the
// service's API key and gives visitors signed, expiring handles for the dials they create.
// Web APIs only, so it mounts in Node (see node.ts), Workers, Deno, Bun and framework route handlers.
import { BASE_HEADERS, HttpError, errorResponse, jsonResponse } from './errors.js';
import { createHandleSigner, hmacBase64Url, randomSecret } from './handles.js';
import { consoleLogger, silentLogger } from './log.js';
import type { CompanionLogEntry, CompanionLogger } from './log.js';
import { createMemoryRateLimiter } from './rate-limit.js';
import type { RateLimiter } from './rate-limit.js';
import { ServiceError, createServiceClient } from './service-client.js';
import type { ServiceClient, ServiceDial } from './service-client.js';
import { cacheVerifications } from './verify-cache.js';

export interface CompanionConfig {
  /** The service's API key. Never leaves the server. */
  apiKey: string;
  /** The service's API base URL (the emulator's `apiUrl` in development). */
  baseUrl: string;
  /** Agent name → agent id. The element's `agent` attribute picks a name; no name means `default`. */
  agents?: Record<string, string>;
  /** Shorthand for `agents.default`. */
  agentId?: string;
  /** Media server URL used when the service's token answer carries none. */
  mediaUrl?: string;
  /** Handle signing key, at least 32 characters. Required unless `dev` is true. */
  secret?: string;
  /** Development mode: without a `secret`, a random one is made (handles die with the process). */
  dev?: boolean;
  /** Origins allowed to call cross-origin (CORS). Same-origin requests need no entry. */
  allowedOrigins?: string[];
  /** Keys of `inputs` that reach the service as `callAgentInput`; others are dropped. */
  allowedInputs?: string[];
  /** Longest input value, default 500 characters. */
  maxInputLength?: number;
  /** `timeoutMinutes` sent with every dial: the call's time cap. Default 10. */
  timeoutMinutes?: number;
  /** How long a handle outlives the dial's time cap, default 900 s (to read the result). */
  handleMarginSeconds?: number;
  /**
   * Path the routes live under, e.g. `/api/voice-call`. Without it, routes match the path's tail
   * (`…/dials`, `…/dials/:id/token`), so the handler works under any prefix.
   */
  basePath?: string;
  /** Request body limit, default 16 KiB. */
  maxBodyBytes?: number;
  /** Timeout of each call to the service, default 10 000 ms. */
  upstreamTimeoutMs?: number;
  /** Dial creations allowed per minute: per client address (default 10) and in total (default 100). */
  rateLimit?: { perAddress?: number; total?: number; windowMs?: number };
  /** Replace the in-memory limiters, e.g. with a Redis-backed `RateLimiter` shared by instances. */
  rateLimiters?: { perAddress?: RateLimiter; total?: RateLimiter };
  /** Take the client address from the last `X-Forwarded-For` hop (only behind a proxy you run). */
  trustProxy?: boolean;
  /** Replaces fetch for calls to the service. */
  fetch?: typeof fetch;
  /** Replaces the service client entirely (then `apiKey`/`baseUrl` are not used for calls). */
  serviceClient?: ServiceClient;
  /** Receives one entry per request; `false` silences. Default: JSON lines on stderr. */
  logger?: CompanionLogger | false;
  /** Clock, for tests. */
  now?: () => number;
}

export interface CompanionRequestContext {
  /** The client's network address (the Node adapter passes the socket's remote address). */
  clientAddress?: string;
}

export type CompanionHandler = (request: Request, context?: CompanionRequestContext) => Promise<Response>;

type Route =
  | { name: 'create'; pattern: 'POST /dials'; methods: readonly string[] }
  | { name: 'token' | 'read' | 'hangup'; pattern: string; methods: readonly string[]; rawId: string };

interface Exchange {
  request: Request;
  address: string;
  dialId?: string;
}

const MIN_SECRET_LENGTH = 32;
const DIAL_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:+/=-]{1,255}$/;
const BODY_FIELDS = new Set(['agent', 'inputs']);
const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i;

export function createCompanionHandler(config: CompanionConfig): CompanionHandler {
  const log: CompanionLogger = config.logger === false ? silentLogger : (config.logger ?? consoleLogger);
  const now = config.now ?? Date.now;
  const agents: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, config.agentId ? { default: config.agentId } : {}, config.agents);
  if (Object.keys(agents).length === 0) throw new TypeError('createCompanionHandler: configure at least one agent (agentId or agents)');
  let secret = config.secret;
  if (!secret) {
    if (!config.dev) throw new TypeError('createCompanionHandler: a secret (COMPANION_SECRET) is required outside dev mode');
    secret = randomSecret();
    log({ time: new Date(now()).toISOString(), level: 'warn', message: 'dev mode: no secret configured, signing handles with a random one; handles stop working when the process restarts' });
  } else if (secret.length < MIN_SECRET_LENGTH) {
    throw new TypeError(`createCompanionHandler: the secret must be at least ${MIN_SECRET_LENGTH} characters`);
  }
  const signingSecret = secret;
  const signer = cacheVerifications(createHandleSigner(signingSecret));
  const service =
    config.serviceClient ??
    createServiceClient({
      baseUrl: config.baseUrl,
      apiKey: config.apiKey,
      timeoutMs: config.upstreamTimeoutMs ?? 10_000,
      ...(config.fetch ? { fetch: config.fetch } : {}),
    });
  const allowedOrigins = new Set((config.allowedOrigins ?? []).map((origin) => origin.trim().replace(/\/+$/, '')).filter(Boolean));
  const allowedInputs = new Set(config.allowedInputs ?? []);
  const maxInputLength = config.maxInputLength ?? 500;
  const timeoutMinutes = config.timeoutMinutes ?? 10;
  // The service reads a missing or zero cap as "no limit": every dial gets a real one.
  if (!Number.isInteger(timeoutMinutes) || timeoutMinutes < 1) throw new TypeError('createCompanionHandler: timeoutMinutes must be a whole number ≥ 1');
  const handleLifetimeMs = (timeoutMinutes * 60 + (config.handleMarginSeconds ?? 900)) * 1000;
  const maxBodyBytes = config.maxBodyBytes ?? 16 * 1024;
  const windowMs = config.rateLimit?.windowMs ?? 60_000;
  const perAddress = config.rateLimiters?.perAddress ?? createMemoryRateLimiter({ limit: config.rateLimit?.perAddress ?? 10, windowMs, now });
  const total = config.rateLimiters?.total ?? createMemoryRateLimiter({ limit: config.rateLimit?.total ?? 100, windowMs, now });
  const basePath = config.basePath ? '/' + config.basePath.replace(/^\/+|\/+$/g, '') : null;

  function matchRoute(pathname: string): Route | null {
    let segments = pathname.split('/');
    if (basePath !== null) {
      if (!(pathname === basePath || pathname.startsWith(basePath + '/'))) return null;
      segments = ['', ...pathname.slice(basePath.length).split('/').slice(1)];
      if (segments.length < 2 || segments.length > 4) return null;
    }
    const n = segments.length;
    const tail = (k: number) => segments[n - k];
    if (n >= 4 && tail(3) === 'dials' && (tail(1) === 'token' || tail(1) === 'hangup')) {
      const name = tail(1) as 'token' | 'hangup';
      return { name, pattern: `POST /dials/:id/${name}`, methods: ['POST'], rawId: tail(2)! };
    }
    if (n >= 3 && tail(2) === 'dials' && (basePath === null || n === 3)) return { name: 'read', pattern: 'GET /dials/:id', methods: ['GET'], rawId: tail(1)! };
    if (n >= 2 && tail(1) === 'dials' && (basePath === null || n === 2)) return { name: 'create', pattern: 'POST /dials', methods: ['POST'] };
    return null;
  }

  /** CORS headers for an allowed cross-origin request; empty for same-origin and refused ones. */
  function corsHeaders(request: Request): Record<string, string> {
    const origin = request.headers.get('origin');
    if (origin === null || !allowedOrigins.has(origin)) return {};
    return { 'access-control-allow-origin': origin, vary: 'Origin', 'access-control-expose-headers': 'Retry-After' };
  }

  function originAllowed(request: Request, url: URL): boolean {
    const origin = request.headers.get('origin');
    return origin === null || origin === url.origin || allowedOrigins.has(origin);
  }

  function clientAddress(request: Request, context: CompanionRequestContext | undefined): string {
    if (config.trustProxy) {
      const hops = (request.headers.get('x-forwarded-for') ?? '').split(',').map((hop) => hop.trim()).filter(Boolean);
      const last = hops.at(-1);
      if (last) return last;
    }
    return context?.clientAddress || 'unknown';
  }

  async function readBody(request: Request): Promise<string> {
    const declared = Number(request.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBodyBytes) throw new HttpError('payload_too_large', `the request body exceeds ${maxBodyBytes} bytes`);
    if (!request.body) return '';
    const reader = request.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBodyBytes) {
        await reader.cancel().catch(() => {});
        throw new HttpError('payload_too_large', `the request body exceeds ${maxBodyBytes} bytes`);
      }
      chunks.push(value);
    }
    const bytes = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new HttpError('invalid_request', 'the request body is not UTF-8');
    }
  }

  function parseJson(text: string): unknown {
    try {
      return JSON.parse(text);
    } catch {
      throw new HttpError('invalid_request', 'the request body is not valid JSON');
    }
  }

  const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

  function upstreamFailure(error: unknown, route: Route['name']): HttpError {
    if (!(error instanceof ServiceError)) throw error;
    const reason = `${error.code}: ${error.message}`;
    switch (error.code) {
      case 'not_found':
        return new HttpError('not_found', 'no such dial', { reason });
      case 'conflict':
        // The contract has one 409 code. On create it means a reused Idempotency-Key; on the dial's
        // own routes the service refuses because of the dial's state (e.g. a token for an ended dial).
        return new HttpError(
          'duplicate_request',
          route === 'create' ? 'this Idempotency-Key was already used with a different request' : 'the dial has already ended or cannot do this now',
          { reason },
        );
      case 'rate_limited':
        return new HttpError('rate_limited', 'the calling service is busy; try again later', {
          reason,
          headers: { 'retry-after': String(error.retryAfterSeconds ?? 30) },
        });
      case 'timeout':
        return new HttpError('upstream_timeout', 'the calling service did not answer in time', { reason });
      case 'unauthorized':
        return new HttpError('upstream_error', 'the calling service could not handle the request', { reason: `${reason} (check VOICE_AGENT_API_KEY)` });
      default:
        return new HttpError('upstream_error', 'the calling service could not handle the request', { reason });
    }
  }

  async function authorize(exchange: Exchange, dialId: string, bodyHandle?: string): Promise<void> {
    const header = exchange.request.headers.get('authorization');
    let handle = bodyHandle;
    if (header !== null) {
      const match = /^Bearer +([^\s]+)$/i.exec(header.trim());
      handle = match?.[1];
    }
    if (!handle || !(await signer.verify(handle, dialId, now()))) {
      throw new HttpError('invalid_handle', 'the handle is missing, malformed, expired or for another dial');
    }
  }

  async function createDial(exchange: Exchange): Promise<Response> {
    const { request } = exchange;
    const text = await readBody(request);
    const contentType = request.headers.get('content-type');
    if (text.trim() !== '' && (contentType === null || !JSON_TYPE.test(contentType))) {
      throw new HttpError('invalid_request', 'send the body as application/json');
    }
    const body = text.trim() === '' ? {} : parseJson(text);
    if (!isPlainObject(body)) throw new HttpError('invalid_request', 'the body must be a JSON object');
    const unknownField = Object.keys(body).find((field) => !BODY_FIELDS.has(field));
    if (unknownField !== undefined) throw new HttpError('invalid_request', 'the body may only have the fields agent and inputs');
    const agentName = body.agent ?? 'default';
    if (typeof agentName !== 'string') throw new HttpError('invalid_request', 'agent must be a string');
    if (!Object.hasOwn(agents, agentName)) throw new HttpError('invalid_request', 'unknown agent');
    const callAgentId = agents[agentName]!;
    const inputs = body.inputs ?? {};
    if (!isPlainObject(inputs)) throw new HttpError('invalid_request', 'inputs must be an object of strings');
    const callAgentInput: Record<string, string> = {};
    for (const key of allowedInputs) {
      if (!Object.hasOwn(inputs, key)) continue;
      const value = inputs[key];
      if (typeof value !== 'string') throw new HttpError('invalid_request', `inputs.${key} must be a string`);
      if (value.length > maxInputLength) throw new HttpError('invalid_request', `inputs.${key} is longer than ${maxInputLength} characters`);
      callAgentInput[key] = value;
    }
    const idempotencyKey = request.headers.get('idempotency-key');
    if (idempotencyKey !== null && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
      throw new HttpError('invalid_request', 'Idempotency-Key must be 1-255 characters of A-Z a-z 0-9 . _ : + / = -');
    }

    for (const [limiter, key] of [
      [perAddress, exchange.address],
      [total, 'total'],
    ] as const) {
      const verdict = await limiter.take(key);
      if (!verdict.allowed) {
        throw new HttpError('rate_limited', 'too many calls started; try again later', {
          headers: { 'retry-after': String(Math.max(1, Math.ceil(verdict.retryAfterSeconds))) },
          reason: key === 'total' ? 'total limit' : 'per-address limit',
        });
      }
    }

    let created;
    try {
      created = await service.createDial(
        { callAgentId, browserCall: true, callAgentInput, timeoutMinutes },
        {
          signal: request.signal,
          // Scoped to the client address, so one visitor cannot replay another visitor's dial by reusing its key.
          ...(idempotencyKey !== null ? { idempotencyKey: await hmacBase64Url(signingSecret, `idempotency\n${exchange.address}\n${idempotencyKey}`) } : {}),
        },
      );
    } catch (error) {
      throw upstreamFailure(error, 'create');
    }
    exchange.dialId = created.dialId;
    const expiresAtMs = now() + handleLifetimeMs;
    const handle = await signer.sign(created.dialId, expiresAtMs);
    return jsonResponse(200, { dialId: created.dialId, handle, expiresAt: new Date(Math.floor(expiresAtMs / 1000) * 1000).toISOString() });
  }

  async function token(exchange: Exchange, dialId: string): Promise<Response> {
    await authorize(exchange, dialId);
    let answer;
    try {
      answer = await service.getDialToken(dialId, { signal: exchange.request.signal });
    } catch (error) {
      throw upstreamFailure(error, 'token');
    }
    const serverUrl = answer.url ?? config.mediaUrl;
    if (!serverUrl) {
      throw new HttpError('upstream_error', 'the media server is not known', {
        reason: 'the service sent no media url and VOICE_AGENT_MEDIA_URL (mediaUrl) is not configured',
      });
    }
    return jsonResponse(200, { serverUrl, participantToken: answer.dialToken });
  }

  async function read(exchange: Exchange, dialId: string): Promise<Response> {
    await authorize(exchange, dialId);
    let dial: ServiceDial;
    try {
      dial = await service.getDial(dialId, { signal: exchange.request.signal });
    } catch (error) {
      throw upstreamFailure(error, 'read');
    }
    return jsonResponse(200, publicDial(dialId, dial));
  }

  async function hangup(exchange: Exchange, dialId: string): Promise<Response> {
    let bodyHandle: string | undefined;
    if (exchange.request.headers.get('authorization') === null) {
      // navigator.sendBeacon cannot set headers: the handle comes in the body (JSON, text/plain or a typed Blob).
      const text = await readBody(exchange.request);
      if (text.trim() !== '') {
        const body = parseJson(text);
        if (isPlainObject(body) && typeof body.handle === 'string') bodyHandle = body.handle;
      }
    }
    await authorize(exchange, dialId, bodyHandle);
    let answer;
    try {
      answer = await service.hangupDial(dialId, { signal: exchange.request.signal });
    } catch (error) {
      throw upstreamFailure(error, 'hangup');
    }
    return jsonResponse(200, { success: answer.success });
  }

  return async function handle(request, context) {
    const started = now();
    const exchange: Exchange = { request, address: clientAddress(request, context) };
    let route: Route | null = null;
    let response: Response;
    let failure: HttpError | undefined;
    let cors: Record<string, string> = {};
    try {
      const url = new URL(request.url);
      route = matchRoute(url.pathname);
      if (!originAllowed(request, url)) throw new HttpError('origin_not_allowed', 'this origin may not use the endpoint');
      cors = corsHeaders(request);
      if (!route) throw new HttpError('not_found', 'no such route');
      if (request.method === 'OPTIONS') {
        response = new Response(null, {
          status: 204,
          headers: {
            ...BASE_HEADERS,
            ...cors,
            allow: [...route.methods, 'OPTIONS'].join(', '),
            ...(cors['access-control-allow-origin']
              ? {
                  'access-control-allow-methods': [...route.methods, 'OPTIONS'].join(', '),
                  'access-control-allow-headers': 'Authorization, Content-Type, Idempotency-Key',
                  'access-control-max-age': '600',
                }
              : {}),
          },
        });
      } else if (!route.methods.includes(request.method)) {
        throw new HttpError('method_not_allowed', `use ${route.methods.join(' or ')}`, { headers: { allow: [...route.methods, 'OPTIONS'].join(', ') } });
      } else if (route.name === 'create') {
        response = await createDial(exchange);
      } else {
        let dialId: string;
        try {
          dialId = decodeURIComponent(route.rawId);
        } catch {
          throw new HttpError('not_found', 'no such dial');
        }
        if (!DIAL_ID.test(dialId)) throw new HttpError('not_found', 'no such dial');
        exchange.dialId = dialId;
        response = await (route.name === 'token' ? token : route.name === 'read' ? read : hangup)(exchange, dialId);
      }
      for (const [name, value] of Object.entries(cors)) response.headers.set(name, value);
    } catch (error) {
      failure =
        error instanceof HttpError
          ? error
          : new HttpError('internal_error', 'the companion failed to handle the request', { reason: error instanceof Error ? error.name : 'unknown error' });
      response = errorResponse(failure, cors);
    }
    const entry: CompanionLogEntry = {
      time: new Date(started).toISOString(),
      level: response.status >= 500 ? 'error' : 'info',
      route: route?.pattern ?? '-',
      method: request.method,
      status: response.status,
      durationMs: now() - started,
    };
    if (exchange.dialId !== undefined) entry.dialId = exchange.dialId;
    if (failure) {
      entry.code = failure.code;
      if (failure.reason !== undefined) entry.reason = failure.reason;
    }
    try {
      log(entry);
    } catch {
      // A broken logger must not break the answer.
    }
    return response;
  };
}

/** The dial as visitors see it: status, result, times and transcript — nothing else of the record. */
function publicDial(dialId: string, dial: ServiceDial) {
  const numberOrNull = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
  const stringOrNull = (value: unknown) => (typeof value === 'string' ? value : null);
  const transcript = (Array.isArray(dial.transcript) ? dial.transcript : [])
    .filter((line) => typeof line === 'object' && line !== null && typeof line.text === 'string' && typeof line.speaker === 'string')
    .map((line) => ({ text: line.text, speaker: line.speaker, startTimeMs: numberOrNull(line.startTimeMs), endTimeMs: numberOrNull(line.endTimeMs) }));
  const answer: Record<string, unknown> = {
    dialId,
    status: dial.status,
    systemResultType: stringOrNull(dial.systemResultType),
    durationSeconds: numberOrNull(dial.durationSeconds),
    aiDurationSeconds: numberOrNull(dial.aiDurationSeconds),
    startedAt: stringOrNull(dial.startedAt),
    endedAt: stringOrNull(dial.endedAt),
    transcript,
  };
  if (dial.aiResult !== undefined && dial.aiResult !== null) answer.aiResult = dial.aiResult;
  return answer;
}
