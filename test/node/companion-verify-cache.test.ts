// The handle verification cache: repeated requests with one handle skip the HMAC, and the answers
// stay exactly those of the real check (expiry, dial id, forgeries).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createHandleSigner, type HandleSigner } from '../../src/server/handles.js';
import { cacheVerifications } from '../../src/server/verify-cache.js';
import { present } from './companion-support.js';

const T0 = Date.UTC(2026, 0, 1);

function counting(): { signer: HandleSigner; checks: () => number } {
  const real = createHandleSigner('a-secret-that-is-long-enough-for-tests');
  let checks = 0;
  return {
    signer: {
      sign: real.sign,
      verify: (handle, dialId, now) => (checks++, real.verify(handle, dialId, now)),
      read: (handle, dialId, now) => (checks++, real.read(handle, dialId, now)),
    },
    checks: () => checks,
  };
}

describe('verification cache', () => {
  test('a good handle is checked on first use only, for the same dial', async () => {
    const { signer, checks } = counting();
    const cached = cacheVerifications(signer, { ttlMs: 60_000 });
    const handle = await cached.sign('dial-1', T0 + 3_600_000);
    for (let i = 0; i < 10; i++) assert.equal(await cached.verify(handle, 'dial-1', T0 + i * 1000), true);
    assert.equal(checks(), 2);
    assert.equal(await cached.verify(handle, 'dial-2', T0), false, 'another dial is not served from the cache');
    // After the cache time the handle is checked again (and still good).
    assert.equal(await cached.verify(handle, 'dial-1', T0 + 61_000), true);
    assert.equal(checks(), 5);
  });

  test('a handle that could expire while remembered is checked every time, and refused once expired', async () => {
    const { signer, checks } = counting();
    const cached = cacheVerifications(signer, { ttlMs: 60_000 });
    const handle = await cached.sign('dial-1', T0 + 30_000);
    assert.equal(await cached.verify(handle, 'dial-1', T0), true);
    assert.equal(await cached.verify(handle, 'dial-1', T0 + 29_000), true);
    assert.equal(await cached.verify(handle, 'dial-1', T0 + 30_000), false);
    assert.equal(checks(), 5);
  });

  test('forged handles are refused with one check each and never remembered', async () => {
    const { signer, checks } = counting();
    const cached = cacheVerifications(signer);
    const handle = await cached.sign('dial-1', T0 + 3_600_000);
    const forged = handle.slice(0, -2) + (handle.endsWith('AA') ? 'BB' : 'AA');
    for (let i = 0; i < 3; i++) assert.equal(await cached.verify(forged, 'dial-1', T0), false);
    assert.equal(checks(), 3);
  });

  test('remembers at most maxEntries handles, forgetting the oldest', async () => {
    const { signer, checks } = counting();
    const cached = cacheVerifications(signer, { maxEntries: 2 });
    const handles = await Promise.all(['a', 'b', 'c'].map((id) => cached.sign(id, T0 + 3_600_000)));
    for (const [i, id] of ['a', 'b', 'c'].entries()) await cached.verify(present(handles[i]), id, T0);
    assert.equal(checks(), 6);
    await cached.verify(present(handles[2]), 'c', T0);
    assert.equal(checks(), 6, 'the newest is remembered');
    await cached.verify(present(handles[0]), 'a', T0);
    assert.equal(checks(), 8, 'the oldest was forgotten');
  });
});
