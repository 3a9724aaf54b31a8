// The in-memory rate limiter (src/server/rate-limit.ts): per key and window, a limit of 0, the cap
// on live keys. The shared limits through a real Redis are companion-redis.test.ts's.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, mock, test } from 'node:test';
import { createMemoryRateLimiter } from '../../src/server/rate-limit.js';

describe('memory rate limiter', () => {
  // rate-limiter-flexible reads Date.now() and expires keys with timers: the tests move both.
  beforeEach(() => mock.timers.enable({ apis: ['Date', 'setTimeout'], now: 0 }));
  afterEach(() => mock.timers.reset());

  test('allows `limit` per key and window, then says how long to wait', async () => {
    const limiter = createMemoryRateLimiter({ limit: 2, windowMs: 60_000 });
    assert.equal((await limiter.take('a')).allowed, true);
    assert.equal((await limiter.take('a')).allowed, true);
    mock.timers.tick(20_500);
    assert.deepEqual(await limiter.take('a'), { allowed: false, retryAfterSeconds: 40 });
    assert.equal((await limiter.take('b')).allowed, true);
    mock.timers.tick(39_500);
    assert.equal((await limiter.take('a')).allowed, true);
  });

  test('a limit of 0 refuses everything', async () => {
    const limiter = createMemoryRateLimiter({ limit: 0, windowMs: 1000 });
    assert.deepEqual(await limiter.take('a'), { allowed: false, retryAfterSeconds: 1 });
  });

  test('caps the live keys: past maxKeys a new key is refused until older windows end; known keys still count', async () => {
    const limiter = createMemoryRateLimiter({ limit: 2, windowMs: 1000, maxKeys: 10 });
    for (let i = 0; i < 10; i++) assert.equal((await limiter.take(`k${i}`)).allowed, true);
    assert.deepEqual(await limiter.take('k10'), { allowed: false, retryAfterSeconds: 1 });
    assert.equal((await limiter.take('k0')).allowed, true);
    assert.equal((await limiter.take('k0')).allowed, false);
    // Keys made in the last two periods may still live; after that every old key has expired.
    mock.timers.tick(2000);
    for (let i = 10; i < 20; i++) assert.equal((await limiter.take(`k${i}`)).allowed, true, `k${i}`);
    assert.equal((await limiter.take('k20')).allowed, false);
  });
});
