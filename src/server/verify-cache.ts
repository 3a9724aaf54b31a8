// Remembers handles that verified, so the requests a visitor repeats with one handle (the token,
// every read while polling, the hang-up) skip the HMAC. WebCrypto's verify is asynchronous work on
// a thread pool: under load it was the largest single cost of a read through the companion.
import type { HandleSigner } from './handles.js';

export interface VerifyCacheOptions {
  /** How long a verified handle is trusted without a new check, default 60 000 ms. */
  ttlMs?: number;
  /** Most handles remembered, default 10 000; past it the oldest is forgotten. */
  maxEntries?: number;
}

/**
 * The same signer, with `verify` answered from memory for a handle that verified within `ttlMs`.
 * Exact, not approximate: a handle is remembered only if it verifies at `now + ttlMs`, i.e. if it
 * cannot expire while remembered; one near its end is checked on every request. Only successes are
 * remembered, keyed by the whole handle string and the dial id, so a guess never reaches the cache.
 */
export function cacheVerifications(signer: HandleSigner, options: VerifyCacheOptions = {}): HandleSigner {
  const ttlMs = options.ttlMs ?? 60_000;
  const maxEntries = options.maxEntries ?? 10_000;
  /** `dialId \n handle` → until when it may be trusted (ms). Map order is insertion order: oldest first. */
  const verified = new Map<string, number>();
  return {
    sign: (dialId, expiresAtMs) => signer.sign(dialId, expiresAtMs),
    async verify(handle, dialId, nowMs) {
      const key = `${dialId}\n${handle}`;
      const until = verified.get(key);
      if (until !== undefined) {
        if (nowMs < until) return true;
        verified.delete(key);
      }
      // A forged or expired handle costs one check; a good one two, the first time only.
      if (!(await signer.verify(handle, dialId, nowMs))) return false;
      if (await signer.verify(handle, dialId, nowMs + ttlMs)) {
        if (verified.size >= maxEntries) verified.delete(verified.keys().next().value!);
        verified.set(key, nowMs + ttlMs);
      }
      return true;
    },
  };
}
