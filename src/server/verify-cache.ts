// Remembers handles that verified, so the requests a visitor repeats with one handle (the token,
// every read while polling, the hang-up) skip the HMAC. WebCrypto's verify is asynchronous work on
// a thread pool: under load it was the largest single cost of a read through the companion.
import type { HandleClaims, HandleSigner } from './handles.js';

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
  /** `dialId \n handle` → its claims and until when they may be trusted (ms). Map order is insertion order: oldest first. */
  const verified = new Map<string, { until: number; claims: HandleClaims }>();
  async function read(handle: string, dialId: string, nowMs: number): Promise<HandleClaims | null> {
    const key = `${dialId}\n${handle}`;
    const known = verified.get(key);
    if (known !== undefined) {
      if (nowMs < known.until) return known.claims;
      verified.delete(key);
    }
    // A forged or expired handle costs one check; a good one two, the first time only.
    const claims = await signer.read(handle, dialId, nowMs);
    if (!claims) return null;
    if (await signer.verify(handle, dialId, nowMs + ttlMs)) {
      if (verified.size >= maxEntries) {
        const oldest = verified.keys().next();
        if (!oldest.done) verified.delete(oldest.value);
      }
      verified.set(key, { until: nowMs + ttlMs, claims });
    }
    return claims;
  }
  return {
    sign: (dialId, expiresAtMs, sessionId) => signer.sign(dialId, expiresAtMs, sessionId),
    read,
    verify: async (handle, dialId, nowMs) => (await read(handle, dialId, nowMs)) !== null,
  };
}
