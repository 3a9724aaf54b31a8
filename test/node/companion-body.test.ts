// body.ts on its own: the byte limit (declared or streamed), UTF-8, JSON, the create's fields
// checked against the config, and the handle a sendBeacon hang-up carries.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readBeaconHandle, readBody, readDialRequest } from '../../src/server/body.js';
import { HttpError, type CompanionErrorCode } from '../../src/server/errors.js';
import { fromFetchRequest } from '../../src/server/exchange.js';

const JSON_TYPE = { 'content-type': 'application/json' };

const post = (body: BodyInit | null, headers: Record<string, string> = JSON_TYPE) =>
  fromFetchRequest(new Request('http://127.0.0.1/dials', { method: 'POST', body, headers }));

/** A stream of `size` bytes that declares no length. */
const undeclared = (size: number) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array(size).fill(0x61));
      controller.close();
    },
  });

const SETTINGS = {
  agents: Object.assign(Object.create(null) as Record<string, string>, { default: 'agent-1', sales: 'agent-2' }),
  allowedInputs: new Set(['name']),
  maxInputLength: 5,
  maxBodyBytes: 64,
};

async function refusal(promise: Promise<unknown>): Promise<{ code: CompanionErrorCode; message: string }> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof HttpError, String(error));
    return { code: error.code, message: error.message };
  }
  assert.fail('expected an HttpError');
}

describe('request bodies', () => {
  test('up to the limit the text is read; past it (declared or streamed) 413, and bytes that are not UTF-8 400', async () => {
    assert.equal(await readBody(post('{"a":1}'), 64), '{"a":1}');
    assert.equal((await refusal(readBody(post('x'.repeat(65)), 64))).code, 'payload_too_large');
    // A declared length over the limit is refused before a byte is read.
    assert.equal((await refusal(readBody(post('{}', { 'content-length': '65' }), 64))).code, 'payload_too_large');
    const streamed = fromFetchRequest(
      new Request('http://127.0.0.1/dials', { method: 'POST', body: undeclared(65), duplex: 'half' } as RequestInit),
    );
    assert.equal((await refusal(readBody(streamed, 64))).code, 'payload_too_large');
    assert.deepEqual(await refusal(readBody(post(new Uint8Array([0xff, 0xfe])), 64)), {
      code: 'invalid_request',
      message: 'the request body is not UTF-8',
    });
  });

  test('a create: agent and allowed inputs pass, unknown inputs are dropped; no body means the default agent', async () => {
    assert.deepEqual(await readDialRequest(post('{"agent":"sales","inputs":{"name":"Ada","other":"x"}}'), SETTINGS), {
      callAgentId: 'agent-2',
      callAgentInput: { name: 'Ada' },
    });
    assert.deepEqual(await readDialRequest(post(null, {}), SETTINGS), { callAgentId: 'agent-1', callAgentInput: {} });
  });

  test('a create is refused (400) for each thing it may not be', async () => {
    for (const [body, message, headers] of [
      ['{"agent":"sales"}', 'send the body as application/json', { 'content-type': 'text/plain' }],
      ['{', 'the request body is not valid JSON', JSON_TYPE],
      ['[]', 'the body must be a JSON object', JSON_TYPE],
      ['{"agentId":"x"}', 'the body may only have the fields agent and inputs', JSON_TYPE],
      ['{"agent":1}', 'agent must be a string', JSON_TYPE],
      ['{"agent":"toString"}', 'unknown agent', JSON_TYPE],
      ['{"inputs":"Ada"}', 'inputs must be an object of strings', JSON_TYPE],
      ['{"inputs":{"name":1}}', 'inputs.name must be a string', JSON_TYPE],
      ['{"inputs":{"name":"Adalbert"}}', 'inputs.name is longer than 5 characters', JSON_TYPE],
    ] as const) {
      assert.deepEqual(await refusal(readDialRequest(post(body, headers), SETTINGS)), {
        code: 'invalid_request',
        message,
      });
    }
  });

  test("a beacon's handle comes from a JSON or text body; anything else is no handle", async () => {
    assert.equal(await readBeaconHandle(post('{"handle":"h.1"}', { 'content-type': 'text/plain' }), 64), 'h.1');
    assert.equal(await readBeaconHandle(post('', {}), 64), undefined);
    assert.equal(await readBeaconHandle(post('{"handle":1}'), 64), undefined);
    assert.equal((await refusal(readBeaconHandle(post('nope'), 64))).code, 'invalid_request');
  });
});
