// Idempotent POST /dials: replay, conflict, and races of concurrent requests over real HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';

async function createDial(
  emu: Emulator,
  body: unknown,
  headers: Record<string, string> = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON answer, read field by field by the assertions
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${emu.apiUrl}/dials`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

describe('idempotent POST /dials', () => {
  let emu: Emulator;
  const log: string[] = [];
  /** How many dials the store created, counted from its transition log. */
  const dialsCreated = () => log.filter((line) => / queued \(agent /.test(line)).length;

  before(async () => {
    emu = await startEmulator({ logger: (line) => log.push(line) });
  });
  after(() => emu.close());

  const demo = { callAgentId: 'emu-demo', browserCall: true, callAgentInput: { name: 'Ada', topic: 'tests' } };

  test('a repeat with the Idempotency-Key header replays the first answer', async () => {
    const before = dialsCreated();
    const first = await createDial(emu, demo, { 'idempotency-key': 'header-key-1' });
    const second = await createDial(emu, demo, { 'idempotency-key': 'header-key-1' });
    assert.equal(first.status, 200);
    assert.equal(second.status, 200);
    assert.deepEqual(second.body, first.body);
    assert.equal(dialsCreated() - before, 1);
  });

  test('the body field idempotencyKey works the same, and equals the header', async () => {
    const first = await createDial(emu, { ...demo, idempotencyKey: 'body-key-1' });
    const second = await createDial(emu, { ...demo, idempotencyKey: 'body-key-1' });
    const viaHeader = await createDial(emu, demo, { 'idempotency-key': 'body-key-1' });
    assert.equal(first.status, 200);
    assert.deepEqual(second.body, first.body);
    assert.deepEqual(viaHeader.body, first.body);
  });

  test('key order in the body does not make it a different body', async () => {
    const first = await createDial(
      emu,
      { browserCall: true, callAgentId: 'emu-demo', callAgentInput: { a: 1, b: 2 } },
      { 'idempotency-key': 'order-key' },
    );
    const second = await createDial(
      emu,
      { callAgentInput: { b: 2, a: 1 }, callAgentId: 'emu-demo', browserCall: true },
      { 'idempotency-key': 'order-key' },
    );
    assert.equal(second.status, 200);
    assert.equal(second.body.dialId, first.body.dialId);
  });

  test('the same key with a different body answers 409 naming the existing dial', async () => {
    const first = await createDial(emu, demo, { 'idempotency-key': 'conflict-key' });
    const before = dialsCreated();
    const conflict = await createDial(
      emu,
      { ...demo, callAgentInput: { name: 'Grace' } },
      { 'idempotency-key': 'conflict-key' },
    );
    assert.equal(conflict.status, 409);
    assert.equal(conflict.body.error.code, 'idempotency_conflict');
    assert.equal(conflict.body.error.dialId, first.body.dialId);
    assert.match(conflict.body.error.message, new RegExp(first.body.dialId));
    assert.equal(dialsCreated(), before);
  });

  test('different keys give different dials; no key always creates', async () => {
    const a = await createDial(emu, demo, { 'idempotency-key': 'distinct-a' });
    const b = await createDial(emu, demo, { 'idempotency-key': 'distinct-b' });
    const c = await createDial(emu, demo);
    const d = await createDial(emu, demo);
    assert.equal(new Set([a.body.dialId, b.body.dialId, c.body.dialId, d.body.dialId]).size, 4);
  });

  test('a header and a body key that differ answer 400; an empty or oversized key answers 400', async () => {
    const both = await createDial(emu, { ...demo, idempotencyKey: 'one' }, { 'idempotency-key': 'two' });
    assert.equal(both.status, 400);
    assert.equal((await createDial(emu, { ...demo, idempotencyKey: '' })).status, 400);
    assert.equal((await createDial(emu, demo, { 'idempotency-key': 'k'.repeat(256) })).status, 400);
  });

  test('a refused request does not use up its key', async () => {
    const refused = await createDial(
      emu,
      { callAgentId: 'no-such-agent', browserCall: true },
      { 'idempotency-key': 'retry-key' },
    );
    assert.equal(refused.status, 422);
    const accepted = await createDial(emu, demo, { 'idempotency-key': 'retry-key' });
    assert.equal(accepted.status, 200);
  });

  test('50 concurrent identical requests with one key create exactly one dial', async () => {
    const before = dialsCreated();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => createDial(emu, demo, { 'idempotency-key': 'race-key' })),
    );
    assert.deepEqual(new Set(answers.map((answer) => answer.status)), new Set([200]));
    assert.equal(new Set(answers.map((answer) => answer.body.dialId)).size, 1);
    assert.equal(new Set(answers.map((answer) => answer.body.dialToken)).size, 1);
    assert.equal(dialsCreated() - before, 1);
  });

  test('50 concurrent requests with one key and two bodies: one dial, the other body gets 409', async () => {
    const before = dialsCreated();
    const bodies = Array.from({ length: 50 }, (_, index) =>
      index % 2 === 0 ? demo : { ...demo, callAgentInput: { name: 'Other' } },
    );
    const answers = await Promise.all(
      bodies.map((body) => createDial(emu, body, { 'idempotency-key': 'race-two-bodies' })),
    );
    assert.equal(dialsCreated() - before, 1);
    const ok = answers.filter((answer) => answer.status === 200);
    const conflicts = answers.filter((answer) => answer.status === 409);
    assert.equal(ok.length, 25);
    assert.equal(conflicts.length, 25);
    const dialId = ok[0]?.body.dialId;
    assert.equal(typeof dialId, 'string');
    for (const answer of ok) assert.equal(answer.body.dialId, dialId);
    for (const answer of conflicts) assert.equal(answer.body.error.dialId, dialId);
  });

  test('100 concurrent creates without a key give 100 distinct dials, each readable', async () => {
    const answers = await Promise.all(Array.from({ length: 100 }, () => createDial(emu, demo)));
    assert.ok(answers.every((answer) => answer.status === 200));
    const ids = new Set(answers.map((answer) => answer.body.dialId));
    assert.equal(ids.size, 100);
    assert.equal(new Set(answers.map((answer) => answer.body.sessionId)).size, 100);
    const records = await Promise.all(
      [...ids].map(async (id) =>
        (await fetch(`${emu.apiUrl}/dials/${id}`, { headers: { authorization: `Bearer ${emu.apiKey}` } })).json(),
      ),
    );
    assert.deepEqual(new Set(records.map((record: { id: string }) => record.id)), ids);
  });
});

describe('idempotent POST /dials, strict mode (every reuse of a key is a 409)', () => {
  let emu: Emulator;
  const log: string[] = [];
  const dialsCreated = () => log.filter((line) => / queued \(agent /.test(line)).length;
  const demo = { callAgentId: 'emu-demo', browserCall: true };

  before(async () => {
    emu = await startEmulator({ idempotency: 'strict', logger: (line) => log.push(line) });
  });
  after(() => emu.close());

  test("a repeat with the same body answers 409 with the first dial's dialId and sessionId, and creates nothing", async () => {
    const first = await createDial(emu, demo, { 'idempotency-key': 'strict-1' });
    assert.equal(first.status, 200);
    const before = dialsCreated();
    for (const body of [demo, { ...demo, callAgentInput: { name: 'Other' } }]) {
      const repeat = await createDial(emu, body, { 'idempotency-key': 'strict-1' });
      assert.equal(repeat.status, 409);
      assert.equal(repeat.body.error.code, 'idempotency_conflict');
      assert.equal(repeat.body.error.dialId, first.body.dialId);
      assert.equal(repeat.body.error.sessionId, first.body.sessionId);
      assert.match(repeat.body.error.message, /already in use/);
    }
    assert.equal(dialsCreated(), before);
  });

  test('20 concurrent requests with one key: one 200, nineteen 409s all naming that dial', async () => {
    const before = dialsCreated();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => createDial(emu, demo, { 'idempotency-key': 'strict-race' })),
    );
    const ok = answers.filter((answer) => answer.status === 200);
    assert.equal(ok.length, 1);
    for (const answer of answers.filter((item) => item.status !== 200)) {
      assert.equal(answer.status, 409);
      assert.equal(answer.body.error.dialId, ok[0]?.body.dialId);
    }
    assert.equal(dialsCreated() - before, 1);
  });

  test('a refused request does not use up its key; no key always creates', async () => {
    assert.equal(
      (await createDial(emu, { callAgentId: 'nope', browserCall: true }, { 'idempotency-key': 'strict-refused' }))
        .status,
      422,
    );
    assert.equal((await createDial(emu, demo, { 'idempotency-key': 'strict-refused' })).status, 200);
    const a = await createDial(emu, demo);
    const b = await createDial(emu, demo);
    assert.notEqual(a.body.dialId, b.body.dialId);
  });
});
