// The dial lifecycle: REST routes, the media half's DialControl calls and the two timers
// (join window, time cap), over real HTTP with shortened timers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startEmulator, type DialEnd, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';

async function call(
  emu: Emulator,
  method: string,
  path: string,
  body?: unknown,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON answer, read field by field by the assertions
): Promise<{ status: number; body: any }> {
  const response = await fetch(emu.apiUrl + path, {
    method,
    headers: { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function createDial(emu: Emulator, body: Record<string, unknown> = {}): Promise<string> {
  const answer = await call(emu, 'POST', '/dials', { callAgentId: 'emu-demo', browserCall: true, ...body });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.dialId as string;
}

const getDial = async (emu: Emulator, dialId: string) => (await call(emu, 'GET', `/dials/${dialId}`)).body;

/** Resolves with the end of `dialId` as the media half would hear it, rejects after `ms`. */
function endOf(emu: Emulator, dialId: string, ms = 5000): Promise<DialEnd> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`dial ${dialId} did not end within ${ms} ms`));
    }, ms);
    const off = emu.control.onEnded((id, end) => {
      if (id !== dialId) return;
      clearTimeout(timer);
      off();
      resolve(end);
    });
  });
}

describe('dial lifecycle', () => {
  let emu: Emulator;
  before(async () => {
    // One "minute" of a time cap lasts 600 ms. The join window is a minute here, so no test's
    // requests race it (with 1.5 s, a token's answer and the next read took longer on a loaded CI
    // machine, and the dial had gone no-answer); the join window's own tests use `withJoinWindow`.
    emu = await startEmulator({ logger: false, joinWindowMs: 60_000, minuteMs: 600 });
  });
  after(() => emu.close());

  /** Runs `body` against an emulator of its own with these timers, closed after it. */
  async function withEmulator(timers: EmulatorOptions, body: (own: Emulator) => Promise<void>): Promise<void> {
    const own = await startEmulator({ logger: false, ...timers });
    try {
      await body(own);
    } finally {
      await own.close();
    }
  }
  /** Runs `body` against an emulator of its own whose browser gets 1.5 s to join. */
  const withJoinWindow = (body: (short: Emulator) => Promise<void>) => withEmulator({ joinWindowMs: 1500 }, body);

  test('a token moves a queued dial to ringing', async () => {
    const dialId = await createDial(emu);
    assert.equal((await getDial(emu, dialId)).status, 'queued');
    assert.equal((await call(emu, 'POST', `/dials/${dialId}/token`)).status, 200);
    assert.equal((await getDial(emu, dialId)).status, 'ringing');
  });

  test('joined → in-progress with startedAt, then the time cap ends it completed / TIMEOUT', async () => {
    const dialId = await createDial(emu, { timeoutMinutes: 1 });
    await call(emu, 'POST', `/dials/${dialId}/token`);
    const ended = endOf(emu, dialId);
    const joinedAt = Date.now();
    emu.control.joined(dialId);
    const live = await getDial(emu, dialId);
    assert.equal(live.status, 'in-progress');
    assert.equal(live.systemResultType, null);
    assert.ok(Math.abs(Date.parse(live.startedAt) - joinedAt) < 1000);
    assert.equal(live.endedAt, null);

    assert.deepEqual(await ended, { status: 'completed', systemResultType: 'TIMEOUT' });
    const elapsed = Date.now() - joinedAt;
    assert.ok(elapsed >= 550 && elapsed < 3000, `time cap fired after ${elapsed} ms, expected ~600`);
    const dial = await getDial(emu, dialId);
    assert.equal(dial.status, 'completed');
    assert.equal(dial.systemResultType, 'TIMEOUT');
    assert.ok(Date.parse(dial.endedAt) >= Date.parse(dial.startedAt));
    assert.equal(dial.durationSeconds, Math.round((Date.parse(dial.endedAt) - Date.parse(dial.startedAt)) / 1000));
  });

  test("without timeoutMinutes the time cap is the agent's maxDurationSeconds", async () => {
    // 10800 s = 180 "minutes" of 5 ms: 900 ms. (Of 1 ms, 180 ms, a loaded CI machine's first read
    // came after the cap.)
    await withEmulator({ minuteMs: 5, joinWindowMs: 60_000 }, async (fast) => {
      const dialId = await createDial(fast);
      assert.equal(fast.control.sessionForRoom(`dial-${dialId}`)?.maxDurationSeconds, 10800);
      const ended = endOf(fast, dialId);
      const joinedAt = Date.now();
      fast.control.joined(dialId);
      const live = await getDial(fast, dialId);
      if (Date.now() - joinedAt < 850) assert.equal(live.status, 'in-progress', 'running until the cap');
      assert.deepEqual(await ended, { status: 'completed', systemResultType: 'TIMEOUT' });
      assert.ok(Date.now() - joinedAt >= 850);
    });
  });

  test('a browser that never joins ends the dial no-answer / NO_ANSWER after the join window', () =>
    withJoinWindow(async (short) => {
      const createdAt = Date.now();
      const dialId = await createDial(short);
      const ended = endOf(short, dialId);
      await call(short, 'POST', `/dials/${dialId}/token`);
      assert.deepEqual(await ended, { status: 'no-answer', systemResultType: 'NO_ANSWER' });
      assert.ok(Date.now() - createdAt >= 1450);
      const dial = await getDial(short, dialId);
      assert.equal(dial.status, 'no-answer');
      assert.equal(dial.startedAt, null);
      assert.match(dial.endedAt, /Z$/);
      assert.equal(dial.durationSeconds, 0);
      assert.equal(dial.aiDurationSeconds, 0);
    }));

  test('joining in time disarms the join window', () =>
    withJoinWindow(async (short) => {
      const dialId = await createDial(short, { timeoutMinutes: 10 });
      short.control.joined(dialId);
      // Wait past the join window by awaiting another dial's no-answer, created afterwards.
      const other = await createDial(short);
      await endOf(short, other);
      assert.equal((await getDial(short, dialId)).status, 'in-progress');
      await call(short, 'POST', `/dials/${dialId}/hangup`);
    }));

  test('hangup before the join cancels: canceled / CANCELLED', async () => {
    for (const withToken of [false, true]) {
      const dialId = await createDial(emu);
      if (withToken) await call(emu, 'POST', `/dials/${dialId}/token`);
      const ended = endOf(emu, dialId);
      assert.deepEqual((await call(emu, 'POST', `/dials/${dialId}/hangup`)).body, { success: true });
      assert.deepEqual(await ended, { status: 'canceled', systemResultType: 'CANCELLED' });
      const dial = await getDial(emu, dialId);
      assert.equal(dial.status, 'canceled');
      assert.equal(dial.systemResultType, 'CANCELLED');
      assert.equal(dial.durationSeconds, 0);
    }
  });

  test('hangup in progress completes: completed / USER_HANGUP', async () => {
    const dialId = await createDial(emu, { timeoutMinutes: 10 });
    emu.control.joined(dialId);
    const ended = endOf(emu, dialId);
    assert.deepEqual((await call(emu, 'POST', `/dials/${dialId}/hangup`)).body, { success: true });
    assert.deepEqual(await ended, { status: 'completed', systemResultType: 'USER_HANGUP' });
    const dial = await getDial(emu, dialId);
    assert.equal(dial.status, 'completed');
    assert.equal(dial.systemResultType, 'USER_HANGUP');
    assert.notEqual(dial.startedAt, null);
    assert.notEqual(dial.endedAt, null);
  });

  test('a terminal dial never changes: hangup answers success, token 409 dial_ended, control calls are ignored', async () => {
    const dialId = await createDial(emu, { timeoutMinutes: 10 });
    emu.control.joined(dialId);
    await call(emu, 'POST', `/dials/${dialId}/hangup`);
    const final = await getDial(emu, dialId);
    let lateEnds = 0;
    const off = emu.control.onEnded((id) => {
      if (id === dialId) lateEnds += 1;
    });

    assert.deepEqual((await call(emu, 'POST', `/dials/${dialId}/hangup`)).body, { success: true });
    const token = await call(emu, 'POST', `/dials/${dialId}/token`);
    assert.equal(token.status, 409);
    assert.equal(token.body.error.code, 'dial_ended');
    emu.control.joined(dialId);
    emu.control.addTranscript(dialId, { text: 'late', speaker: 'AI', startTimeMs: 0, endTimeMs: 10 });
    emu.control.setAiResult(dialId, { late: true });
    emu.control.end(dialId, { status: 'failed', systemResultType: 'FAILED' });
    off();

    assert.deepEqual(await getDial(emu, dialId), final);
    assert.equal(lateEnds, 0);
  });

  test('agent emu-busy: POST /dials answers 200 with the ids, the dial is failed / RATE_LIMITED at once', async () => {
    const created = await call(emu, 'POST', '/dials', { callAgentId: 'emu-busy', browserCall: true });
    assert.equal(created.status, 200);
    assert.equal(typeof created.body.dialId, 'string');
    assert.equal(typeof created.body.sessionId, 'string');
    const dial = await getDial(emu, created.body.dialId);
    assert.equal(dial.status, 'failed');
    assert.equal(dial.systemResultType, 'RATE_LIMITED');
    assert.notEqual(dial.endedAt, null);
    assert.equal((await call(emu, 'POST', `/dials/${created.body.dialId}/token`)).body.error.code, 'dial_ended');
  });

  test('transcript lines and aiResult from the media half show in the record; aiDurationSeconds sums AI lines', async () => {
    const dialId = await createDial(emu, { timeoutMinutes: 10 });
    emu.control.joined(dialId);
    emu.control.addTranscript(dialId, {
      text: 'Hello, this is the demo agent.',
      speaker: 'AI',
      startTimeMs: 0,
      endTimeMs: 1400,
    });
    emu.control.addTranscript(dialId, {
      text: '(caller spoke, 5.0 s)',
      speaker: 'HUMAN',
      startTimeMs: 1500,
      endTimeMs: 6500,
    });
    emu.control.addTranscript(dialId, {
      text: 'Thanks, goodbye.',
      speaker: 'AI',
      detailType: null,
      startTimeMs: 7000,
      endTimeMs: 8600,
    });
    emu.control.setAiResult(dialId, { summary: 'greeted the caller' });
    const live = await getDial(emu, dialId);
    assert.deepEqual(live.transcript, [
      { text: 'Hello, this is the demo agent.', speaker: 'AI', detailType: null, startTimeMs: 0, endTimeMs: 1400 },
      { text: '(caller spoke, 5.0 s)', speaker: 'HUMAN', detailType: null, startTimeMs: 1500, endTimeMs: 6500 },
      { text: 'Thanks, goodbye.', speaker: 'AI', detailType: null, startTimeMs: 7000, endTimeMs: 8600 },
    ]);
    assert.deepEqual(live.aiResult, { summary: 'greeted the caller' });
    assert.equal(live.aiDurationSeconds, null, 'durations are filled at the end');

    emu.control.end(dialId, { status: 'completed', systemResultType: 'AGENT_HANGUP' });
    const dial = await getDial(emu, dialId);
    assert.equal(dial.status, 'completed');
    assert.equal(dial.systemResultType, 'AGENT_HANGUP');
    assert.equal(dial.aiDurationSeconds, 3); // 1.4 s + 1.6 s; the HUMAN line does not count
    assert.equal(dial.durationSeconds, 0); // ended within the same second it started
  });

  test('sessionForRoom describes the dial for the media half', async () => {
    const dialId = await createDial(emu, { callAgentId: 'emu-quick', timeoutMinutes: 2 });
    assert.deepEqual(emu.control.sessionForRoom(`dial-${dialId}`), {
      dialId,
      roomName: `dial-${dialId}`,
      scenario: 'emu-quick',
      status: 'queued',
      maxDurationSeconds: 120,
      aiPaused: false,
      transferred: false,
    });
    assert.equal(emu.control.sessionForRoom('dial-nope'), undefined);
    await call(emu, 'POST', `/dials/${dialId}/hangup`);
    assert.equal(emu.control.sessionForRoom(`dial-${dialId}`)?.status, 'canceled');
  });

  test('onEnded reports every end once, whoever ended it, and unsubscribes', async () => {
    const seen: string[] = [];
    const off = emu.control.onEnded((id, end) => seen.push(`${id}:${end.systemResultType}`));
    const a = await createDial(emu);
    await call(emu, 'POST', `/dials/${a}/hangup`);
    const b = await createDial(emu, { timeoutMinutes: 10 });
    emu.control.joined(b);
    emu.control.end(b, { status: 'failed', systemResultType: 'FAILED' });
    emu.control.end(b, { status: 'completed', systemResultType: 'AGENT_HANGUP' });
    off();
    const c = await createDial(emu);
    await call(emu, 'POST', `/dials/${c}/hangup`);
    assert.deepEqual(seen, [`${a}:CANCELLED`, `${b}:FAILED`]);
  });

  test('an API hang-up answers once the room has let go of the dial (the promise its onEnded listener returned)', async () => {
    let letGo: (() => void) | undefined;
    const off = emu.control.onEnded(() => new Promise<void>((resolve) => (letGo = resolve)));
    try {
      const dialId = await createDial(emu);
      let answered = false;
      const hangup = call(emu, 'POST', `/dials/${dialId}/hangup`).then((answer) => {
        answered = true;
        return answer;
      });
      while (!letGo) await call(emu, 'GET', `/dials/${dialId}`);
      // Three whole round trips after the dial ended: a hang-up that did not wait would be answered.
      for (let i = 0; i < 3; i++) assert.equal((await call(emu, 'GET', `/dials/${dialId}`)).status, 200);
      assert.equal(answered, false, 'answered before the room let go');
      letGo();
      const answer = await hangup;
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, { success: true });
    } finally {
      off();
    }
  });

  test('a listener that throws does not stop the dial from ending', async () => {
    const off = emu.control.onEnded(() => {
      throw new Error('listener bug');
    });
    try {
      const dialId = await createDial(emu);
      const ended = endOf(emu, dialId);
      assert.equal((await call(emu, 'POST', `/dials/${dialId}/hangup`)).status, 200);
      assert.equal((await ended).systemResultType, 'CANCELLED');
    } finally {
      off();
    }
  });
});

describe('emulator process', () => {
  test('REST-only use does not load native WebRTC', async () => {
    const emu = await startEmulator({ logger: false });
    const dialId = await createDial(emu);
    await call(emu, 'POST', `/dials/${dialId}/token`);
    await call(emu, 'POST', `/dials/${dialId}/hangup`);
    await emu.close();
    const report = process.report.getReport() as { sharedObjects?: string[] };
    assert.ok(Array.isArray(report.sharedObjects) && report.sharedObjects.length > 0);
    assert.deepEqual(
      report.sharedObjects.filter((path) => /wrtc/i.test(path)),
      [],
    );
  });

  test('close() stops pending timers and both servers', async () => {
    // A join window long enough to be still pending at close() on a loaded machine (with 100 ms,
    // the create and close() took longer than the window once on CI, and the dial went no-answer
    // before close() ran), and a wait past it from before the create.
    const joinWindowMs = 2000;
    const emu = await startEmulator({ logger: false, joinWindowMs });
    const before = performance.now();
    const dialId = await createDial(emu);
    let ends = 0;
    emu.control.onEnded(() => (ends += 1));
    await emu.close();
    // The join window has passed, but the timer was stopped with the emulator.
    await new Promise((resolve) => setTimeout(resolve, before + joinWindowMs + 250 - performance.now()));
    assert.equal(ends, 0);
    assert.equal(emu.control.sessionForRoom(`dial-${dialId}`)?.status, 'queued');
    await assert.rejects(fetch(`${emu.apiUrl}/agents`));
    await assert.rejects(fetch(emu.mediaUrl.replace('ws:', 'http:')));
  });
});
