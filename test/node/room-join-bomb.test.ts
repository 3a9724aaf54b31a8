// Issue 30, 3: a gzip-bombed `join_request` (12 KiB in the URL, 9 MiB of protobuf unknown fields
// once inflated), twenty at once with a valid participant token, must not take the media room
// down: its restart count stays the same and a call already in the room carries on.
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import {
  JoinRequest,
  Ping,
  SignalRequest,
  SignalResponse,
  WrappedJoinRequest,
  WrappedJoinRequest_Compression,
} from '@livekit/protocol';
import WebSocket from 'ws';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { decodeJoinRequest, encodeJoinRequest } from '../../src/emulator/room/protocol/join-request.js';
import { emulatorRest } from '../support/emulator-rest.js';
import { livekitCredentials } from '../support/media-credentials.js';

let emulator: Emulator;

before(async () => {
  // The media room in its own supervised process, as by default: a crash there is counted.
  emulator = await startEmulator({ logger: false, roomTimings: { leaveCloseDelayMs: 20 } });
});
after(() => emulator.close());

const api = <T>(method: string, path: string, body?: unknown) => emulatorRest<T>(emulator, method, path, body);

/** An agent-less browser dial and the participant token for its room. */
async function newDial(): Promise<{ dialId: string; token: string }> {
  const { dialId, sessionId, dialToken } = await api<{ dialId: string; sessionId: string; dialToken: string }>(
    'POST',
    '/dials',
    { callAgentId: 'emu-no-agent', browserCall: true },
  );
  const { token } = await livekitCredentials(emulator.graphqlUrl, dialToken, sessionId);
  return { dialId, token };
}

/** 9 MiB of one unknown varint field (number 1000, value 0), repeated: gzip makes it ~9 KiB. */
function bomb(): string {
  const field = Buffer.from([0xc0, 0x3e, 0x00]); // tag (1000 << 3 | 0) as a varint, then 0
  const inflated = Buffer.alloc(9 * 1024 * 1024 - ((9 * 1024 * 1024) % field.length));
  for (let offset = 0; offset < inflated.length; offset += field.length) field.copy(inflated, offset);
  const wrapped = new WrappedJoinRequest({
    joinRequest: gzipSync(inflated, { level: 9 }),
    compression: WrappedJoinRequest_Compression.GZIP,
  });
  return Buffer.from(wrapped.toBinary()).toString('base64url');
}

/** The upgrade's HTTP status (101 when it was accepted). */
function upgradeStatus(url: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    ws.on('open', () => {
      ws.terminate();
      resolve(101);
    });
    ws.on('unexpected-response', (_request, response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    ws.on('error', () => resolve(0));
  });
}

test('the decoder refuses an inflated join request over its limit and keeps no unknown fields', () => {
  assert.throws(() => decodeJoinRequest(bomb()), /join_request/);
  const join = new JoinRequest({});
  // A small request with an unknown field: decoded, the unknown field dropped.
  const withUnknown = Buffer.concat([Buffer.from(join.toBinary()), Buffer.from([0xc0, 0x3e, 0x01])]);
  const wrapped = new WrappedJoinRequest({
    joinRequest: gzipSync(withUnknown),
    compression: WrappedJoinRequest_Compression.GZIP,
  });
  const decoded = decodeJoinRequest(Buffer.from(wrapped.toBinary()).toString('base64url'));
  assert.equal(decoded.getType().runtime.bin.listUnknownFields(decoded).length, 0);
  assert.ok(decodeJoinRequest(encodeJoinRequest(new JoinRequest({ reconnect: true }))).reconnect);
});

test('twenty bombed joins leave the room up and a live call in it', { timeout: 60_000 }, async (t) => {
  const live = await newDial();
  const query = new URLSearchParams({ access_token: live.token, join_request: encodeJoinRequest(new JoinRequest({})) });
  const ws = new WebSocket(`${emulator.mediaUrl}/rtc/v1?${query}`);
  const responses: SignalResponse[] = [];
  let wake: (() => void) | undefined;
  ws.on('message', (data: Buffer) => {
    responses.push(SignalResponse.fromBinary(data));
    wake?.();
  });
  const next = async (kind: string) => {
    for (;;) {
      const found = responses.findIndex((response) => response.message.case === kind);
      if (found >= 0) return responses.splice(found, 1)[0];
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  try {
    await next('join');
    // The room tells the REST half of the join over IPC: the record follows a moment later.
    const deadline = Date.now() + 5000;
    while ((await api<{ status: string }>('GET', `/dials/${live.dialId}`)).status !== 'in-progress') {
      assert.ok(Date.now() < deadline, 'the live call never reached in-progress');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const restarts = emulator.health().media.restarts;

    const attacker = await newDial();
    const param = bomb();
    t.diagnostic(`join_request: ${(param.length / 1024).toFixed(1)} KiB in the URL, 9 MiB inflated`);
    const url = `${emulator.mediaUrl}/rtc/v1?${new URLSearchParams({ access_token: attacker.token, join_request: param })}`;
    const started = performance.now();
    const statuses = await Promise.all(Array.from({ length: 20 }, () => upgradeStatus(url)));
    t.diagnostic(
      `20 bombed joins answered in ${(performance.now() - started).toFixed(0)} ms: ${[...new Set(statuses)].join(', ')}`,
    );
    assert.deepEqual([...new Set(statuses)], [400], 'each bombed join is refused as malformed');

    assert.equal(emulator.health().media.restarts, restarts, 'the room did not restart');
    assert.equal(emulator.health().media.state, 'up');
    ws.send(
      new SignalRequest({ message: { case: 'pingReq', value: new Ping({ timestamp: 42n, rtt: 0n }) } }).toBinary(),
    );
    const pong = await next('pongResp');
    assert.equal(
      pong?.message.case === 'pongResp' && pong.message.value.lastPingTimestamp,
      42n,
      'the live call still answers',
    );
    assert.equal(ws.readyState, WebSocket.OPEN);
    assert.equal((await api<{ status: string }>('GET', `/dials/${live.dialId}`)).status, 'in-progress');
  } finally {
    ws.terminate();
  }
});
