// Pending ends shared through Redis: two companion processes (the real CLI) on one real
// redis-server. A dial whose visitor left through one is ended once, by whichever is alive when
// the grace is over, also when the one that took the leave is gone; a rejoin through the other
// keeps the dial. Needs the `redis-server` binary (Debian package).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import type { CompanionLogEntry } from '../../src/server/log.js';
import { startCompanionProcess, type CompanionProcess } from '../support/companion-process.js';
import { emulatorRest } from '../support/emulator-rest.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { SECRET } from './companion-support.js';

const isEndOf = (dialId: string) => (entry: CompanionLogEntry) =>
  entry.dialId === dialId && entry.reason === 'resume grace over';

async function createDial(companion: CompanionProcess): Promise<{ dialId: string; handle: string }> {
  const response = await fetch(`${companion.url}/dials`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  assert.equal(response.status, 200);
  return (await response.json()) as { dialId: string; handle: string };
}

async function leave(companion: CompanionProcess, dial: { dialId: string; handle: string }): Promise<void> {
  // As the browser's beacon sends it: the handle in a text/plain body.
  const response = await fetch(`${companion.url}/dials/${dial.dialId}/leave`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8' },
    body: JSON.stringify({ handle: dial.handle }),
  });
  assert.equal(response.status, 200);
}

describe('pending ends shared through Redis', () => {
  let emulator: Emulator;
  let redis: RedisServer;
  const companions: CompanionProcess[] = [];
  before(async () => {
    emulator = await startEmulator({ logger: false });
    redis = await startRedisServer();
  });
  after(async () => {
    await Promise.all(companions.map((companion) => companion.stop()));
    await redis.stop();
    await emulator.close();
  });

  test('ended exactly once by one of two instances; ended by the survivor when the one that took the leave is killed; a rejoin through the other keeps the dial', async () => {
    const env = { COMPANION_REDIS_URL: redis.url, COMPANION_RESUME_GRACE_SECONDS: '2' };
    const [a, b] = await Promise.all([
      startCompanionProcess(emulator, SECRET, env),
      startCompanionProcess(emulator, SECRET, env),
    ]);
    companions.push(a, b);
    const status = async (dialId: string) =>
      (await emulatorRest<{ status: string }>(emulator, 'GET', `/dials/${dialId}`)).status;

    // Both alive: one of them ends it, the other does not.
    const first = await createDial(a);
    const kept = await createDial(a);
    await leave(a, first);
    await leave(a, kept);
    const rejoin = await fetch(`${b.url}/dials/${kept.dialId}/token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${kept.handle}` },
    });
    assert.equal(rejoin.status, 200);
    await Promise.race([a.logged(isEndOf(first.dialId)), b.logged(isEndOf(first.dialId))]);
    assert.equal(await status(first.dialId), 'canceled');

    // The instance that took the leave dies before the grace is over: the other ends the dial.
    const second = await createDial(a);
    await leave(a, second);
    await a.stop('SIGKILL');
    const ended = await b.logged(isEndOf(second.dialId));
    assert.equal(ended.level, 'info');
    assert.equal(await status(second.dialId), 'canceled');

    // A beacon that arrives after the rejoin through the other instance (which named it) ends nothing.
    const late = await createDial(b);
    const leftAt = Date.now();
    const resumed = await fetch(`${b.url}/dials/${late.dialId}/token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${late.handle}`, 'content-type': 'application/json' },
      body: JSON.stringify({ resumeOf: leftAt }),
    });
    assert.equal(resumed.status, 200);
    const beacon = await fetch(`${b.url}/dials/${late.dialId}/leave`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      body: JSON.stringify({ handle: late.handle, leftAt }),
    });
    assert.deepEqual(await beacon.json(), { success: true, endsAt: null });

    // Every end that came due was claimed once: `first` by one instance, none of `kept`.
    const ends = [...a.logs, ...b.logs].filter((entry) => entry.reason === 'resume grace over');
    assert.equal(ends.filter((entry) => entry.dialId === first.dialId).length, 1);
    assert.equal(ends.filter((entry) => entry.dialId === kept.dialId).length, 0);
    assert.notEqual(await status(kept.dialId), 'canceled');
  });
});
