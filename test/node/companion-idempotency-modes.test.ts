// The widget's create retry (same Idempotency-Key) through the companion against the real
// emulator in both idempotency modes: `replay` answers the first dial again; `strict` answers a
// 409 naming it, which the companion adopts. Either way the visitor gets one dial and a working
// handle, and a 409 that names no dial ends as 409 duplicate_request.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startEmulator, type Emulator, type IdempotencyMode } from '../../src/emulator/index.js';
import { createCompanionHandler } from '../../src/server/handler.js';
import { createHandleSigner } from '../../src/server/handles.js';
import type { CompanionLogEntry } from '../../src/server/log.js';
import type { CompanionHandler } from '../../src/server/index.js';
import { body, createDial, present, expectError, get, ORIGIN, post, SECRET } from './companion-support.js';

const VISITOR = { clientAddress: '203.0.113.7' };
const OTHER_VISITOR = { clientAddress: '198.51.100.9' };

for (const mode of ['replay', 'strict'] as const satisfies readonly IdempotencyMode[]) {
  describe(`companion create retry, emulator idempotency ${mode}`, () => {
    let emulator: Emulator;
    let handler: CompanionHandler;
    const logs: CompanionLogEntry[] = [];
    const emulatorLog: string[] = [];
    /** Dials the emulator created, from its transition log. */
    const dialsCreated = () => emulatorLog.filter((line) => / queued \(agent /.test(line)).length;
    before(async () => {
      emulator = await startEmulator({ idempotency: mode, logger: (line) => emulatorLog.push(line) });
      handler = createCompanionHandler({
        apiKey: emulator.apiKey,
        baseUrl: emulator.apiUrl,
        agents: { default: 'emu-demo' },
        secret: SECRET,
        allowedOrigins: [ORIGIN],
        logger: (entry) => logs.push(entry),
      });
    });
    after(() => emulator.close());

    test('a retry with the same key gets the same dial and a handle that works', async () => {
      const headers = { 'idempotency-key': `retry-${mode}` };
      const before = dialsCreated();
      const first = await createDial(handler, { headers, context: VISITOR });
      const second = await createDial(handler, { headers, context: VISITOR });
      assert.equal(second.dialId, first.dialId);
      assert.equal(dialsCreated() - before, 1);
      const signer = createHandleSigner(SECRET);
      const [a, b] = await Promise.all(
        [first, second].map((answer) => signer.read(answer.handle, answer.dialId, Date.now())),
      );
      assert.ok(a?.sessionId, 'the first handle carries the session id');
      assert.equal(b?.sessionId, a.sessionId, 'the adopted handle carries the same session id');
      const read = await handler(get(`/dials/${second.dialId}`, second.handle), VISITOR);
      assert.equal(read.status, 200);
      assert.equal((await body(read)).dialId, first.dialId);
      const createLogs = logs.filter((entry) => entry.method === 'POST' && entry.status === 200);
      if (mode === 'strict')
        assert.match(present(createLogs.at(-1)).reason ?? '', /adopted the dial named by the service's 409/);
      else assert.equal(present(createLogs.at(-1)).reason, undefined);
    });

    test('another visitor with the same key gets a dial of its own', async () => {
      const headers = { 'idempotency-key': `shared-${mode}` };
      const mine = await createDial(handler, { headers, context: VISITOR });
      const theirs = await createDial(handler, { headers, context: OTHER_VISITOR });
      assert.notEqual(theirs.dialId, mine.dialId);
    });
  });
}

describe('companion create: a 409 that names no dial', () => {
  test('answers 409 duplicate_request (the widget ends setup-failed with that code)', async () => {
    const service: typeof fetch = async () =>
      Response.json({ error: { code: 'conflict', message: 'key in use' } }, { status: 409 });
    const handler = createCompanionHandler({
      apiKey: 'k',
      baseUrl: 'https://service.example/api',
      agents: { default: 'a' },
      secret: SECRET,
      allowedOrigins: [ORIGIN],
      fetch: service,
      logger: false,
    });
    await expectError(
      await handler(post('/dials', {}, { 'idempotency-key': 'k1' }), VISITOR),
      409,
      'duplicate_request',
    );
    // A 409 naming a dial without its session cannot be adopted: the token step needs the session.
    const noSession: typeof fetch = async () => Response.json({ dialId: 'd-1' }, { status: 409 });
    const strict = createCompanionHandler({
      apiKey: 'k',
      baseUrl: 'https://service.example/api',
      agents: { default: 'a' },
      secret: SECRET,
      allowedOrigins: [ORIGIN],
      fetch: noSession,
      logger: false,
    });
    await expectError(await strict(post('/dials', {}, { 'idempotency-key': 'k2' }), VISITOR), 409, 'duplicate_request');
    // Without an Idempotency-Key the companion never adopts.
    const named: typeof fetch = async () => Response.json({ dialId: 'd-1', sessionId: 's-1' }, { status: 409 });
    const keyless = createCompanionHandler({
      apiKey: 'k',
      baseUrl: 'https://service.example/api',
      agents: { default: 'a' },
      secret: SECRET,
      allowedOrigins: [ORIGIN],
      fetch: named,
      logger: false,
    });
    await expectError(await keyless(post('/dials', {}), VISITOR), 409, 'duplicate_request');
    const keyed = await createDial(keyless, { headers: { 'idempotency-key': 'k3' }, context: VISITOR });
    assert.equal(keyed.dialId, 'd-1');
  });
});
