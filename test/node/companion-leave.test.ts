// `POST /dials/:id/leave`: a browser that left without hanging up (a page with `persist` going
// away). The companion ends the dial after COMPANION_RESUME_GRACE_SECONDS unless the token route
// (a rejoin) clears it; the route takes the hang-up's checks. Handler tests against the fake
// service, with the in-process timers (the memory store).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CompanionLogEntry } from '../../src/server/log.js';
import { companionConfigFromEnv } from '../../src/server/env.js';
import {
  BASE,
  bearer,
  body,
  createDial,
  expectError,
  get,
  makeCompanion,
  ORIGIN,
  post,
  present,
} from './companion-support.js';

/** A companion whose log can be awaited: `ended(dialId)` resolves with the grace's end of that dial. */
function companionWithEnds(overrides: Parameters<typeof makeCompanion>[0] = {}) {
  const waiting = new Map<string, (entry: CompanionLogEntry) => void>();
  const seen = new Map<string, CompanionLogEntry>();
  const companion = makeCompanion({
    resumeGraceSeconds: 1,
    now: Date.now,
    logger: (entry) => {
      companion.logs.push(entry);
      if (entry.reason !== 'resume grace over' || entry.dialId === undefined) return;
      seen.set(entry.dialId, entry);
      waiting.get(entry.dialId)?.(entry);
    },
    ...overrides,
  });
  const ended = (dialId: string) =>
    seen.get(dialId) ?? new Promise<CompanionLogEntry>((resolve) => waiting.set(dialId, resolve));
  return { ...companion, ended };
}

describe('POST /dials/:id/leave', () => {
  test('a leave (handle in a beacon body) ends the dial after the grace; one that rejoins through the token route is kept', async () => {
    const { handler, service, ended } = companionWithEnds();
    const gone = await createDial(handler);
    const back = await createDial(handler);
    const before = Date.now();
    for (const dial of [gone, back]) {
      const request = new Request(`${BASE}/dials/${dial.dialId}/leave`, {
        method: 'POST',
        body: JSON.stringify({ handle: dial.handle }),
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
      });
      const answer = await body(await handler(request));
      assert.equal(answer.success, true);
      const endsAt = Date.parse(String(answer.endsAt));
      assert.ok(endsAt >= before + 1000 && endsAt <= Date.now() + 1000, `endsAt ${String(answer.endsAt)}`);
    }
    // Left and not hung up yet: the visitor may come back.
    assert.equal(service.callsTo('POST', /\/hangup$/).length, 0);
    const rejoin = await handler(post(`/dials/${back.dialId}/token`, undefined, bearer(back.handle)));
    assert.equal(rejoin.status, 200);

    const entry = await ended(gone.dialId);
    assert.equal(entry.level, 'info');
    assert.match(present(entry.message), /did not rejoin within the resume grace/);
    assert.equal(present(service.dials.get(gone.dialId)).status, 'canceled');
    // Scheduled at the same moment, the rejoined dial's end would have come with it.
    assert.notEqual(present(service.dials.get(back.dialId)).status, 'canceled');
    assert.deepEqual(
      service.callsTo('POST', /\/hangup$/).map((call) => call.path),
      [`/dials/${gone.dialId}/hangup`],
    );
  });

  test("a leave beacon that arrives after the next page's rejoin (which names it) ends nothing; a later leave does", async () => {
    const { handler, service, ended } = companionWithEnds();
    const dial = await createDial(handler);
    const leftAt = Date.now();
    // The next page's rejoin outran the beacon: it names the leave it follows.
    const rejoin = await handler(post(`/dials/${dial.dialId}/token`, { resumeOf: leftAt }, bearer(dial.handle)));
    assert.equal(rejoin.status, 200);
    const late = await body(await handler(post(`/dials/${dial.dialId}/leave`, { handle: dial.handle, leftAt })));
    assert.deepEqual(late, { success: true, endsAt: null });
    // The visitor moves on again: that leave is a new one, and without a rejoin the dial ends.
    const next = await body(
      await handler(post(`/dials/${dial.dialId}/leave`, { handle: dial.handle, leftAt: leftAt + 5000 })),
    );
    assert.equal(typeof next.endsAt, 'string');
    await ended(dial.dialId);
    assert.equal(present(service.dials.get(dial.dialId)).status, 'canceled');
    // A token body other than { resumeOf: <ms> } is refused.
    await expectError(
      await handler(post(`/dials/${dial.dialId}/token`, { resumeOf: 'soon' }, bearer(dial.handle))),
      400,
      'invalid_request',
    );
    await expectError(
      await handler(post(`/dials/${dial.dialId}/token`, { other: 1 }, bearer(dial.handle))),
      400,
      'invalid_request',
    );
  });

  test('a second leave moves the end; a hang-up after a leave ends the dial at once', async () => {
    const { handler, service, ended } = companionWithEnds();
    const dial = await createDial(handler);
    assert.equal((await handler(post(`/dials/${dial.dialId}/leave`, undefined, bearer(dial.handle)))).status, 200);
    assert.equal((await handler(post(`/dials/${dial.dialId}/leave`, undefined, bearer(dial.handle)))).status, 200);
    assert.equal((await handler(post(`/dials/${dial.dialId}/hangup`, undefined, bearer(dial.handle)))).status, 200);
    assert.equal(present(service.dials.get(dial.dialId)).status, 'canceled');
    // The end still comes (one, not two), and finds the dial over: logged, no crash.
    const entry = await ended(dial.dialId);
    assert.equal(entry.dialId, dial.dialId);
  });

  test("refusals: no handle, another dial's handle, a forged one, a malformed body, another origin, GET, the per-dial limit; none reaches the service or schedules an end", async () => {
    const { handler, service, logs } = companionWithEnds({ rateLimit: { perDial: 2 } });
    const mine = await createDial(handler);
    const theirs = await createDial(handler, { context: { clientAddress: '198.51.100.1' } });
    const path = `/dials/${mine.dialId}/leave`;
    const before = service.calls.length;
    await expectError(await handler(post(path)), 401, 'invalid_handle');
    await expectError(await handler(post(path, { other: 1 })), 401, 'invalid_handle');
    await expectError(await handler(post(path, { handle: theirs.handle })), 401, 'invalid_handle');
    await expectError(await handler(post(path, undefined, bearer(theirs.handle))), 401, 'invalid_handle');
    await expectError(await handler(post(path, undefined, bearer(mine.handle + 'x'))), 401, 'invalid_handle');
    await expectError(await handler(post(path, '{handle:')), 400, 'invalid_request');
    await expectError(
      await handler(post(path, undefined, { ...bearer(mine.handle), origin: 'https://evil.example' })),
      403,
      'origin_not_allowed',
    );
    await expectError(await handler(get(path, mine.handle)), 405, 'method_not_allowed');
    assert.equal((await handler(post(path, undefined, bearer(mine.handle)))).status, 200);
    assert.equal((await handler(post(path, undefined, bearer(mine.handle)))).status, 200);
    await expectError(await handler(post(path, undefined, bearer(mine.handle))), 429, 'rate_limited');
    assert.equal(service.calls.length, before, 'a refused leave asked the service nothing');
    // The handle never appears in a log line.
    assert.ok(!JSON.stringify(logs).includes(mine.handle));
    // The other dial was never scheduled: only `mine` ends.
    await handler(post(`/dials/${mine.dialId}/hangup`, undefined, bearer(mine.handle))).catch(() => undefined);
    assert.notEqual(present(service.dials.get(theirs.dialId)).status, 'canceled');
  });

  test('the allowed origin and a same-origin page may leave; CORS answers the preflight', async () => {
    const { handler } = companionWithEnds();
    const dial = await createDial(handler);
    const preflight = await handler(
      new Request(`${BASE}/dials/${dial.dialId}/leave`, {
        method: 'OPTIONS',
        headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
      }),
    );
    assert.equal(preflight.status, 204);
    const response = await handler(
      post(`/dials/${dial.dialId}/leave`, undefined, { ...bearer(dial.handle), origin: ORIGIN }),
    );
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), ORIGIN);
  });
});

describe('COMPANION_RESUME_GRACE_SECONDS', () => {
  const env = {
    VOICE_AGENT_API_KEY: 'k'.repeat(20),
    VOICE_AGENT_BASE_URL: 'http://127.0.0.1:1/api',
    VOICE_AGENT_AGENT_ID: 'a',
    NODE_ENV: 'development',
  };
  test('sets resumeGraceSeconds; default 30 (unset); 0, 3601 and words are refused with the name', () => {
    assert.equal(companionConfigFromEnv({ ...env, COMPANION_RESUME_GRACE_SECONDS: '45' }).resumeGraceSeconds, 45);
    assert.equal(companionConfigFromEnv(env).resumeGraceSeconds, undefined);
    for (const bad of ['0', '3601', 'soon'])
      assert.throws(
        () => companionConfigFromEnv({ ...env, COMPANION_RESUME_GRACE_SECONDS: bad }),
        /COMPANION_RESUME_GRACE_SECONDS/,
      );
    assert.throws(() => makeCompanion({ resumeGraceSeconds: 0.5 }), /resumeGraceSeconds/);
  });
});
