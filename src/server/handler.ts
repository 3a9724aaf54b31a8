// The companion endpoint: one Web-standard `(Request) => Promise<Response>` handler that holds the
// service's API key and gives visitors signed, expiring handles for the dials they create.
// Web APIs only, so it mounts in Node (see node.ts), Workers, Deno, Bun and framework route handlers.
import {
  addressKey,
  clampRetryAfter,
  isDialId,
  isRebindingSafeHostname,
  mediaUrlProblem,
  normalizeOrigin,
  secretProblem,
  serviceUrlProblem,
} from './checks.js';
import { BASE_HEADERS, HttpError, errorAnswer, jsonAnswer } from './errors.js';
import { fromFetchRequest, toFetchResponse, type CompanionAnswer, type CompanionRequest } from './exchange.js';
import { createHandleSigner, hmacBase64Url, randomSecret, type HandleClaims } from './handles.js';
import { parseIceConfig, type IceServer } from './ice-config.js';
import { consoleLogger, silentLogger } from './log.js';
import type { CompanionLogEntry, CompanionLogger } from './log.js';
import { createMemoryRateLimiter } from './rate-limit.js';
import type { RateLimiter } from './rate-limit.js';
import { ServiceError, createServiceClient, defaultGraphqlUrl } from './service-client.js';
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
  /** The service's GraphQL endpoint. Default: the origin of `baseUrl` + `/query`. */
  graphqlUrl?: string;
  /** Replaces the media server `url` that `browserDialToken` answers (e.g. a media proxy you run). */
  mediaUrl?: string;
  /** Handle signing key, at least 32 characters. Required unless `dev` is true. */
  secret?: string;
  /** Development mode: without a `secret`, a random one is made (handles die with the process). */
  dev?: boolean;
  /** Origins allowed to call cross-origin (CORS). Same-origin requests need no entry. `*` is refused. */
  allowedOrigins?: string[];
  /**
   * The origin(s) visitors reach this endpoint on, e.g. `https://shop.example`. When set, only these
   * hosts are served (plus IP literals and loopback names) and a page on one of them is same-origin,
   * whatever scheme the request arrived with (TLS ended at a proxy). Without it, a request's own
   * origin comes from its URL (or, with `trustProxy`, `X-Forwarded-Proto`/`X-Forwarded-Host`), and
   * over plain http only IP literals and loopback names are served (DNS rebinding).
   */
  publicOrigin?: string | string[];
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
  /**
   * Requests allowed per window (default one minute). Dial creations per client address (default 10)
   * and in total (default 100); token, read and hang-up calls per dial (default 60: a call polls its
   * dial every 2 s and asks for 1-3 tokens, about 34 a minute); token and read calls per client
   * address (default 300: ten calls at once from one address). IPv6 addresses count by their /64.
   */
  rateLimit?: { perAddress?: number; total?: number; windowMs?: number; perDial?: number; readsPerAddress?: number };
  /** Replace the in-memory limiters, e.g. with a Redis-backed `RateLimiter` shared by instances. */
  rateLimiters?: {
    perAddress?: RateLimiter;
    total?: RateLimiter;
    perDial?: RateLimiter;
    readsPerAddress?: RateLimiter;
  };
  /**
   * Behind a proxy you run: the client address from the last `X-Forwarded-For` hop, the request's
   * scheme and host from the last `X-Forwarded-Proto` / `X-Forwarded-Host`. Never without a proxy that
   * sets these itself: clients could then choose their own address.
   */
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
  request: CompanionRequest;
  address: string;
  /** The address as rate limits count it (IPv6 by /64). */
  addressKey: string;
  dialId?: string;
  /** Logged with a successful answer that needs explaining. */
  reason?: string;
}

/** Where a request was sent, as the browser saw it. */
interface RequestOrigin {
  origin: string;
  host: string;
  hostAllowed: boolean;
}

const MIN_SECRET_LENGTH = 32;
const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:+/=-]{1,255}$/;
const BODY_FIELDS = new Set(['agent', 'inputs']);
const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i;
/** An `X-Forwarded-Host` value: a host name or bracketed IPv6 literal, with an optional port. */
const FORWARDED_HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** Entries each of the handler's memos (request origins, address keys) holds at most. */
const MEMO_SIZE = 1024;

/** Sets `key` in a memo; a full memo is emptied first (cheaper than tracking age, and as bounded). */
function remember<V>(memo: Map<string, V>, key: string, value: V): void {
  if (memo.size >= MEMO_SIZE) memo.clear();
  memo.set(key, value);
}

/**
 * What an adapter must know of a handler's config (its logger, whether a proxy sits in front) and
 * the handler's core, which an adapter may call with a request of its own making (node.ts does).
 */
export interface HandlerTraits {
  log: CompanionLogger;
  trustProxy: boolean;
  /**
   * True when whatever the handler does with a request's signal ends with the request: its own
   * service client follows a signal without leaving a listener per call on it. Then an adapter may
   * hand the requests of one connection the same signal. Not so with a `serviceClient` passed in.
   */
  signalPerConnection: boolean;
  serve(request: CompanionRequest, context?: CompanionRequestContext): Promise<CompanionAnswer>;
}
const handlerTraits = new WeakMap<CompanionHandler, HandlerTraits>();

/** The traits of a handler made by `createCompanionHandler` (undefined for any other function). */
export function traitsOf(handler: CompanionHandler): HandlerTraits | undefined {
  return handlerTraits.get(handler);
}

export function createCompanionHandler(config: CompanionConfig): CompanionHandler {
  const log: CompanionLogger = config.logger === false ? silentLogger : (config.logger ?? consoleLogger);
  const now = config.now ?? Date.now;
  const agents: Record<string, string> = Object.assign(
    Object.create(null) as Record<string, string>,
    config.agentId ? { default: config.agentId } : {},
    config.agents,
  );
  if (Object.keys(agents).length === 0)
    throw new TypeError('createCompanionHandler: configure at least one agent (agentId or agents)');
  let secret = config.secret;
  if (!secret) {
    if (!config.dev)
      throw new TypeError('createCompanionHandler: a secret (COMPANION_SECRET) is required outside dev mode');
    secret = randomSecret();
    log({
      time: new Date(now()).toISOString(),
      level: 'warn',
      message:
        'dev mode: no secret configured, signing handles with a random one; handles stop working when the process restarts',
    });
  } else {
    const problem = secretProblem(secret, config.apiKey, MIN_SECRET_LENGTH);
    if (problem) throw new TypeError(`createCompanionHandler: ${problem}`);
  }
  if (!config.serviceClient) {
    const problem = serviceUrlProblem(config.baseUrl);
    if (problem && 'fatal' in problem)
      throw new TypeError(`createCompanionHandler: the service base URL (VOICE_AGENT_BASE_URL) ${problem.fatal}`);
    if (problem && !config.dev)
      throw new TypeError(
        `createCompanionHandler: the service base URL (VOICE_AGENT_BASE_URL) ${problem.insecure} (allowed only in dev mode)`,
      );
    if (problem) warn(`dev mode: the service base URL (VOICE_AGENT_BASE_URL) ${problem.insecure}`);
  }
  if (config.mediaUrl !== undefined) {
    const problem = mediaUrlProblem(config.mediaUrl);
    if (problem) throw new TypeError(`createCompanionHandler: the media URL (VOICE_AGENT_MEDIA_URL) ${problem}`);
  }
  const signingSecret = secret;
  const signer = cacheVerifications(createHandleSigner(signingSecret));
  let graphqlUrl: string;
  try {
    graphqlUrl = config.graphqlUrl ? new URL(config.graphqlUrl).href : defaultGraphqlUrl(config.baseUrl);
  } catch {
    throw new TypeError(
      'createCompanionHandler: graphqlUrl (VOICE_AGENT_GRAPHQL_URL), or else baseUrl, must be an absolute URL',
    );
  }
  const service =
    config.serviceClient ??
    createServiceClient({
      baseUrl: config.baseUrl,
      graphqlUrl,
      apiKey: config.apiKey,
      timeoutMs: config.upstreamTimeoutMs ?? 10_000,
      ...(config.fetch ? { fetch: config.fetch } : {}),
    });
  const allowedOrigins = new Set(
    (config.allowedOrigins ?? [])
      .filter((origin) => origin.trim() !== '')
      .map((origin) => normalizeOrigin(origin, 'createCompanionHandler: allowedOrigins (COMPANION_ALLOWED_ORIGINS)')),
  );
  const publicOrigins = (
    config.publicOrigin === undefined
      ? []
      : Array.isArray(config.publicOrigin)
        ? config.publicOrigin
        : [config.publicOrigin]
  )
    .filter((origin) => origin.trim() !== '')
    .map((origin) => normalizeOrigin(origin, 'createCompanionHandler: publicOrigin (COMPANION_PUBLIC_ORIGIN)'));
  const publicOriginOfHost = new Map(publicOrigins.map((origin) => [new URL(origin).host, origin]));
  // A page on any public origin may call: across them (www. and bare domain) it is CORS.
  for (const origin of publicOrigins) allowedOrigins.add(origin);
  const allowedInputs = new Set(config.allowedInputs ?? []);
  const maxInputLength = config.maxInputLength ?? 500;
  const timeoutMinutes = config.timeoutMinutes ?? 10;
  // The service reads a missing or zero cap as "no limit": every dial gets a real one.
  if (!Number.isInteger(timeoutMinutes) || timeoutMinutes < 1)
    throw new TypeError('createCompanionHandler: timeoutMinutes must be a whole number ≥ 1');
  const handleLifetimeMs = (timeoutMinutes * 60 + (config.handleMarginSeconds ?? 900)) * 1000;
  const maxBodyBytes = config.maxBodyBytes ?? 16 * 1024;
  const windowMs = config.rateLimit?.windowMs ?? 60_000;
  const perAddress =
    config.rateLimiters?.perAddress ??
    createMemoryRateLimiter({ limit: config.rateLimit?.perAddress ?? 10, windowMs, now });
  const total =
    config.rateLimiters?.total ?? createMemoryRateLimiter({ limit: config.rateLimit?.total ?? 100, windowMs, now });
  const perDial =
    config.rateLimiters?.perDial ?? createMemoryRateLimiter({ limit: config.rateLimit?.perDial ?? 60, windowMs, now });
  const readsPerAddress =
    config.rateLimiters?.readsPerAddress ??
    createMemoryRateLimiter({ limit: config.rateLimit?.readsPerAddress ?? 300, windowMs, now });
  const basePath = config.basePath ? '/' + config.basePath.replace(/^\/+|\/+$/g, '') : null;
  // Pure functions of a request's scheme and host, and of its client address, remembered: a URL
  // parse and an IP parse per request were a few per cent of a read's CPU. Bounded, so a flood of
  // made-up hosts or addresses only empties them.
  const origins = new Map<string, RequestOrigin>();
  const addressKeys = new Map<string, string>();

  function matchRoute(pathname: string): Route | null {
    let segments = pathname.split('/');
    if (basePath !== null) {
      if (!(pathname === basePath || pathname.startsWith(basePath + '/'))) return null;
      segments = ['', ...pathname.slice(basePath.length).split('/').slice(1)];
      if (segments.length < 2 || segments.length > 4) return null;
    }
    const n = segments.length;
    const last = segments[n - 1];
    const second = segments[n - 2];
    if (n >= 4 && segments[n - 3] === 'dials' && (last === 'token' || last === 'hangup')) {
      return { name: last, pattern: `POST /dials/:id/${last}`, methods: ['POST'], rawId: second! };
    }
    if (n >= 3 && second === 'dials' && (basePath === null || n === 3))
      return { name: 'read', pattern: 'GET /dials/:id', methods: ['GET'], rawId: last! };
    if (n >= 2 && last === 'dials' && (basePath === null || n === 2))
      return { name: 'create', pattern: 'POST /dials', methods: ['POST'] };
    return null;
  }

  /** CORS headers for an allowed cross-origin request; empty for same-origin and refused ones. */
  function corsHeaders(request: CompanionRequest): Record<string, string> {
    const origin = request.header('origin');
    if (origin === null || !allowedOrigins.has(origin)) return {};
    return { 'access-control-allow-origin': origin, vary: 'Origin', 'access-control-expose-headers': 'Retry-After' };
  }

  function originAllowed(request: CompanionRequest, own: RequestOrigin): boolean {
    const origin = request.header('origin');
    return origin === null || origin === own.origin || allowedOrigins.has(origin);
  }

  /** The last value of a header a trusted proxy sets (it overwrites or appends, so its own value is last). */
  const lastForwarded = (request: CompanionRequest, name: string) =>
    (request.header(name) ?? '')
      .split(',')
      .map((hop) => hop.trim())
      .filter(Boolean)
      .at(-1);

  /**
   * The origin the request was sent to and whether its host is served. A configured public origin
   * wins; otherwise the URL's (or the trusted proxy's) scheme and host. Over plain http, a host
   * name is served only when configured or when a browser cannot be tricked into sending it (IP
   * literals, loopback names): otherwise a page on an attacker's name that resolves to this server
   * would be "same-origin" (DNS rebinding). Over https the certificate binds the name.
   */
  function requestOrigin(request: CompanionRequest): RequestOrigin {
    let scheme = request.protocol;
    let host = request.host;
    if (config.trustProxy) {
      const proto = lastForwarded(request, 'x-forwarded-proto')?.toLowerCase();
      if (proto === 'https' || proto === 'http') scheme = `${proto}:`;
      const forwardedHost = lastForwarded(request, 'x-forwarded-host');
      if (forwardedHost && FORWARDED_HOST.test(forwardedHost) && URL.canParse(`${scheme}//${forwardedHost}`))
        host = new URL(`${scheme}//${forwardedHost}`).host;
    }
    const origin = `${scheme}//${host}`;
    let known = origins.get(origin);
    if (known === undefined) {
      const configured = publicOriginOfHost.get(host);
      known = configured
        ? { origin: configured, host, hostAllowed: true }
        : {
            origin,
            host,
            hostAllowed:
              isRebindingSafeHostname(new URL(origin).hostname) || (publicOrigins.length === 0 && scheme === 'https:'),
          };
      remember(origins, origin, known);
    }
    return known;
  }

  function clientAddress(request: CompanionRequest, context: CompanionRequestContext | undefined): string {
    if (config.trustProxy) {
      const last = lastForwarded(request, 'x-forwarded-for');
      if (last) return last;
    }
    return context?.clientAddress || 'unknown';
  }

  /** Counts the request against each limiter in turn; the first that refuses answers 429. */
  async function limit(message: string, checks: ReadonlyArray<readonly [RateLimiter, string, string]>): Promise<void> {
    for (const [limiter, key, name] of checks) {
      const verdict = await limiter.take(key);
      if (!verdict.allowed) {
        throw new HttpError('rate_limited', message, {
          headers: { 'retry-after': String(Math.max(1, Math.ceil(verdict.retryAfterSeconds))) },
          reason: `${name} limit`,
        });
      }
    }
  }

  /** Token, read and hang-up: counted per dial, and token and read per client address too. */
  async function limitDialCall(exchange: Exchange, dialId: string, route: 'token' | 'read' | 'hangup'): Promise<void> {
    await limit('too many requests for this call; try again later', [
      [perDial, dialId, 'per-dial'],
      ...(route === 'hangup' ? [] : ([[readsPerAddress, exchange.addressKey, 'reads-per-address']] as const)),
    ]);
  }

  async function readBody(request: CompanionRequest): Promise<string> {
    const declared = Number(request.header('content-length'));
    if (Number.isFinite(declared) && declared > maxBodyBytes)
      throw new HttpError('payload_too_large', `the request body exceeds ${maxBodyBytes} bytes`);
    const bytes = await request.readBody(maxBodyBytes);
    if (bytes === null) throw new HttpError('payload_too_large', `the request body exceeds ${maxBodyBytes} bytes`);
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

  const isPlainObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);

  function upstreamFailure(error: unknown, route: Route['name']): HttpError {
    if (!(error instanceof ServiceError)) throw error;
    const reason = `${error.code}: ${error.message}`;
    switch (error.code) {
      case 'aborted':
        return new HttpError('client_closed', 'the client closed the connection', { reason });
      case 'not_found':
        return new HttpError('not_found', 'no such dial', { reason });
      case 'conflict':
        // The companion has one 409 code (README: "Routes and rules"). On create it means a reused Idempotency-Key; on the dial's
        // own routes the service refuses because of the dial's state (e.g. a token for an ended dial).
        return new HttpError(
          'duplicate_request',
          route === 'create'
            ? 'this Idempotency-Key is already in use for a dial the service did not name'
            : 'the dial has already ended or cannot do this now',
          { reason },
        );
      case 'rate_limited':
        return new HttpError('rate_limited', 'the calling service is busy; try again later', {
          reason,
          headers: { 'retry-after': String(clampRetryAfter(error.retryAfterSeconds)) },
        });
      case 'timeout':
        return new HttpError('upstream_timeout', 'the calling service did not answer in time', { reason });
      case 'unauthorized':
        return new HttpError('upstream_error', 'the calling service could not handle the request', {
          reason: `${reason} (check VOICE_AGENT_API_KEY)`,
        });
      default:
        return new HttpError('upstream_error', 'the calling service could not handle the request', { reason });
    }
  }

  async function authorize(exchange: Exchange, dialId: string, bodyHandle?: string): Promise<HandleClaims> {
    const header = exchange.request.header('authorization');
    let handle = bodyHandle;
    if (header !== null) {
      const match = /^Bearer +([^\s]+)$/i.exec(header.trim());
      handle = match?.[1];
    }
    const claims = handle ? await signer.read(handle, dialId, now()) : null;
    if (!claims) throw new HttpError('invalid_handle', 'the handle is missing, malformed, expired or for another dial');
    return claims;
  }

  async function createDial(exchange: Exchange): Promise<CompanionAnswer> {
    const { request } = exchange;
    const text = await readBody(request);
    const contentType = request.header('content-type');
    if (text.trim() !== '' && (contentType === null || !JSON_TYPE.test(contentType))) {
      throw new HttpError('invalid_request', 'send the body as application/json');
    }
    const body = text.trim() === '' ? {} : parseJson(text);
    if (!isPlainObject(body)) throw new HttpError('invalid_request', 'the body must be a JSON object');
    const unknownField = Object.keys(body).find((field) => !BODY_FIELDS.has(field));
    if (unknownField !== undefined)
      throw new HttpError('invalid_request', 'the body may only have the fields agent and inputs');
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
      if (value.length > maxInputLength)
        throw new HttpError('invalid_request', `inputs.${key} is longer than ${maxInputLength} characters`);
      callAgentInput[key] = value;
    }
    const idempotencyKey = request.header('idempotency-key');
    if (idempotencyKey !== null && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
      throw new HttpError('invalid_request', 'Idempotency-Key must be 1-255 characters of A-Z a-z 0-9 . _ : + / = -');
    }

    await limit('too many calls started; try again later', [
      [perAddress, exchange.addressKey, 'per-address'],
      [total, 'total', 'total'],
    ]);

    let created: { dialId: string; sessionId: string };
    try {
      created = await service.createDial(
        { callAgentId, browserCall: true, callAgentInput, timeoutMinutes },
        {
          signal: request.signal,
          // Scoped to the client address, so one visitor cannot replay another visitor's dial by reusing its key.
          ...(idempotencyKey !== null
            ? {
                idempotencyKey: await hmacBase64Url(
                  signingSecret,
                  `idempotency\n${exchange.address}\n${idempotencyKey}`,
                ),
              }
            : {}),
        },
      );
    } catch (error) {
      // The key is scoped to this client address (HMAC above), so the dial a 409 names is this
      // visitor's own earlier attempt, e.g. one whose answer was lost: adopt it. A service that
      // answers a reused key with a 409 instead of a replay then works like one that replays.
      const named =
        error instanceof ServiceError && error.code === 'conflict' && idempotencyKey !== null
          ? error.conflictingDial
          : null;
      if (!named?.sessionId) throw upstreamFailure(error, 'create');
      created = { dialId: named.dialId, sessionId: named.sessionId };
      exchange.reason = "adopted the dial named by the service's 409 (idempotency key already in use)";
    }
    if (!isDialId(created.dialId)) {
      // No handle is signed for an id the companion's own routes refuse: the visitor could never
      // hang that dial up. Cancel it instead of leaving it to run to its time cap.
      await service.hangupDial(created.dialId).catch(() => {});
      throw new HttpError('upstream_error', 'the calling service could not handle the request', {
        reason: 'the service answered POST /dials with a dial id the companion cannot route; the dial was hung up',
      });
    }
    exchange.dialId = created.dialId;
    const expiresAtMs = now() + handleLifetimeMs;
    const handle = await signer.sign(created.dialId, expiresAtMs, created.sessionId || undefined);
    return jsonAnswer(200, {
      dialId: created.dialId,
      handle,
      expiresAt: new Date(Math.floor(expiresAtMs / 1000) * 1000).toISOString(),
    });
  }

  /** A failure of the GraphQL step: the service's own messages go to the log, never to the visitor. */
  function graphqlFailure(error: unknown): HttpError {
    if (!(error instanceof ServiceError)) throw error;
    const said = error.serviceMessages.length > 0 ? `; the service said: ${error.serviceMessages.join(' | ')}` : '';
    const reason = `browserDialToken: ${error.code}: ${error.message}${said}`;
    if (error.code === 'timeout')
      return new HttpError('upstream_timeout', 'the calling service did not answer in time', { reason });
    const hint = error.code === 'network_error' || error.code === 'not_found' ? ' (check VOICE_AGENT_GRAPHQL_URL)' : '';
    return new HttpError('upstream_error', 'the calling service could not handle the request', {
      reason: reason + hint,
    });
  }

  /**
   * REST `POST /dials/{id}/token` (API key) gives a dial token; the GraphQL mutation
   * `browserDialToken`, authorised by it, gives the media credentials. The browser gets both: the
   * media credentials to join the room, and the dial token, GraphQL URL and session id for the
   * session protocol it runs itself (connectSession, startDialSession, the live transcript).
   */
  async function token(exchange: Exchange, dialId: string): Promise<CompanionAnswer> {
    const claims = await authorize(exchange, dialId);
    const sessionId = claims.sessionId;
    if (!sessionId) {
      throw new HttpError('invalid_handle', 'this handle predates the session protocol; start a new call', {
        reason: 'handle without a session id',
      });
    }
    await limitDialCall(exchange, dialId, 'token');
    let dialToken: string;
    try {
      dialToken = (await service.getDialToken(dialId, { signal: exchange.request.signal })).dialToken;
    } catch (error) {
      throw upstreamFailure(error, 'token');
    }
    let media;
    try {
      media = await service.browserDialToken(dialToken, sessionId, { signal: exchange.request.signal });
    } catch (error) {
      throw graphqlFailure(error);
    }
    if (media.telephonyProvider !== 'livekit') {
      const provider = JSON.stringify(media.telephonyProvider.slice(0, 40));
      throw new HttpError(
        'unsupported_media_provider',
        `the calling service offers this call over ${provider}; this widget supports only "livekit"`,
        {
          reason: `browserDialToken answered telephonyProvider ${provider}`,
        },
      );
    }
    const serverUrl = config.mediaUrl ?? media.url;
    if (!serverUrl) {
      throw new HttpError('upstream_error', 'the media server is not known', {
        reason: 'browserDialToken sent no url and VOICE_AGENT_MEDIA_URL (mediaUrl) is not configured',
      });
    }
    const problem = mediaUrlProblem(serverUrl);
    if (problem)
      throw new HttpError('upstream_error', 'the media server is not known', {
        reason: `the service's media url ${problem}`,
      });
    let iceServers: IceServer[] | null = null;
    try {
      iceServers = parseIceConfig(media.iceConfig);
    } catch (error) {
      warn(
        `${error instanceof Error ? error.message : 'iceConfig unreadable'}; joining with the browser's default ICE servers`,
        dialId,
      );
    }
    return jsonAnswer(200, {
      serverUrl,
      participantToken: media.token,
      dialToken,
      graphqlUrl,
      sessionId,
      ...(iceServers ? { iceServers } : {}),
    });
  }

  function warn(message: string, dialId?: string): void {
    try {
      log({ time: new Date(now()).toISOString(), level: 'warn', message, ...(dialId !== undefined ? { dialId } : {}) });
    } catch {
      // A broken logger must not break the answer.
    }
  }

  async function read(exchange: Exchange, dialId: string): Promise<CompanionAnswer> {
    await authorize(exchange, dialId);
    await limitDialCall(exchange, dialId, 'read');
    let dial: ServiceDial;
    try {
      dial = await service.getDial(dialId, { signal: exchange.request.signal });
    } catch (error) {
      throw upstreamFailure(error, 'read');
    }
    return jsonAnswer(200, publicDial(dialId, dial));
  }

  async function hangup(exchange: Exchange, dialId: string): Promise<CompanionAnswer> {
    let bodyHandle: string | undefined;
    if (exchange.request.header('authorization') === null) {
      // navigator.sendBeacon cannot set headers: the handle comes in the body (JSON, text/plain or a typed Blob).
      const text = await readBody(exchange.request);
      if (text.trim() !== '') {
        const body = parseJson(text);
        if (isPlainObject(body) && typeof body.handle === 'string') bodyHandle = body.handle;
      }
    }
    await authorize(exchange, dialId, bodyHandle);
    await limitDialCall(exchange, dialId, 'hangup');
    let answer;
    try {
      answer = await service.hangupDial(dialId, { signal: exchange.request.signal });
    } catch (error) {
      throw upstreamFailure(error, 'hangup');
    }
    return jsonAnswer(200, { success: answer.success });
  }

  async function serve(request: CompanionRequest, context?: CompanionRequestContext): Promise<CompanionAnswer> {
    const started = now();
    const address = clientAddress(request, context);
    let key = addressKeys.get(address);
    if (key === undefined) remember(addressKeys, address, (key = addressKey(address)));
    const exchange: Exchange = { request, address, addressKey: key };
    let route: Route | null = null;
    let response: CompanionAnswer;
    let failure: HttpError | undefined;
    let cors: Record<string, string> = {};
    try {
      route = matchRoute(request.pathname);
      const own = requestOrigin(request);
      if (!own.hostAllowed) {
        throw new HttpError('host_not_allowed', 'this host name is not served here', {
          reason: `Host ${JSON.stringify(own.host.slice(0, 100))} is not a public origin's host (COMPANION_PUBLIC_ORIGIN), an IP address or a loopback name`,
        });
      }
      if (!originAllowed(request, own))
        throw new HttpError('origin_not_allowed', 'this origin may not use the endpoint');
      cors = corsHeaders(request);
      if (!route) throw new HttpError('not_found', 'no such route');
      if (request.method === 'OPTIONS') {
        response = {
          status: 204,
          body: null,
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
        };
      } else if (!route.methods.includes(request.method)) {
        throw new HttpError('method_not_allowed', `use ${route.methods.join(' or ')}`, {
          headers: { allow: [...route.methods, 'OPTIONS'].join(', ') },
        });
      } else if (route.name === 'create') {
        response = await createDial(exchange);
      } else {
        let dialId: string;
        try {
          dialId = decodeURIComponent(route.rawId);
        } catch {
          throw new HttpError('not_found', 'no such dial');
        }
        if (!isDialId(dialId)) throw new HttpError('not_found', 'no such dial');
        exchange.dialId = dialId;
        response = await (route.name === 'token' ? token : route.name === 'read' ? read : hangup)(exchange, dialId);
      }
      Object.assign(response.headers, cors);
    } catch (error) {
      failure =
        error instanceof HttpError
          ? error
          : request.signal.aborted
            ? // e.g. the body stream failing because the visitor went away: not the companion's fault
              new HttpError('client_closed', 'the client closed the connection', {
                reason: error instanceof Error ? error.name : 'unknown error',
              })
            : new HttpError('internal_error', 'the companion failed to handle the request', {
                reason: error instanceof Error ? error.name : 'unknown error',
              });
      response = errorAnswer(failure, cors);
    }
    const entry: CompanionLogEntry = {
      time: new Date(started).toISOString(),
      // A visitor leaving mid-request is ordinary traffic, not an outage.
      level: response.status >= 500 && failure?.code !== 'client_closed' ? 'error' : 'info',
      route: route?.pattern ?? '-',
      method: request.method,
      status: response.status,
      durationMs: now() - started,
    };
    if (exchange.dialId !== undefined) entry.dialId = exchange.dialId;
    if (failure) {
      entry.code = failure.code;
      if (failure.reason !== undefined) entry.reason = failure.reason;
    } else if (exchange.reason !== undefined) {
      entry.reason = exchange.reason;
    }
    try {
      log(entry);
    } catch {
      // A broken logger must not break the answer.
    }
    return response;
  }
  const handler: CompanionHandler = async (request, context) =>
    toFetchResponse(await serve(fromFetchRequest(request), context));
  handlerTraits.set(handler, {
    log,
    trustProxy: config.trustProxy === true,
    signalPerConnection: !config.serviceClient,
    serve,
  });
  return handler;
}

const numberOrNull = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const stringOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

/** The dial as visitors see it: status, result, times and transcript — nothing else of the record. */
function publicDial(dialId: string, dial: ServiceDial) {
  const transcript = (Array.isArray(dial.transcript) ? dial.transcript : [])
    .filter(
      (line) =>
        typeof line === 'object' && line !== null && typeof line.text === 'string' && typeof line.speaker === 'string',
    )
    .map((line) => ({
      text: line.text,
      speaker: line.speaker,
      startTimeMs: numberOrNull(line.startTimeMs),
      endTimeMs: numberOrNull(line.endTimeMs),
    }));
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
