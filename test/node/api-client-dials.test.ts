// The typed client's dial methods against the emulator, and its failure modes: every HTTP error
// status as a typed ServiceError, timeouts, aborts, unreachable services, bodies that are not
// the documented shape, and a walker that will not loop on a repeated cursor.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Emulator } from '../../src/emulator/index.js';
import { VoiceAgentApi } from '../../src/api/client.js';
import { paginate } from '../../src/api/paginate.js';
import { ServiceError } from '../../src/api/service-error.js';
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
    const created = await api.dials.create(
      { callAgentId: 'emu-demo', browserCall: true, callAgentInput: { name: 'Ada' }, timeoutMinutes: 2 },
      { idempotencyKey: 'dial-once-1' },
    );
    assert.equal(typeof created.sessionId, 'string');
    const repeat = await api.dials.create(
      { callAgentId: 'emu-demo', browserCall: true, callAgentInput: { name: 'Ada' }, timeoutMinutes: 2 },
      { idempotencyKey: 'dial-once-1' },
    );
    assert.equal(repeat.dialId, created.dialId);
    await rejectsWith(
      api.dials.create({ callAgentId: 'emu-quick', browserCall: true }, { idempotencyKey: 'dial-once-1' }),
      'conflict',
      409,
    );
    const token = await api.dials.token(created.dialId);
    assert.deepEqual(Object.keys(token), ['dialToken'], 'the service answers the dial token only');
    const dial = await api.dials.get(created.dialId);
    assert.equal(dial.status, 'ringing');
    assert.deepEqual(dial.inputs, { name: 'Ada' });
    assert.deepEqual(await api.dials.hangup(created.dialId), { success: true });
    const ended = await api.dials.get(created.dialId);
    assert.deepEqual([ended.status, ended.systemResultType], ['canceled', 'CANCELLED']);
    await rejectsWith(api.dials.get('no-such-dial'), 'not_found', 404);
    await rejectsWith(
      api.dials.create({ callAgentId: 'emu-demo', browserCall: 'yes' as unknown as boolean }),
      'bad_request',
      400,
    );
    await rejectsWith(api.dials.create({ callAgentId: 'emu-demo' }), 'unprocessable', 422);
  });

  test("browserDialToken: the dial token buys the session's media credentials over GraphQL, once", async () => {
    const created = await api.dials.create({ callAgentId: 'emu-demo', browserCall: true });
    const { dialToken } = await api.dials.token(created.dialId);
    const media = await api.dials.browserDialToken(dialToken, created.sessionId);
    assert.equal(media.telephonyProvider, 'livekit');
    assert.ok(media.token.length > 20, 'a LiveKit token');
    assert.equal(media.url, emu.mediaUrl);
    const refused = await rejectsWith(
      api.dials.browserDialToken('not-a-dial-token', created.sessionId),
      'graphql_error',
      200,
    );
    assert.ok(refused.serviceMessages.length > 0, 'the service says why, for the log');
    await api.dials.hangup(created.dialId);
  });

  test('a wrong API key is unauthorized (401) on every resource; the key is in no message', async () => {
    const wrong = new VoiceAgentApi({ baseUrl: emu.apiUrl, apiKey: 'not-the-key' });
    await rejectsWith(wrong.agents.list(), 'unauthorized', 401);
    await rejectsWith(wrong.voices.list(), 'unauthorized', 401);
    await rejectsWith(wrong.phoneNumberPools.list(), 'unauthorized', 401);
    await rejectsWith(wrong.evals.createConfig({ name: 'x' }), 'unauthorized', 401);
    await rejectsWith(wrong.dials.get('x'), 'unauthorized', 401);
  });

  test('error messages name the operation without ids; the service body is the cause, not the message', async () => {
    const error = await rejectsWith(api.agents.get('a-secret-looking-id'), 'not_found', 404);
    assert.equal(error.message, 'the service answered GET /agents/:id with HTTP 404');
    assert.deepEqual(Object.keys((error.cause as { body: { error: object } }).body.error).sort(), ['code', 'message']);
    const search = await rejectsWith(api.phoneNumbers.search({ prefix: 'x' }), 'unprocessable', 422);
    assert.equal(search.message, 'the service answered POST /phone_numbers/search with HTTP 422');
  });

  test('statuses map to codes: 429 with Retry-After, 5xx server_error', async () => {
    const limited = await rejectsWith(fakeService(429, { error: 'slow down' }).models.list(), 'rate_limited', 429);
    assert.equal(limited.retryAfterSeconds, 7);
    await rejectsWith(fakeService(503, 'unavailable').models.list(), 'server_error', 503);
    await rejectsWith(fakeService(403, {}).models.list(), 'unauthorized', 403);
  });

  test('2xx bodies that are not the documented shape are invalid_response', async () => {
    await rejectsWith(fakeService(200, { items: [] }).agents.list(), 'invalid_response', 200);
    await rejectsWith(fakeService(200, { data: [] }).voices.list(), 'invalid_response', 200);
    await rejectsWith(fakeService(200, { data: [] }).phoneNumberPools.list(), 'invalid_response', 200);
    await rejectsWith(fakeService(200, [{ id: 'x' }]).agents.get('x'), 'invalid_response', 200);
    await rejectsWith(fakeService(200, '<html>').agents.get('x'), 'invalid_response', 200);
  });

  test('the base URL keeps its path, and list options become the query (limit, cursor, filters; empty ones left out)', async () => {
    const seen: string[] = [];
    const client = fakeService(200, { voices: [], cursor: null }, seen);
    await client.voices.list({ name: 'es peak', voiceType: '', limit: 3, cursor: 'abc' });
    assert.equal(seen[0], 'http://127.0.0.1:9/api/voices?name=es+peak&limit=3&cursor=abc');
  });

  test('a service that never answers times out; an aborted call is aborted; an unreachable one is a network_error', async () => {
    const slow = new VoiceAgentApi({ baseUrl: stallUrl, apiKey: API_KEY, timeoutMs: 150 });
    const started = Date.now();
    await rejectsWith(slow.agents.list(), 'timeout', 0);
    assert.ok(Date.now() - started < 2000);
    const controller = new AbortController();
    const pending = slow.agents.get('emu-demo', { signal: controller.signal });
    controller.abort();
    await rejectsWith(pending, 'aborted', 0);
    await rejectsWith(api.agents.list({}, { signal: AbortSignal.abort() }), 'aborted', 0);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await rejectsWith(
      new VoiceAgentApi({ baseUrl: `http://127.0.0.1:${port}`, apiKey: API_KEY }).models.list(),
      'network_error',
      0,
    );
  });

  test('the walker refuses a repeated cursor, stops on an aborted signal, and passes filters on every page', async () => {
    const looping = fakeService(200, { data: [{ id: 'a' }], cursor: 'same' });
    await assert.rejects(
      collect(paginate((o, c) => looping.agents.list(o, c))),
      (error: unknown) => error instanceof ServiceError && error.code === 'invalid_response',
    );
    const controller = new AbortController();
    const seen: string[] = [];
    const walk = async () => {
      for await (const agent of paginate((o, c) => api.agents.list(o, c), { limit: 1, signal: controller.signal })) {
        seen.push(agent.id);
        if (seen.length === 2) controller.abort();
      }
    };
    await assert.rejects(walk(), (error: unknown) => error instanceof ServiceError && error.code === 'aborted');
    assert.deepEqual(seen, ['emu-demo', 'emu-quick']);
    const espeak = await collect(paginate((o, c) => api.voices.list(o, c), { limit: 1 }, { name: 'espeak' }));
    assert.ok(espeak.length >= 3 && espeak.every((voice) => voice.name.toLowerCase().includes('espeak')));
  });
});
