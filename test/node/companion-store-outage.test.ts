// Issue 41, findings 3 and 5: the companion with its rate limits in a real redis-server, in front of
// the real emulator. A store outage (limits failing closed) must never keep a dial alive: hang-up
// goes through, still guarded by the handle, while the routes that start or feed a call stay
// refused. And "one rating per dial" lasts as long as Redis keeps the key.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { createCompanionHandler, type CompanionHandler } from '../../src/server/handler.js';
import type { CompanionLogEntry } from '../../src/server/log.js';
import { createRedisRateLimiters } from '../../src/server/rate-limit.js';
import { emulatorRest } from '../support/emulator-rest.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { bearer, body, expectError, guard, post, SECRET } from './companion-support.js';

let emulator: Emulator;
let redis: RedisServer;
let client: Redis;
let handler: CompanionHandler;
const logs: CompanionLogEntry[] = [];

before(async () => {
  emulator = await startEmulator({ logger: false });
  redis = await startRedisServer();
  // As docs/companion.md says to create it: no offline queue, so a lost connection fails a take at once.
  client = new Redis(redis.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => 50 });
  client.on('error', () => {});
  await once(client, 'ready');
  handler = guard(
    createCompanionHandler({
      apiKey: emulator.apiKey,
      baseUrl: emulator.apiUrl,
      graphqlUrl: emulator.graphqlUrl,
      agents: { default: 'emu-no-agent' },
      secret: SECRET,
      allowedOrigins: ['https://shop.example'],
      rateLimiters: createRedisRateLimiters(client, { keyPrefix: `outage-${Date.now()}` }),
      logger: (entry) => logs.push(entry),
    }),
    [emulator.apiKey, SECRET],
  );
});
after(async () => {
  client.disconnect();
  await redis.stop();
  await emulator.close();
});

async function newDial(): Promise<{ dialId: string; handle: string }> {
  const created = await handler(post('/dials', {}));
  assert.equal(created.status, 200);
  return (await body(created)) as { dialId: string; handle: string };
}

const dialStatus = async (dialId: string) =>
  (await emulatorRest<{ status: string }>(emulator, 'GET', `/dials/${dialId}`)).status;

describe('a rate limit store outage', () => {
  test('hang-up still ends the dial (with the handle, from the header or a beacon body); without it a 401; create and token stay refused', async () => {
    const [first, second] = [await newDial(), await newDial()];
    assert.equal(await dialStatus(first.dialId), 'ringing');

    await redis.stop();
    await expectError(await handler(post('/dials', {})), 429, 'rate_limited');
    await expectError(
      await handler(post(`/dials/${first.dialId}/token`, undefined, bearer(first.handle))),
      429,
      'rate_limited',
    );
    // The handle still guards it: none, or another dial's, is refused as before.
    await expectError(await handler(post(`/dials/${first.dialId}/hangup`)), 401, 'invalid_handle');
    await expectError(
      await handler(post(`/dials/${first.dialId}/hangup`, undefined, bearer(second.handle))),
      401,
      'invalid_handle',
    );
    assert.equal(await dialStatus(first.dialId), 'ringing');

    const hungUp = await handler(post(`/dials/${first.dialId}/hangup`, undefined, bearer(first.handle)));
    assert.equal(hungUp.status, 200);
    assert.deepEqual(await body(hungUp), { success: true });
    assert.notEqual(await dialStatus(first.dialId), 'ringing', 'the dial ended');
    const line = logs.find((entry) => entry.route === 'POST /dials/:id/hangup' && entry.status === 200);
    assert.match(line?.reason ?? '', /rate limit store unreachable; let through/);

    // sendBeacon's hang-up (the handle in a text/plain body, as the page unloads) too.
    const beacon = await handler(
      post(`/dials/${second.dialId}/hangup`, JSON.stringify({ handle: second.handle }), {
        'content-type': 'text/plain;charset=UTF-8',
      }),
    );
    assert.equal(beacon.status, 200);
    assert.notEqual(await dialStatus(second.dialId), 'ringing');
  });
});

describe('one rating per dial', () => {
  test('lasts as long as Redis keeps the key: a Redis without persistence, restarted, takes a second rating', async () => {
    redis = await startRedisServer(redis.port);
    if (client.status !== 'ready') await once(client, 'ready');
    const { dialId, handle } = await newDial();
    const rate = () => handler(post(`/dials/${dialId}/feedback`, { rating: 'up' }, bearer(handle)));
    assert.equal((await rate()).status, 200);
    await expectError(await rate(), 409, 'duplicate_request');

    // Down: nothing says the dial was rated, so a 429, not a 409 or a second rating.
    await redis.stop();
    await expectError(await rate(), 429, 'rate_limited');
    // Back, empty (`--save ''`, no append-only file): the key is gone and the dial is rated again.
    redis = await startRedisServer(redis.port);
    if (client.status !== 'ready') await once(client, 'ready');
    assert.equal((await rate()).status, 200, 'documented in docs/companion.md (several instances)');
    await expectError(await rate(), 409, 'duplicate_request');
  });
});
