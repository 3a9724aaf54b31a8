// The emulator's REST routes over real HTTP on 127.0.0.1: shapes, auth and every error status.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startEmulator, SCENARIO_AGENT_IDS, type Emulator } from '../../src/emulator/index.js';

const API_KEY = 'test-key-9f8e7d6c5b4a';

interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON answer, read field by field by the assertions
  body: any;
}

const seenBodies: string[] = [];

async function call(
  emu: Emulator,
  method: string,
  path: string,
  init: { body?: unknown; raw?: string; key?: string | null; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  const key = init.key === undefined ? emu.apiKey : init.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | undefined = init.raw;
  if (init.body !== undefined) body = JSON.stringify(init.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(emu.apiUrl + path, { method, headers, body });
  const text = await response.text();
  seenBodies.push(text);
  return { status: response.status, headers: response.headers, body: JSON.parse(text) };
}

function assertError(answer: Answer, status: number, code: string): void {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(answer.body.error.code, code);
  assert.equal(typeof answer.body.error.message, 'string');
  assert.ok(answer.body.error.message.length > 0);
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const AGENT_FIELDS = [
  'id',
  'name',
  'language',
  'transcriberParams',
  'metadata',
  'utteranceDetectorConfig',
  'endpointDetectorConfig',
  'ivrConfiguration',
  'idleMessageConfig',
  'maxDurationSeconds',
  'defaultVoiceId',
  'defaultVersionedPromptId',
  'defaultExtractorId',
  'linkedFunctionDefinitions',
  'fillEmptyStringVariables',
  'silenceHangupConfiguration',
  'voiceOptionValues',
  'timeoutMessage',
  'timeoutBehaviorConfiguration',
  'voicemailConfig',
  'ivrSilenceHangupConfiguration',
];
const DIAL_FIELDS = [
  'id',
  'toNumber',
  'fromNumberId',
  'agent',
  'recordings',
  'transcript',
  'durationSeconds',
  'aiDurationSeconds',
  'aiResult',
  'inputs',
  'status',
  'systemResultType',
  'dialTaskId',
  'voiceId',
  'versionedPromptId',
  'startedAt',
  'endedAt',
  'createdAt',
  'updatedAt',
];

describe('emulator REST API', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ apiKey: API_KEY, logger: false });
  });
  after(async () => {
    await emu.close();
    // Checked last, over every body any test in this file received.
    assert.ok(seenBodies.length > 40);
    for (const text of seenBodies)
      assert.ok(!text.includes(API_KEY), `a response carried the API key: ${text.slice(0, 200)}`);
  });

  test('binds 127.0.0.1 on free ports', () => {
    assert.match(emu.apiUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.match(emu.mediaUrl, /^ws:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(emu.apiKey, API_KEY);
  });

  describe('auth', () => {
    const routes: [string, string][] = [
      ['POST', '/dials'],
      ['GET', '/dials/x'],
      ['POST', '/dials/x/token'],
      ['POST', '/dials/x/hangup'],
      ['GET', '/agents'],
      ['GET', '/nowhere'],
    ];
    test('every route answers 401 without a key', async () => {
      for (const [method, path] of routes)
        assertError(await call(emu, method, path, { key: null }), 401, 'unauthorized');
    });
    test('every route answers 401 with a wrong key, of any length or scheme', async () => {
      for (const [method, path] of routes) {
        assertError(await call(emu, method, path, { key: 'wrong' }), 401, 'unauthorized');
        assertError(await call(emu, method, path, { key: `${API_KEY}x` }), 401, 'unauthorized');
        assertError(
          await call(emu, method, path, { key: null, headers: { authorization: `Basic ${API_KEY}` } }),
          401,
          'unauthorized',
        );
      }
    });
    test('a 401 creates nothing', async () => {
      assertError(
        await call(emu, 'POST', '/dials', { key: 'wrong', body: { callAgentId: 'emu-demo', browserCall: true } }),
        401,
        'unauthorized',
      );
    });
  });

  describe('routing', () => {
    test('unknown routes answer 404', async () => {
      assertError(await call(emu, 'GET', '/'), 404, 'not_found');
      assertError(await call(emu, 'GET', '/dialz'), 404, 'not_found');
      assertError(await call(emu, 'POST', '/dials/a/b/c'), 404, 'not_found');
    });
    test('a wrong method answers 405 with Allow', async () => {
      const answer = await call(emu, 'GET', '/dials');
      assertError(answer, 405, 'method_not_allowed');
      assert.equal(answer.headers.get('allow'), 'POST');
      assertError(await call(emu, 'DELETE', '/dials/x'), 405, 'method_not_allowed');
      assertError(await call(emu, 'GET', '/dials/x/hangup'), 405, 'method_not_allowed');
      assertError(await call(emu, 'DELETE', '/agents'), 405, 'method_not_allowed');
    });
    test('answers are never cached', async () => {
      const answer = await call(emu, 'GET', '/agents');
      assert.equal(answer.headers.get('cache-control'), 'no-store');
    });
  });

  describe('POST /dials', () => {
    test('answers the ids and a dial token; the dial is queued with the seed Dial record', async () => {
      const created = await call(emu, 'POST', '/dials', {
        body: { callAgentId: 'emu-demo', browserCall: true, callAgentInput: { name: 'Ada' }, timeoutMinutes: 5 },
      });
      assert.equal(created.status, 200);
      assert.deepEqual(Object.keys(created.body).sort(), ['dialId', 'dialToken', 'sessionId']);
      assert.match(created.body.dialId, UUID);
      assert.match(created.body.sessionId, UUID);
      assert.notEqual(created.body.dialId, created.body.sessionId);
      assert.equal(created.body.dialToken.split('.').length, 3);

      const dial = await call(emu, 'GET', `/dials/${created.body.dialId}`);
      assert.equal(dial.status, 200);
      assert.deepEqual(Object.keys(dial.body).sort(), [...DIAL_FIELDS].sort());
      assert.equal(dial.body.id, created.body.dialId);
      assert.equal(dial.body.status, 'queued');
      assert.equal(dial.body.systemResultType, null);
      assert.deepEqual(dial.body.inputs, { name: 'Ada' });
      assert.deepEqual(dial.body.transcript, []);
      assert.deepEqual(dial.body.recordings, []);
      assert.equal(dial.body.startedAt, null);
      assert.equal(dial.body.endedAt, null);
      assert.equal(dial.body.durationSeconds, null);
      assert.match(dial.body.createdAt, ISO_UTC);
      assert.match(dial.body.updatedAt, ISO_UTC);
      assert.ok(Math.abs(Date.parse(dial.body.createdAt) - Date.now()) < 5000);
      assert.deepEqual(Object.keys(dial.body.agent).sort(), [...AGENT_FIELDS].sort());
      assert.equal(dial.body.agent.id, 'emu-demo');
      assert.equal(dial.body.agent.language, 'en');
      assert.equal(dial.body.agent.maxDurationSeconds, 10800);
      assert.equal(dial.body.voiceId, dial.body.agent.defaultVoiceId);
    });

    test('a phone dial with both numbers is accepted', async () => {
      const number = await call(emu, 'POST', '/phone_numbers/purchase', { body: { number: '+15550001234' } });
      const created = await call(emu, 'POST', '/dials', {
        body: { callAgentId: 'emu-demo', toNumber: '+11234567890', fromNumberId: number.body.id },
      });
      assert.equal(created.status, 200);
      const dial = await call(emu, 'GET', `/dials/${created.body.dialId}`);
      assert.equal(dial.body.toNumber, '+11234567890');
      assert.equal(dial.body.fromNumberId, number.body.id);
    });

    test('malformed JSON or wrong types answer 400', async () => {
      assertError(await call(emu, 'POST', '/dials', { raw: '{"callAgentId": "emu-demo",' }), 400, 'invalid_request');
      assertError(await call(emu, 'POST', '/dials', { raw: '' }), 400, 'invalid_request');
      const wrong: unknown[] = [
        ['emu-demo'],
        'emu-demo',
        null,
        {},
        { callAgentId: 7, browserCall: true },
        { callAgentId: 'emu-demo', browserCall: 'yes' },
        { callAgentId: 'emu-demo', browserCall: true, timeoutMinutes: '5' },
        { callAgentId: 'emu-demo', browserCall: true, timeoutMinutes: 1.5 },
        { callAgentId: 'emu-demo', browserCall: true, callAgentInput: ['a'] },
        { callAgentId: 'emu-demo', browserCall: true, keywords: [1] },
        { callAgentId: 'emu-demo', browserCall: true, voiceOptionValues: [{ optionId: 1 }] },
        { callAgentId: 'emu-demo', browserCall: true, idempotencyKey: 5 },
      ];
      for (const body of wrong)
        assertError(await call(emu, 'POST', '/dials', { raw: JSON.stringify(body) }), 400, 'invalid_request');
    });

    test('well-formed but invalid input answers 422', async () => {
      const invalid: unknown[] = [
        { callAgentId: 'no-such-agent', browserCall: true },
        { callAgentId: 'emu-demo' },
        { callAgentId: 'emu-demo', browserCall: false, fromNumberId: 'num-1' },
        { callAgentId: 'emu-demo', browserCall: null, toNumber: '+11234567890' },
        { callAgentId: 'emu-demo', toNumber: '555-1234', fromNumberId: 'num-1' },
        { callAgentId: 'emu-demo', browserCall: true, timeoutMinutes: 0 },
        { callAgentId: 'emu-demo', browserCall: true, timeoutMinutes: -3 },
      ];
      for (const body of invalid) assertError(await call(emu, 'POST', '/dials', { body }), 422, 'validation_failed');
    });

    test('a body over 64 KiB answers 413', async () => {
      const answer = await call(emu, 'POST', '/dials', {
        body: { callAgentId: 'emu-demo', browserCall: true, callAgentInput: { blob: 'x'.repeat(70 * 1024) } },
      });
      assertError(answer, 413, 'payload_too_large');
      // The connection stays usable: the body was drained.
      assert.equal((await call(emu, 'GET', '/agents')).status, 200);
    });
  });

  describe('dial routes', () => {
    test('an unknown dial answers 404 on every dial route', async () => {
      assertError(await call(emu, 'GET', '/dials/no-such-dial'), 404, 'not_found');
      assertError(await call(emu, 'POST', '/dials/no-such-dial/token'), 404, 'not_found');
      assertError(await call(emu, 'POST', '/dials/no-such-dial/hangup'), 404, 'not_found');
      assertError(await call(emu, 'GET', '/dials/%E0%A4%A'), 404, 'not_found');
    });

    test('POST /dials/{id}/token answers exactly { dialToken }, a token the media room does not take', async () => {
      const created = await call(emu, 'POST', '/dials', { body: { callAgentId: 'emu-quick', browserCall: true } });
      const token = await call(emu, 'POST', `/dials/${created.body.dialId}/token`);
      assert.equal(token.status, 200);
      assert.deepEqual(Object.keys(token.body), ['dialToken']);
      assert.equal(token.body.dialToken.split('.').length, 3);
      await assert.rejects(emu.verifyToken(token.body.dialToken));
      await assert.rejects(emu.verifyToken(created.body.dialToken));
    });

    test('POST /dials/{id}/hangup answers { success: true }', async () => {
      const created = await call(emu, 'POST', '/dials', { body: { callAgentId: 'emu-demo', browserCall: true } });
      const hangup = await call(emu, 'POST', `/dials/${created.body.dialId}/hangup`);
      assert.equal(hangup.status, 200);
      assert.deepEqual(hangup.body, { success: true });
    });
  });

  describe('GET /agents', () => {
    test('lists every scenario agent as a full Agent record, cursor null at the end', async () => {
      const answer = await call(emu, 'GET', '/agents');
      assert.equal(answer.status, 200);
      assert.deepEqual(Object.keys(answer.body).sort(), ['cursor', 'data']);
      assert.deepEqual(
        answer.body.data.map((agent: { id: string }) => agent.id),
        [...SCENARIO_AGENT_IDS],
      );
      assert.deepEqual([...SCENARIO_AGENT_IDS].sort(), [
        'emu-agent-leaves',
        'emu-blip',
        'emu-busy',
        'emu-demo',
        'emu-drop',
        'emu-graphql-transcript',
        'emu-keypad',
        'emu-no-agent',
        'emu-quick',
        'emu-server-leave',
        'emu-silent-user',
        'emu-transfer-refused',
        'emu-vonage',
        'emu-weak-link',
      ]);
      for (const agent of answer.body.data) {
        assert.deepEqual(Object.keys(agent).sort(), [...AGENT_FIELDS].sort());
        assert.equal(agent.language, 'en');
        assert.equal(agent.maxDurationSeconds, 10800);
        assert.equal(typeof agent.name, 'string');
      }
      assert.equal(answer.body.cursor, null);
    });

    test('pages with limit and an opaque cursor', async () => {
      const first = await call(emu, 'GET', '/agents?limit=5');
      assert.equal(first.body.data.length, 5);
      assert.equal(typeof first.body.cursor, 'string');
      const second = await call(emu, 'GET', `/agents?limit=5&cursor=${encodeURIComponent(first.body.cursor)}`);
      assert.equal(second.body.data.length, 5);
      assert.equal(typeof second.body.cursor, 'string');
      const third = await call(emu, 'GET', `/agents?limit=5&cursor=${encodeURIComponent(second.body.cursor)}`);
      assert.equal(third.body.data.length, SCENARIO_AGENT_IDS.length - 10);
      assert.equal(third.body.cursor, null);
      const ids = [...first.body.data, ...second.body.data, ...third.body.data].map(
        (agent: { id: string }) => agent.id,
      );
      assert.deepEqual(ids, [...SCENARIO_AGENT_IDS]);
    });

    test('a bad limit or cursor answers 400', async () => {
      assertError(await call(emu, 'GET', '/agents?limit=0'), 400, 'invalid_request');
      assertError(await call(emu, 'GET', '/agents?limit=abc'), 400, 'invalid_request');
      assertError(await call(emu, 'GET', '/agents?cursor=not-ours'), 400, 'invalid_request');
    });
  });
});

describe('emulator REST API options', () => {
  test('maxBodyBytes sets the 413 limit', async () => {
    const emu = await startEmulator({ logger: false, maxBodyBytes: 100 });
    try {
      assertError(
        await call(emu, 'POST', '/dials', {
          body: { callAgentId: 'emu-demo', browserCall: true, callAgentInput: { a: 'x'.repeat(100) } },
        }),
        413,
        'payload_too_large',
      );
      assert.equal(
        (await call(emu, 'POST', '/dials', { body: { callAgentId: 'emu-demo', browserCall: true } })).status,
        200,
      );
    } finally {
      await emu.close();
    }
  });

  test('the default API key is emu-dev-key', async () => {
    const emu = await startEmulator({ logger: false });
    try {
      assert.equal(emu.apiKey, 'emu-dev-key');
      assert.equal((await call(emu, 'GET', '/agents', { key: 'emu-dev-key' })).status, 200);
    } finally {
      await emu.close();
    }
  });

  test('log lines never carry the API key', async () => {
    const lines: string[] = [];
    const emu = await startEmulator({ apiKey: API_KEY, logger: (line) => lines.push(line) });
    try {
      const created = await call(emu, 'POST', '/dials', { body: { callAgentId: 'emu-demo', browserCall: true } });
      await call(emu, 'POST', `/dials/${created.body.dialId}/token`);
      await call(emu, 'GET', '/agents', { key: 'wrong' });
      await call(emu, 'POST', `/dials/${created.body.dialId}/hangup`);
    } finally {
      await emu.close();
    }
    assert.ok(lines.length >= 4);
    assert.ok(lines.some((line) => line.includes('POST /dials 200')));
    for (const line of lines) assert.ok(!line.includes(API_KEY), line);
  });
});
