// Rate limits, counted by rate-limiter-flexible: in this process's memory by default, or in Redis
// (`createRedisRateLimiters`) when several instances must share one count. The handler only knows
// the `RateLimiter` interface, so any other shared store can be plugged in too.
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import RateLimiterRedis from 'rate-limiter-flexible/lib/RateLimiterRedis.js';
import type { CompanionLogger } from './log.js';

export interface RateLimitResult {
  allowed: boolean;
  /** When refused: seconds until a request with this key may succeed again (≥ 1). */
  retryAfterSeconds: number;
  /** Refused because the shared store could not be asked (failing closed), not because the key is over its limit. */
  storeUnreachable?: boolean;
}

export interface RateLimiter {
  /** Counts one request for `key` and says whether it is within the limit. */
  take(key: string): Promise<RateLimitResult>;
}

export interface MemoryRateLimiterOptions {
  /** Requests allowed per key and window. */
  limit: number;
  /** Window length, default 60 000 ms. Each key's window starts at its first request. */
  windowMs?: number;
  /**
   * Most keys counted at once, default 100 000. Past it a new key is refused (as rate-limited)
   * until older windows end, so a flood of distinct addresses cannot grow memory without bound.
   */
  maxKeys?: number;
  /**
   * Not used: rate-limiter-flexible reads `Date.now()` itself (tests move it with the test runner's
   * `mock.timers`). Accepted so existing callers keep type-checking.
   */
  now?: () => number;
}

const ALLOWED: RateLimitResult = Object.freeze({ allowed: true, retryAfterSeconds: 0 });
const DEFAULT_MAX_KEYS = 100_000;

const refused = (ms: number): RateLimitResult => ({
  allowed: false,
  retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)),
});

/** rate-limiter-flexible rejects with its result when over the limit, and with an Error when the store failed. */
const isLimitResult = (value: unknown): value is RateLimiterRes =>
  typeof value === 'object' && value !== null && !(value instanceof Error) && 'msBeforeNext' in value;

function checkLimits(name: string, limit: number, windowMs: number): void {
  if (!(limit >= 0) || !Number.isInteger(limit) || !(windowMs > 0))
    throw new RangeError(`${name}: a whole limit ≥ 0 and windowMs > 0 are required`);
}

/**
 * Fixed window per key, in this process's memory (rate-limiter-flexible's `RateLimiterMemory`: a map
 * lookup per `take` and a timer per key that removes it when its window ends, so the cost of a
 * `take` does not grow with the number of keys). Counts are per instance: behind several
 * instances, use `createRedisRateLimiters`.
 */
export function createMemoryRateLimiter(options: MemoryRateLimiterOptions): RateLimiter {
  const windowMs = options.windowMs ?? 60_000;
  const maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
  checkLimits('createMemoryRateLimiter', options.limit, windowMs);
  if (!(maxKeys >= 1)) throw new RangeError('createMemoryRateLimiter: maxKeys must be ≥ 1');
  const limiter = new RateLimiterMemory({ points: options.limit, duration: windowMs / 1000 });
  // Live keys, bounded without walking the map: a key lives one window from its first request, so
  // every live key was created in this period of `windowMs` or the one before.
  let periodStart = Date.now();
  let createdNow = 0;
  let createdBefore = 0;

  return {
    async take(key) {
      let result: RateLimiterRes;
      try {
        result = await limiter.consume(key);
      } catch (rejection) {
        if (isLimitResult(rejection)) return refused(rejection.msBeforeNext);
        throw rejection;
      }
      if (!result.isFirstInDuration) return ALLOWED;
      const at = Date.now();
      const elapsed = at - periodStart;
      if (elapsed >= windowMs) {
        createdBefore = elapsed >= 2 * windowMs ? 0 : createdNow;
        createdNow = 0;
        periodStart = at - (elapsed % windowMs);
      }
      if (createdNow + createdBefore >= maxKeys) {
        await limiter.delete(key);
        return refused(periodStart + windowMs - at);
      }
      createdNow++;
      return ALLOWED;
    },
  };
}

/** The limiters the companion handler uses (`rateLimiters` in its config), all sharing one store. */
export interface CompanionRateLimiters {
  /** Dial creations per client address. */
  perAddress: RateLimiter;
  /** Dial creations in total. */
  total: RateLimiter;
  /** Token and read requests per dial. */
  perDial: RateLimiter;
  /** Token and read requests per client address. */
  readsPerAddress: RateLimiter;
  /** Ratings per dial: one (`POST /dials/:id/feedback`; a second is a 409). */
  feedbackPerDial: RateLimiter;
  /** Call-metrics posts per dial: one (`POST /dials/:id/metrics`; a second is a 409). */
  metricsPerDial: RateLimiter;
  /** Transfers per dial: one (`POST /dials/:id/transfer`; a second is a 409), remembered as long as a rating. */
  transferPerDial: RateLimiter;
}

export interface RedisRateLimitOptions {
  /** Dial creations per address and window, default 10. */
  perAddress?: number;
  /** Dial creations in total per window, default 100. */
  total?: number;
  /** Token and read requests per dial and window, default 60. */
  perDial?: number;
  /** Token and read requests per address and window, default 300. */
  readsPerAddress?: number;
  /** Window length in whole seconds' worth of ms, default 60 000. */
  windowMs?: number;
  /**
   * How long a dial's one rating is remembered, in whole seconds' worth of ms, default 86 400 000
   * (a day). Keep it at least the handles' lifetime (the time cap plus `handleMarginSeconds`): a
   * dial can be rated only while its handle is valid.
   */
  feedbackWindowMs?: number;
  /** Prefix of every Redis key, default `voice-agent-call:rl`. */
  keyPrefix?: string;
  /**
   * When Redis cannot be reached: `closed` (default) refuses the limited requests with 429, since
   * dials cost money; `open` lets them through, each instance then counting alone in its memory.
   * Either way the companion lets hang-up through (a store outage must never keep a dial alive).
   */
  onStoreError?: 'closed' | 'open';
  /** Receives one line when the store stops answering and one when it is back. Default: none. */
  logger?: CompanionLogger | false;
}

/** The limits the handler applies when none are configured; shared so Redis and memory agree. */
export const DEFAULT_RATE_LIMITS = {
  perAddress: 10,
  total: 100,
  perDial: 60,
  readsPerAddress: 300,
  windowMs: 60_000,
} as const;

/** The answer while the store is unreachable and limits fail closed: Retry-After 10 s. */
const STORE_DOWN: RateLimitResult = Object.freeze({ allowed: false, retryAfterSeconds: 10, storeUnreachable: true });

/** How long Redis remembers a dial's rating, unless `feedbackWindowMs` says otherwise: a day. */
const DEFAULT_FEEDBACK_WINDOW_MS = 86_400_000;

/**
 * Rate limiters counted in Redis, so every instance of the companion shares one count per key.
 * `client` is an ioredis client (`new Redis(url)`); create it with `enableOfflineQueue: false` (or
 * a `commandTimeout`) so that a lost connection fails a `take` at once instead of queueing it.
 * A failing store never throws out of `take`: it answers as `onStoreError` says and logs it.
 */
export function createRedisRateLimiters(client: object, options: RedisRateLimitOptions = {}): CompanionRateLimiters {
  const windowMs = options.windowMs ?? DEFAULT_RATE_LIMITS.windowMs;
  if (!(windowMs >= 1000) || windowMs % 1000 !== 0)
    throw new RangeError(
      'createRedisRateLimiters: windowMs must be a whole number of seconds (Redis expires keys by the second)',
    );
  const prefix = options.keyPrefix ?? 'voice-agent-call:rl';
  const failOpen = options.onStoreError === 'open';
  if (options.onStoreError !== undefined && options.onStoreError !== 'open' && options.onStoreError !== 'closed') {
    throw new TypeError("createRedisRateLimiters: onStoreError must be 'closed' or 'open'");
  }
  const log = options.logger || (() => {});
  let storeDown = false;

  const noteFailure = (error: Error) => {
    if (storeDown) return;
    storeDown = true;
    const code = (error as { code?: unknown }).code;
    log({
      time: new Date().toISOString(),
      level: 'error',
      code: 'rate_limit_store_unreachable',
      reason:
        typeof code === 'string'
          ? code
          : error.message === 'Redis connection is not ready'
            ? 'not connected'
            : error.name,
      message: failOpen
        ? 'the rate limit store (Redis) is unreachable: failing open, each instance counts limits alone until it is back'
        : 'the rate limit store (Redis) is unreachable: failing closed, limited requests are refused (429) until it is back',
    });
  };
  const noteSuccess = () => {
    if (!storeDown) return;
    storeDown = false;
    log({
      time: new Date().toISOString(),
      level: 'info',
      message: 'the rate limit store (Redis) answers again: limits are shared again',
    });
  };

  const feedbackWindowMs = options.feedbackWindowMs ?? DEFAULT_FEEDBACK_WINDOW_MS;
  if (!(feedbackWindowMs >= 1000) || feedbackWindowMs % 1000 !== 0)
    throw new RangeError('createRedisRateLimiters: feedbackWindowMs must be a whole number of seconds');

  const make = (name: keyof CompanionRateLimiters, limit: number, window = windowMs): RateLimiter => {
    checkLimits('createRedisRateLimiters', limit, window);
    const limiter: RateLimiterAbstract = new RateLimiterRedis({
      storeClient: client,
      points: limit,
      duration: window / 1000,
      keyPrefix: `${prefix}:${name}`,
      rejectIfRedisNotReady: true,
    });
    let fallback: RateLimiter | undefined;
    return {
      async take(key) {
        try {
          await limiter.consume(key);
          noteSuccess();
          return ALLOWED;
        } catch (rejection) {
          if (isLimitResult(rejection)) {
            noteSuccess();
            return refused(rejection.msBeforeNext);
          }
          noteFailure(rejection instanceof Error ? rejection : new Error(String(rejection)));
          if (!failOpen) return STORE_DOWN;
          fallback ??= createMemoryRateLimiter({ limit, windowMs: window });
          return fallback.take(key);
        }
      },
    };
  };

  return {
    perAddress: make('perAddress', options.perAddress ?? DEFAULT_RATE_LIMITS.perAddress),
    total: make('total', options.total ?? DEFAULT_RATE_LIMITS.total),
    perDial: make('perDial', options.perDial ?? DEFAULT_RATE_LIMITS.perDial),
    readsPerAddress: make('readsPerAddress', options.readsPerAddress ?? DEFAULT_RATE_LIMITS.readsPerAddress),
    feedbackPerDial: make('feedbackPerDial', 1, feedbackWindowMs),
    metricsPerDial: make('metricsPerDial', 1, feedbackWindowMs),
    transferPerDial: make('transferPerDial', 1, feedbackWindowMs),
  };
}
