// The companion's configuration: what `createCompanionHandler` takes (`CompanionConfig`) and what
// it makes of it once (`CompanionSettings`): defaults filled in, weak values refused with a
// TypeError naming the setting, the service client, handle signer and rate limiters made.
import { defaultGraphqlUrl } from '../api/transport.js';
import { mediaUrlProblem, normalizeOrigin, secretProblem, serviceUrlProblem } from './checks.js';
import { createHandleSigner, randomSecret, type HandleSigner } from './handles.js';
import { consoleLogger, silentLogger, type CompanionLogger } from './log.js';
import { createMemoryPendingEnds, type PendingEnds } from './pending-ends.js';
import { createMemoryRateLimiter, type RateLimiter } from './rate-limit.js';
import { createServiceClient, type ServiceClient } from './service-client.js';
import { cacheVerifications } from './verify-cache.js';

/**
 * The longest call cap the companion sends (a day). A browser call longer than that is a mistake,
 * and past about 35 791 minutes a timer in the emulator overflowed and ended the call at once.
 */
export const MAX_TIMEOUT_MINUTES = 1440;

/** A visitor's rating of a call, as `POST /dials/:id/feedback` received it (with a valid handle for that dial). */
export interface CompanionFeedback {
  dialId: string;
  rating: 'up' | 'down';
  /** At most 500 characters, trimmed; absent when the visitor left none. */
  comment?: string;
  /** When the companion received it (ISO 8601). */
  at: string;
}

export interface CompanionConfig {
  /** The service's API key. Never leaves the server. */
  apiKey: string;
  /** The service's API base URL (the emulator's `apiUrl` in development). */
  baseUrl: string;
  /** Agent name → agent id. The element's `agent` attribute picks a name; no name means `default`. */
  agents?: Record<string, string>;
  /** Shorthand for `agents.default`. */
  agentId?: string;
  /**
   * Talk to a person: the phone number (E.164, e.g. `+14155550123`) the service transfers a call
   * to when the visitor asks for a person (`POST /dials/:id/transfer`), for every agent without
   * its own in `transferNumbers`. Without either, transfer is off and the route answers 404.
   */
  transferNumber?: string;
  /** Agent name (a key of `agents`) → its own transfer number (E.164). */
  transferNumbers?: Record<string, string>;
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
  /** `timeoutMinutes` sent with every dial: the call's time cap, 1 to 1440 (a day). Default 10. */
  timeoutMinutes?: number;
  /** How long a handle outlives the dial's time cap, default 900 s (to read the result). */
  handleMarginSeconds?: number;
  /**
   * How long a dial whose browser left (`POST /dials/:id/leave`: a page with `persist` going away)
   * waits for the browser to rejoin through the token route before the companion hangs it up:
   * whole seconds, 1 to 3600, default 30.
   */
  resumeGraceSeconds?: number;
  /**
   * Where those pending ends wait: in this process (default, a timer per dial), or shared by
   * instances (`createRedisPendingEnds`), so whichever instance is alive ends the dial, once.
   */
  pendingEnds?: PendingEnds;
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
  /**
   * Replace the in-memory limiters, e.g. with a Redis-backed `RateLimiter` shared by instances.
   * `feedbackPerDial` allows one rating per dial and `transferPerDial` one transfer per dial
   * (default: in memory, for the handles' lifetime).
   */
  rateLimiters?: {
    perAddress?: RateLimiter;
    total?: RateLimiter;
    perDial?: RateLimiter;
    readsPerAddress?: RateLimiter;
    feedbackPerDial?: RateLimiter;
    metricsPerDial?: RateLimiter;
    transferPerDial?: RateLimiter;
  };
  /**
   * Receives each visitor's rating (`POST /dials/:id/feedback`, the element's `feedback="server"`),
   * once per dial. Without it the companion logs the rating (never the comment). A hook that
   * throws answers 500; the dial counts as rated.
   */
  onFeedback?: (feedback: CompanionFeedback) => void | Promise<void>;
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
  /**
   * Serves the companion's Prometheus metrics at `GET {base}/metrics` to requests bearing this
   * token (`Authorization: Bearer …`), at least 16 characters. Turns metrics on.
   */
  metricsToken?: string;
  /**
   * Keeps metrics (prom-client, Node only) without the route or with it: `handler.metrics` holds the
   * registry for a host's own `/metrics`. `defaultMetrics: false` leaves out the process's default
   * metrics (when the host's registry collects them already). Default: on when `metricsToken` is set.
   */
  metrics?: boolean | { defaultMetrics?: boolean };
}

/** The config as the handler uses it, made once by `resolveConfig`. */
export interface CompanionSettings {
  log: CompanionLogger;
  now: () => number;
  /** Agent name → agent id (no prototype: `toString` is no agent). */
  agents: Readonly<Record<string, string>>;
  /** Agent id → the number its calls are transferred to (transfer.ts); empty: transfer is off. */
  transferNumbers: ReadonlyMap<string, string>;

  signingSecret: string;
  signer: HandleSigner;
  service: ServiceClient;
  /** True when `service` is the handler's own client (see `HandlerTraits.signalPerConnection`). */
  ownServiceClient: boolean;
  graphqlUrl: string;
  mediaUrl: string | undefined;
  /** Origins that may call cross-origin: the configured ones and every public origin. */
  allowedOrigins: ReadonlySet<string>;
  publicOrigins: readonly string[];
  /** A public origin's host → that origin. */
  publicOriginOfHost: ReadonlyMap<string, string>;
  allowedInputs: ReadonlySet<string>;
  maxInputLength: number;
  timeoutMinutes: number;
  handleLifetimeMs: number;
  /** `resumeGraceSeconds` in ms. */
  resumeGraceMs: number;
  /** The configured pending ends (shared, or this process's). */
  pendingEnds: PendingEnds;
  /** This process's own, for a leave the shared store could not take (a store outage must never keep a dial alive). */
  localEnds: PendingEnds;
  maxBodyBytes: number;
  limiters: {
    perAddress: RateLimiter;
    total: RateLimiter;
    perDial: RateLimiter;
    readsPerAddress: RateLimiter;
    feedbackPerDial: RateLimiter;
    /** One metrics post per dial. */
    metricsPerDial: RateLimiter;
    transferPerDial: RateLimiter;
  };
  onFeedback: ((feedback: CompanionFeedback) => void | Promise<void>) | null;
  /** `/api/voice-call` (no trailing slash), or null to match the path's tail. */
  basePath: string | null;
  trustProxy: boolean;
  /** The bearer token of `GET /metrics`, or null: no such route. */
  metricsToken: string | null;
  /** Whether metrics are kept, and with the process's default metrics. */
  metrics: { defaultMetrics: boolean } | null;
}

/** Shortest `metricsToken` (COMPANION_METRICS_TOKEN). */
export const MIN_METRICS_TOKEN_LENGTH = 16;

const MIN_SECRET_LENGTH = 32;

/** Logs a warning; a broken logger must not break the answer. */
export function warn(settings: Pick<CompanionSettings, 'log' | 'now'>, message: string, dialId?: string): void {
  try {
    settings.log({
      time: new Date(settings.now()).toISOString(),
      level: 'warn',
      message,
      ...(dialId !== undefined ? { dialId } : {}),
    });
  } catch {
    // A broken logger must not break the answer.
  }
}

/** An E.164 phone number: `+`, a country code, at most 15 digits in all. */
export const E164 = /^\+[1-9][0-9]{1,14}$/;

/**
 * Agent id → transfer number, from `transferNumbers` (by agent name) over `transferNumber`. A
 * number that is not E.164, a name that is no agent, or two names of one agent id with different
 * numbers is refused at start: a wrong number must not wait for the first visitor who asks.
 */
function resolveTransferNumbers(
  config: CompanionConfig,
  agents: Readonly<Record<string, string>>,
): Map<string, string> {
  const byId = new Map<string, string>();
  const check = (number: unknown, what: string): string => {
    if (typeof number !== 'string' || !E164.test(number))
      throw new TypeError(
        `createCompanionHandler: ${what} must be a phone number in E.164 form, e.g. +14155550123 (a +, the country code, at most 15 digits)`,
      );
    return number;
  };
  const fallback =
    config.transferNumber === undefined || config.transferNumber === ''
      ? undefined
      : check(config.transferNumber, 'transferNumber (COMPANION_TRANSFER_NUMBER)');
  const own = config.transferNumbers ?? {};
  if (typeof own !== 'object' || own === null || Array.isArray(own))
    throw new TypeError('createCompanionHandler: transferNumbers must be an object of agent name → phone number');
  for (const name of Object.keys(own)) {
    if (!Object.hasOwn(agents, name))
      throw new TypeError(
        `createCompanionHandler: transferNumbers (VOICE_AGENT_TRANSFER_NUMBERS) names ${JSON.stringify(name.slice(0, 60))}, which is not an agent name`,
      );
  }
  for (const [name, agentId] of Object.entries(agents)) {
    const number = Object.hasOwn(own, name)
      ? check(own[name], `transferNumbers.${name} (VOICE_AGENT_TRANSFER_NUMBERS)`)
      : fallback;
    if (number === undefined) continue;
    const earlier = byId.get(agentId);
    if (earlier !== undefined && earlier !== number)
      throw new TypeError(
        `createCompanionHandler: two agent names of agent id ${JSON.stringify(agentId)} have different transfer numbers; a dial knows only its agent id`,
      );
    byId.set(agentId, number);
  }
  return byId;
}

/** A number is configured for this agent id and the service client can transfer: the create's answer says `transfer: true`. */
export function transferOffered(settings: CompanionSettings, agentId: string): boolean {
  return settings.transferNumbers.has(agentId) && typeof settings.service.transferCall === 'function';
}

export function resolveConfig(config: CompanionConfig): CompanionSettings {
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
    if (problem) warn({ log, now }, `dev mode: the service base URL (VOICE_AGENT_BASE_URL) ${problem.insecure}`);
  }
  if (config.mediaUrl !== undefined) {
    const problem = mediaUrlProblem(config.mediaUrl);
    if (problem) throw new TypeError(`createCompanionHandler: the media URL (VOICE_AGENT_MEDIA_URL) ${problem}`);
  }
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
  // A page on any public origin may call: across them (www. and bare domain) it is CORS.
  for (const origin of publicOrigins) allowedOrigins.add(origin);
  const timeoutMinutes = config.timeoutMinutes ?? 10;
  // The service reads a missing or zero cap as "no limit": every dial gets a real one.
  if (!Number.isInteger(timeoutMinutes) || timeoutMinutes < 1 || timeoutMinutes > MAX_TIMEOUT_MINUTES)
    throw new TypeError(
      `createCompanionHandler: timeoutMinutes must be a whole number from 1 to ${MAX_TIMEOUT_MINUTES}`,
    );
  const windowMs = config.rateLimit?.windowMs ?? 60_000;
  const limiter = (
    name: keyof NonNullable<CompanionConfig['rateLimit']> & keyof CompanionSettings['limiters'],
    limit: number,
  ): RateLimiter =>
    config.rateLimiters?.[name] ?? createMemoryRateLimiter({ limit: config.rateLimit?.[name] ?? limit, windowMs, now });
  if (config.onFeedback !== undefined && typeof config.onFeedback !== 'function')
    throw new TypeError('createCompanionHandler: onFeedback must be a function');
  if (config.metricsToken !== undefined) {
    const problem =
      typeof config.metricsToken === 'string'
        ? secretProblem(config.metricsToken, config.apiKey, MIN_METRICS_TOKEN_LENGTH)
        : 'the metrics token must be a string';
    if (problem)
      throw new TypeError(
        `createCompanionHandler: metricsToken (COMPANION_METRICS_TOKEN): ${problem.replace('the secret', 'the metrics token')}`,
      );
  }
  const metricsOn = config.metricsToken !== undefined || (config.metrics !== undefined && config.metrics !== false);
  const handleLifetimeMs = (timeoutMinutes * 60 + (config.handleMarginSeconds ?? 900)) * 1000;
  const resumeGraceSeconds = config.resumeGraceSeconds ?? 30;
  if (!Number.isInteger(resumeGraceSeconds) || resumeGraceSeconds < 1 || resumeGraceSeconds > 3600)
    throw new TypeError('createCompanionHandler: resumeGraceSeconds must be a whole number from 1 to 3600');
  const localEnds = createMemoryPendingEnds(now);
  return {
    log,
    now,
    agents,
    transferNumbers: resolveTransferNumbers(config, agents),

    signingSecret: secret,
    signer: cacheVerifications(createHandleSigner(secret)),
    service,
    ownServiceClient: !config.serviceClient,
    graphqlUrl,
    mediaUrl: config.mediaUrl,
    allowedOrigins,
    publicOrigins,
    publicOriginOfHost: new Map(publicOrigins.map((origin) => [new URL(origin).host, origin])),
    allowedInputs: new Set(config.allowedInputs ?? []),
    maxInputLength: config.maxInputLength ?? 500,
    timeoutMinutes,
    handleLifetimeMs,
    resumeGraceMs: resumeGraceSeconds * 1000,
    pendingEnds: config.pendingEnds ?? localEnds,
    localEnds,
    maxBodyBytes: config.maxBodyBytes ?? 16 * 1024,
    limiters: {
      perAddress: limiter('perAddress', 10),
      total: limiter('total', 100),
      perDial: limiter('perDial', 60),
      readsPerAddress: limiter('readsPerAddress', 300),
      // One rating per dial for as long as any handle for it can be valid.
      feedbackPerDial:
        config.rateLimiters?.feedbackPerDial ?? createMemoryRateLimiter({ limit: 1, windowMs: handleLifetimeMs }),
      metricsPerDial:
        config.rateLimiters?.metricsPerDial ?? createMemoryRateLimiter({ limit: 1, windowMs: handleLifetimeMs }),
      // One transfer per dial, the same way.
      transferPerDial:
        config.rateLimiters?.transferPerDial ?? createMemoryRateLimiter({ limit: 1, windowMs: handleLifetimeMs }),
    },
    onFeedback: config.onFeedback ?? null,
    basePath: config.basePath ? '/' + config.basePath.replace(/^\/+|\/+$/g, '') : null,
    trustProxy: config.trustProxy === true,
    metricsToken: config.metricsToken?.trim() || null,
    metrics: metricsOn
      ? { defaultMetrics: typeof config.metrics === 'object' ? config.metrics.defaultMetrics !== false : true }
      : null,
  };
}
