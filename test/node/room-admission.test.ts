// How the room reads a participant token and says why it refuses one, as a LiveKit server does:
// the `Authorization: Bearer` header (LiveKit's Rust-core SDKs) or, without one, `access_token`
// (livekit-client); each refused upgrade is one log line with its reason, never the token. The
// same with a real SDK: room-rtc-node.test.ts.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { JoinRequest, SignalResponse } from '@livekit/protocol';
import WebSocket from 'ws';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { encodeJoinRequest } from '../../src/emulator/room/protocol/join-request.js';
import { emulatorRest } from '../support/emulator-rest.js';
import { livekitCredentials } from '../support/media-credentials.js';
import { until } from '../support/until.js';

let emulator: Emulator;
const log: string[] = [];

before(async () => {
  emulator = await startEmulator({ logger: (line) => log.push(line), roomTimings: { leaveCloseDelayMs: 20 } });
});
after(() => emulator.close());

async function newDialToken(): Promise<string> {
  const { dialId, sessionId } = await emulatorRest<{ dialId: string; sessionId: string }>(emulator, 'POST', '/dials', {
    callAgentId: 'emu-no-agent',
    browserCall: true,
  });
  const { dialToken } = await emulatorRest<{ dialToken: string }>(emulator, 'POST', `/dials/${dialId}/token`);
  return (await livekitCredentials(emulator.graphqlUrl, dialToken, sessionId)).token;
}

const JOIN = encodeJoinRequest(new JoinRequest({}));

/** Opens the v1 signal connection; resolves with the first response, or the refusal's status and body. */
async function open(
  query: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ joined: true; ws: WebSocket } | { joined: false; status: number; body: string }> {
  const ws = new WebSocket(`${emulator.mediaUrl}/rtc/v1?${new URLSearchParams({ join_request: JOIN, ...query })}`, {
    headers,
  });
  return new Promise((resolve, reject) => {
    ws.once('message', (data: Buffer) => {
      assert.equal(SignalResponse.fromBinary(data).message.case, 'join');
      resolve({ joined: true, ws });
    });
    ws.once('unexpected-response', (_request, response: IncomingMessage) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ joined: false, status: response.statusCode ?? 0, body }));
    });
    ws.once('error', (error) => {
      if (!/Unexpected server response/.test(error.message)) reject(error);
    });
  });
}

async function close(ws: WebSocket): Promise<void> {
  const closed = once(ws, 'close');
  ws.close();
  await closed;
}

describe('the room reads the token as a LiveKit server does', () => {
  test('from the Authorization: Bearer header, with no access_token in the query', async () => {
    const token = await newDialToken();
    const opened = await open({}, { authorization: `Bearer ${token}` });
    assert.equal(opened.joined, true);
    if (opened.joined) await close(opened.ws);
    await until(
      () => log.some((line) => /joined \S+ on \/rtc\/v1 \(token in the Authorization header\)/.test(line)),
      10_000,
      'the join logged (from the room process)',
    );
  });

  test('the header wins over access_token; validate reads it too', async () => {
    const token = await newDialToken();
    const refused = await open({ access_token: token }, { authorization: 'Bearer not-a-token' });
    assert.deepEqual(refused, { joined: false, status: 401, body: 'invalid token' });
    const validate = await fetch(`${emulator.mediaUrl.replace(/^ws:/, 'http:')}/rtc/v1/validate`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(validate.status, 200);
  });

  test('an Authorization header that is not Bearer is refused 401', async () => {
    const token = await newDialToken();
    const refused = await open({ access_token: token }, { authorization: `Basic ${token}` });
    assert.deepEqual(refused, { joined: false, status: 401, body: 'invalid authorization header' });
  });

  test('each refused upgrade is logged with its reason and where the token was, never the token', async () => {
    const token = await newDialToken();
    log.length = 0;
    await open({ access_token: `${token.slice(0, -6)}AAAAAA` });
    await open({}, { authorization: `Bearer ${token.slice(0, -6)}BBBBBB` });
    await open({});
    // The room runs in its own process: its log lines come over a pipe, after the answers.
    const refusals = () => log.filter((line) => line.startsWith('media room: refused'));
    await until(() => refusals().length >= 3, 10_000, 'three refusals logged');
    assert.deepEqual(refusals(), [
      'media room: refused the /rtc/v1 upgrade: 401 invalid token (token in access_token)',
      'media room: refused the /rtc/v1 upgrade: 401 invalid token (token in the Authorization header)',
      'media room: refused the /rtc/v1 upgrade: 401 invalid token (no token)',
    ]);
    const [header = '', payload = ''] = token.split('.');
    for (const line of log) assert.equal(line.includes(header) || line.includes(payload), false, line);
  });
});
