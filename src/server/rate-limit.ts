// Rate limits on dial creation. The handler only knows this interface, so a deployment with
// several instances can plug a shared store (Redis INCR + EXPIRE, a Durable Object, ...).

export interface RateLimitResult {
  allowed: boolean;
  /** When refused: seconds until a request with this key may succeed again (≥ 1). */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Counts one request for `key` and says whether it is within the limit. */
  take(key: string): Promise<RateLimitResult>;
}

export interface MemoryRateLimiterOptions {
  /** Requests allowed per key and window. */
  limit: number;
  /** Window length, default 60 000 ms. */
  windowMs?: number;
  now?: () => number;
  /** Keys kept before expired windows are swept, default 10 000. */
  sweepAt?: number;
}

/**
 * Fixed-window counter per key, in this process's memory. `take` decides synchronously, so
 * concurrent requests are counted exactly. Counts are per instance: behind several instances,
 * use a shared store instead.
 */
export function createMemoryRateLimiter(options: MemoryRateLimiterOptions): RateLimiter {
  const windowMs = options.windowMs ?? 60_000;
  const now = options.now ?? Date.now;
  const sweepAt = options.sweepAt ?? 10_000;
  if (!(options.limit >= 0) || !(windowMs > 0)) throw new RangeError('createMemoryRateLimiter: limit ≥ 0 and windowMs > 0 are required');
  const windows = new Map<string, { start: number; count: number }>();

  return {
    take(key) {
      const at = now();
      if (windows.size >= sweepAt) {
        for (const [stored, window] of windows) if (at - window.start >= windowMs) windows.delete(stored);
      }
      let window = windows.get(key);
      if (!window || at - window.start >= windowMs) {
        window = { start: at, count: 0 };
        windows.set(key, window);
      }
      if (window.count < options.limit) {
        window.count++;
        return Promise.resolve({ allowed: true, retryAfterSeconds: 0 });
      }
      return Promise.resolve({ allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.start + windowMs - at) / 1000)) });
    },
  };
}
