// The typed client's dial methods against the emulator, and its failure modes: every HTTP error
// status as a typed ServiceError, timeouts, aborts, unreachable services, bodies that are not
// the documented shape, and a walker that will not loop on a repeated cursor.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Emulator } from '../../src/emulator/index.js';
import { VoiceAgentApi } from '../../src/server/api/client.js';
import { paginate } from '../../src/server/api/paginate.js';
import { ServiceError } from '../../src/server/service-client.js';
import { API_KEY, collect, rejectsWith, startApi } from './api-client-support.js';

/** A client whose fetch answers every request with this status and body. */
function fakeService(status: number, body: unknown, seen: string[] = []): VoiceAgentApi {
  const fetchImpl: typeof fetch = async (input) => {
    seen.push(String(input));
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', 'retry-after': '7' },
    });
  };
  return new VoiceAgentApi({ baseUrl: 'http://127.0.0.1:9/api/', apiKey: API_KEY, fetch: fetchImpl });
}

describe('VoiceAgentApi: dials and failures', () => {
  let emu: Emulator;
  let api: VoiceAgentApi;
  let stall: Server;
  let stallUrl: string;
  before(async () => {
    ({ emu, api } = await startApi());
    // Accepts requests and never answers.
    stall = createServer(() => undefined);
    await new Promise<void>((resolve) => stall.listen(0, '127.0.0.1', resolve));
    stallUrl = `http://127.0.0.1:${(stall.address() as AddressInfo).port}`;
  });
  after(async () => {
    stall.closeAllConnections();
    await new Promise((resolve) => stall.close(resolve));
    await emu.close();
  });

  test('the four dial operations: create (with an idempotency key), token, get, hangup', async () => {
    const created = await api.createDial(
      { callAgentId: 'emu-demo', browserCall: true, callAgentInput: { name: 'Ada' }, timeoutMinutes: 2 },
      { idempotencyKey: 'dial-once-1' },
    );
    assert.equal(typeof created.sessionId, 'string');
    const repeat = await api.createDial(
      { callAgentId: 'emu-demo', browserCall: true, callAgentInput: { name: 'Ada' }, timeoutMinutes: 2 },
      { idempotencyKey: 'dial-once-1' },
    );
    assert.equal(repeat.dialId, created.dialId);
    await rejectsWith(
      api.createDial({ callAgentId: 'emu-quick', browserCall: true }, { idempotencyKey: 'dial-once-1' }),
      'conflict',
      409,
    );
    const token = await api.getDialToken(created.dialId);
    assert.deepEqual(Object.keys(token), ['dialToken'], 'the service answers the dial token only');
    const dial = await api.getDial(created.dialId);
    assert.equal(dial.status, 'ringing');
    assert.deepEqual(dial.inputs, { name: 'Ada' });
    assert.deepEqual(await api.hangupDial(created.dialId), { success: true });
    const ended = await api.getDial(created.dialId);
    assert.deepEqual([ended.status, ended.systemResultType], ['canceled', 'CANCELLED']);
    await rejectsWith(api.getDial('no-such-dial'), 'not_found', 404);
    await rejectsWith(
      api.createDial({ callAgentId: 'emu-demo', browserCall: 'yes' as unknown as boolean }),
      'bad_request',
      400,
    );
    await rejectsWith(api.createDial({ callAgentId: 'emu-demo' }), 'unprocessable', 422);
  });

  test('a wrong API key is unauthorized (401) on every resource; the key is in no message', async () => {
    const wrong = new VoiceAgentApi({ baseUrl: emu.apiUrl, apiKey: 'not-the-key' });
    await rejectsWith(wrong.listAgents(), 'unauthorized', 401);
    await rejectsWith(wrong.listVoices(), 'unauthorized', 401);
    await rejectsWith(wrong.listPhoneNumberPools(), 'unauthorized', 401);
    await rejectsWith(wrong.createEvalConfig({ name: 'x' }), 'unauthorized', 401);
    await rejectsWith(wrong.getDial('x'), 'unauthorized', 401);
  });

  test('error messages name the operation without ids; the service body is the cause, not the message', async () => {
    const error = await rejectsWith(api.getAgent('a-secret-looking-id'), 'not_found', 404);
    assert.equal(error.message, 'the service answered GET /agents/:id with HTTP 404');
    assert.deepEqual(Object.keys((error.cause as { body: { error: object } }).body.error).sort(), ['code', 'message']);
    const search = await rejectsWith(api.searchPhoneNumbers({ prefix: 'x' }), 'unprocessable', 422);
    assert.equal(search.message, 'the service answered POST /phone_numbers/search with HTTP 422');
  });

  test('statuses map to codes: 429 with Retry-After, 5xx server_error', async () => {
    const limited = await rejectsWith(fakeService(429, { error: 'slow down' }).listModels(), 'rate_limited', 429);
    assert.equal(limited.retryAfterSeconds, 7);
    await rejectsWith(fakeService(503, 'unavailable').listModels(), 'server_error', 503);
    await rejectsWith(fakeService(403, {}).listModels(), 'unauthorized', 403);
  });

  test('2xx bodies that are not the documented shape are invalid_response', async () => {
    await rejectsWith(fakeService(200, { items: [] }).listAgents(), 'invalid_response', 200);
    await rejectsWith(fakeService(200, { data: [] }).listVoices(), 'invalid_response', 200);
    await rejectsWith(fakeService(200, { data: [] }).listPhoneNumberPools(), 'invalid_response', 200);
    await rejectsWith(fakeService(200, [{ id: 'x' }]).getAgent('x'), 'invalid_response', 200);
    await rejectsWith(fakeService(200, '<html>').getAgent('x'), 'invalid_response', 200);
  });

  test('the base URL keeps its path, and list options become the query (limit, cursor, filters; empty ones left out)', async () => {
    const seen: string[] = [];
    const client = fakeService(200, { voices: [], cursor: null }, seen);
    await client.listVoices({ name: 'es peak', voiceType: '', limit: 3, cursor: 'abc' });
    assert.equal(seen[0], 'http://127.0.0.1:9/api/voices?name=es+peak&limit=3&cursor=abc');
  });

  test('a service that never answers times out; an aborted call is aborted; an unreachable one is a network_error', async () => {
    const slow = new VoiceAgentApi({ baseUrl: stallUrl, apiKey: API_KEY, timeoutMs: 150 });
    const started = Date.now();
    await rejectsWith(slow.listAgents(), 'timeout', 0);
    assert.ok(Date.now() - started < 2000);
    const controller = new AbortController();
    const pending = slow.getAgent('emu-demo', { signal: controller.signal });
    controller.abort();
    await rejectsWith(pending, 'aborted', 0);
    await rejectsWith(api.listAgents({}, { signal: AbortSignal.abort() }), 'aborted', 0);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await rejectsWith(
      new VoiceAgentApi({ baseUrl: `http://127.0.0.1:${port}`, apiKey: API_KEY }).listModels(),
      'network_error',
      0,
    );
  });

  test('the walker refuses a repeated cursor, stops on an aborted signal, and passes filters on every page', async () => {
    const looping = fakeService(200, { data: [{ id: 'a' }], cursor: 'same' });
    await assert.rejects(
      collect(paginate((o, c) => looping.listAgents(o, c))),
      (error: unknown) => error instanceof ServiceError && error.code === 'invalid_response',
    );
    const controller = new AbortController();
    const seen: string[] = [];
    const walk = async () => {
      for await (const agent of paginate((o, c) => api.listAgents(o, c), { limit: 1, signal: controller.signal })) {
        seen.push(agent.id);
        if (seen.length === 2) controller.abort();
      }
    };
    await assert.rejects(walk(), (error: unknown) => error instanceof ServiceError && error.code === 'aborted');
    assert.deepEqual(seen, ['emu-demo', 'emu-quick']);
    const espeak = await collect(paginate((o, c) => api.listVoices(o, c), { limit: 1 }, { name: 'espeak' }));
    assert.ok(espeak.length >= 3 && espeak.every((voice) => voice.name.toLowerCase().includes('espeak')));
  });
});
