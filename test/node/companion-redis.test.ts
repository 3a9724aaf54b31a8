// One limit across instances: companion processes (the real CLI) sharing one real redis-server,
// and what they do when Redis goes away. Needs the `redis-server` binary (Debian package).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { createRedisRateLimiters } from '../../src/server/rate-limit.js';
import { startCompanionProcess, type CompanionProcess } from '../support/companion-process.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { present, SECRET } from './companion-support.js';
import { finished } from '../support/child-output.js';

/** The companion CLI behind a proxy that names the client (`x-forwarded-for`), sharing the test's redis-server. */
const startCompanion = (emulator: Emulator, env: Record<string, string>): Promise<CompanionProcess> =>
  startCompanionProcess(emulator, SECRET, { COMPANION_TRUST_PROXY: '1', ...env });

const createDial = (companion: CompanionProcess, address: string) =>
  fetch(`${companion.url}/dials`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: '{}',
  });

/**
 * For one describe: an emulator and a redis-server started before its tests; after them, the
 * companions its tests pushed are stopped, then Redis, then the emulator.
 */
function emulatorAndRedis() {
  const stack = { companions: [] as CompanionProcess[] } as {
    emulator: Emulator;
    redis: RedisServer;
    companions: CompanionProcess[];
  };
  before(async () => {
    stack.emulator = await startEmulator({ logger: false });
    stack.redis = await startRedisServer();
  });
  after(async () => {
    await Promise.all(stack.companions.map((companion) => companion.stop()));
    await stack.redis.stop();
    await stack.emulator.close();
  });
  return stack;
}

describe('rate limits shared through Redis', () => {
  const stack = emulatorAndRedis();

  test('two companion processes on one Redis give exactly the configured dials per window across both; Redis gone → closed by default, open when configured, a log line, no crash', async () => {
    const env = {
      COMPANION_REDIS_URL: stack.redis.url,
      COMPANION_RATE_LIMIT_PER_ADDRESS: '2',
      COMPANION_RATE_LIMIT_TOTAL: '5',
    };
    const [a, b] = await Promise.all([startCompanion(stack.emulator, env), startCompanion(stack.emulator, env)]);
    stack.companions.push(present(a), present(b));

    // One address, one process after the other: its limit of 2 holds across both.
    assert.equal((await createDial(present(a), '198.51.100.9')).status, 200);
    assert.equal((await createDial(present(b), '198.51.100.9')).status, 200);
    assert.equal((await createDial(present(a), '198.51.100.9')).status, 429);
    // Then 12 creations at once, 4 from each of three more addresses, alternating between the two
    // processes: each address may pass 2 (6 in all), and the total of 5, 2 of them used, cuts that to 3.
    const addresses = ['198.51.100.1', '198.51.100.2', '198.51.100.3'];
    const attempts = Array.from({ length: 12 }, (_, i) => ({
      companion: i % 2 === 0 ? present(a) : present(b),
      address: present(addresses[i % 3]),
    }));
    const answers = await Promise.all(
      attempts.map(async ({ companion, address }) => ({ address, response: await createDial(companion, address) })),
    );
    const created = answers.filter(({ response }) => response.status === 200);
    assert.equal(created.length, 3, `statuses: ${answers.map(({ response }) => response.status).join(' ')}`);
    for (const address of addresses)
      assert.ok(created.filter((answer) => answer.address === address).length <= 2, address);
    for (const { response } of answers.filter(({ response }) => response.status !== 200)) {
      assert.equal(response.status, 429);
      assert.ok(Number(response.headers.get('retry-after')) >= 1);
    }
    const dial = (await present(created[0]).response.json()) as { dialId: string; handle: string };
    const instance = present(created[0]).response.url.startsWith(present(a).url) ? present(a) : present(b);

    // Redis dies mid-test: the default is to fail closed, with one clear log line; the process lives on.
    await stack.redis.stop();
    // The companion's log is buffered, so the batch's own 429 lines may still arrive after this
    // point: the refusal is the 429 handled from now on (entries carry the time they were made).
    const since = new Date().toISOString();
    const refused = await createDial(instance, '203.0.113.50');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '10');
    // The refusal is logged as the outage it is, not as a visitor over a limit.
    const refusal = await instance.logged((entry) => entry.status === 429 && entry.time >= since);
    assert.match(present(refusal.reason), /rate limit store unreachable/);
    assert.doesNotMatch(present(refusal.reason), /per-address/);
    const line = await instance.logged((entry) => entry.code === 'rate_limit_store_unreachable');
    assert.equal(line.level, 'error');
    assert.match(present(line.message), /unreachable: failing closed/);
    assert.ok(!JSON.stringify(line).includes(stack.redis.url), 'the Redis URL (it may hold a password) is not logged');
    assert.equal(instance.child.exitCode, null);
    const token = await fetch(`${instance.url}/dials/${dial.dialId}/token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${dial.handle}` },
    });
    // The token and read routes are limited too (per dial and per address), so they fail closed as well.
    assert.equal(token.status, 429, 'every limited route fails closed');
    assert.equal(
      instance.logs.filter((entry) => entry.code === 'rate_limit_store_unreachable').length,
      1,
      'one line per outage, not per request',
    );

    // The same outage with COMPANION_RATE_LIMIT_ON_STORE_ERROR=open: dials go through, counted per instance.
    const open = await startCompanion(stack.emulator, { ...env, COMPANION_RATE_LIMIT_ON_STORE_ERROR: 'open' });
    stack.companions.push(open);
    assert.equal((await createDial(open, '203.0.113.60')).status, 200);
    assert.equal((await createDial(open, '203.0.113.60')).status, 200);
    assert.equal(
      (await createDial(open, '203.0.113.60')).status,
      429,
      'the per-address limit still holds inside the instance',
    );
    assert.match(
      present((await open.logged((entry) => entry.code === 'rate_limit_store_unreachable')).message),
      /failing open/,
    );
    assert.equal(open.child.exitCode, null);
  });

  test('a bad COMPANION_RATE_LIMIT_ON_STORE_ERROR or COMPANION_REDIS_URL stops the CLI with a clear message', async () => {
    for (const [env, message] of [
      [
        { COMPANION_REDIS_URL: 'redis://127.0.0.1:1', COMPANION_RATE_LIMIT_ON_STORE_ERROR: 'maybe' },
        /COMPANION_RATE_LIMIT_ON_STORE_ERROR must be closed or open/,
      ],
      [{ COMPANION_REDIS_URL: 'http://127.0.0.1:1' }, /COMPANION_REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
    ] as const) {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli.ts'], {
        env: {
          ...process.env,
          PORT: '0',
          VOICE_AGENT_API_KEY: 'k',
          VOICE_AGENT_BASE_URL: stack.emulator.apiUrl,
          VOICE_AGENT_AGENT_ID: 'emu-demo',
          COMPANION_SECRET: SECRET,
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const { code, stderr } = await finished(child);
      assert.equal(code, 1);
      assert.match(stderr, message);
    }
  });
});

describe('one rating per dial across instances', () => {
  const stack = emulatorAndRedis();

  test('a dial rated through one process is a 409 through the other; without a hook each logs the rating, never the comment', async () => {
    const env = { COMPANION_REDIS_URL: stack.redis.url };
    const [a, b] = await Promise.all([startCompanion(stack.emulator, env), startCompanion(stack.emulator, env)]);
    stack.companions.push(present(a), present(b));
    const created = await createDial(present(a), '198.51.100.20');
    assert.equal(created.status, 200);
    const { dialId, handle } = (await created.json()) as { dialId: string; handle: string };
    const rate = (companion: CompanionProcess, rating: string) =>
      fetch(`${companion.url}/dials/${dialId}/feedback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${handle}` },
        body: JSON.stringify({ rating, comment: 'COMMENT-NOT-FOR-LOGS-5521' }),
      });
    // At once through both: exactly one is taken.
    const statuses = (await Promise.all([rate(present(a), 'up'), rate(present(b), 'down')])).map((r) => r.status);
    assert.deepEqual([...statuses].sort(), [200, 409]);
    assert.equal((await rate(present(b), 'up')).status, 409, 'and again later, through the other process');
    const taken = statuses[0] === 200 ? present(a) : present(b);
    const line = await taken.logged((entry) => entry.rating !== undefined);
    assert.deepEqual([line.dialId, line.commented], [dialId, true]);
    await present(b).logged((entry) => entry.route === 'POST /dials/:id/feedback' && entry.status === 409);
    for (const companion of [present(a), present(b)])
      assert.ok(!JSON.stringify(companion.logs).includes('COMMENT-NOT-FOR-LOGS'), 'no log line holds the comment');
  });
});

describe('createRedisRateLimiters', () => {
  let redis: RedisServer;
  let client: Redis;
  before(async () => {
    redis = await startRedisServer();
    client = new Redis(redis.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    await once(client, 'ready');
  });
  after(async () => {
    client.disconnect();
    await redis.stop();
  });

  test('makes the six limiters the handler uses, each counting its own keys exactly under concurrency', async () => {
    const limiters = createRedisRateLimiters(client, {
      perAddress: 3,
      total: 4,
      perDial: 5,
      readsPerAddress: 6,
      keyPrefix: `test-${Date.now()}`,
    });
    assert.deepEqual(Object.keys(limiters).sort(), [
      'feedbackPerDial',
      'metricsPerDial',
      'perAddress',
      'perDial',
      'readsPerAddress',
      'total',
      'transferPerDial',
    ]);
    for (const [name, limit] of [
      ['perAddress', 3],
      ['total', 4],
      ['perDial', 5],
      ['readsPerAddress', 6],
      ['feedbackPerDial', 1],
      ['metricsPerDial', 1],
      ['transferPerDial', 1],
    ] as const) {
      const verdicts = await Promise.all(Array.from({ length: 10 }, () => limiters[name].take('same-key')));
      assert.equal(verdicts.filter((verdict) => verdict.allowed).length, limit, name);
      const window =
        name === 'feedbackPerDial' || name === 'metricsPerDial' || name === 'transferPerDial' ? 86_400 : 60;
      for (const verdict of verdicts.filter((v) => !v.allowed))
        assert.ok(verdict.retryAfterSeconds >= 1 && verdict.retryAfterSeconds <= window);
      assert.equal((await limiters[name].take('another-key')).allowed, true, `${name} counts per key`);
    }
  });

  test('a store it cannot reach refuses a rating as unavailable (fail closed), not as already given', async () => {
    const gone = new Redis('redis://127.0.0.1:1', {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    gone.on('error', () => {});
    try {
      const limiters = createRedisRateLimiters(gone, { keyPrefix: `gone-${Date.now()}` });
      const verdict = await limiters.feedbackPerDial.take('dial-1');
      assert.deepEqual(verdict, { allowed: false, retryAfterSeconds: 10, storeUnreachable: true });
    } finally {
      gone.disconnect();
    }
  });

  test('refuses a window that Redis cannot expire by the second', () => {
    assert.throws(() => createRedisRateLimiters(client, { windowMs: 1500 }), RangeError);
    assert.throws(() => createRedisRateLimiters(client, { feedbackWindowMs: 500 }), RangeError);
    assert.throws(() => createRedisRateLimiters(client, { onStoreError: 'sometimes' as 'open' }), TypeError);
  });
});
