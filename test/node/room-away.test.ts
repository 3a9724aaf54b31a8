// A caller whose page went away (issue 37): its browser closes the room's signal socket with 1001
// ("going away"), without a LeaveRequest. The emulator keeps the dial, and a join with a fresh
// token for the same identity (the next page's rejoin) takes it up; any other close is the caller
// leaving (USER_HANGUP). A plain WebSocket stands in for livekit-client; no agent, no audio.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, test } from 'node:test';
import { JoinRequest, SignalResponse } from '@livekit/protocol';
import WebSocket from 'ws';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { encodeJoinRequest } from '../../src/emulator/room/protocol/join-request.js';
import { emulatorRest } from '../support/emulator-rest.js';
import { livekitCredentials } from '../support/media-credentials.js';

let emulator: Emulator;
before(async () => {
  emulator = await startEmulator({ logger: false, roomTimings: { leaveCloseDelayMs: 20 } });
});
after(() => emulator.close());

const api = <T>(method: string, path: string, body?: unknown) => emulatorRest<T>(emulator, method, path, body);
const status = async (dialId: string) =>
  api<{ status: string; systemResultType: string | null }>('GET', `/dials/${dialId}`);

/** A dial and a fresh LiveKit token for it (each call to browserDialToken gives one, as a rejoin asks). */
async function newDial(): Promise<{ dialId: string; token: () => Promise<string> }> {
  const { dialId, sessionId } = await api<{ dialId: string; sessionId: string }>('POST', '/dials', {
    callAgentId: 'emu-no-agent',
    browserCall: true,
  });
  const token = async () => {
    const { dialToken } = await api<{ dialToken: string }>('POST', `/dials/${dialId}/token`);
    return (await livekitCredentials(emulator.graphqlUrl, dialToken, sessionId)).token;
  };
  return { dialId, token };
}

/** Joins the room (v1) and resolves once the JoinResponse came. */
async function join(token: string): Promise<WebSocket> {
  const query = new URLSearchParams({ access_token: token, join_request: encodeJoinRequest(new JoinRequest({})) });
  const ws = new WebSocket(`${emulator.mediaUrl}/rtc/v1?${query}`);
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (data: Buffer) => {
      if (SignalResponse.fromBinary(data).message.case === 'join') resolve();
    });
    ws.once('close', () => reject(new Error('closed before the join was answered')));
    ws.once('error', reject);
  });
  return ws;
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('not within the time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A dial whose caller joined (the dial in progress) and then went away: its socket closed with 1001, no leave. */
async function awayCaller(): Promise<{ dialId: string; token: () => Promise<string> }> {
  const dial = await newDial();
  const first = await join(await dial.token());
  await eventually(async () => (await status(dial.dialId)).status === 'in-progress');
  const closed = once(first, 'close');
  first.close(1001);
  await closed;
  return dial;
}

test('a page going away (1001, no leave) keeps the dial; the next page rejoins it; then a plain close ends it USER_HANGUP', async () => {
  const { dialId, token } = await awayCaller();
  // The close handshake is done: the room has heard it, and the dial waits for the caller.
  assert.equal((await status(dialId)).status, 'in-progress');

  const second = await join(await token());
  assert.equal(second.readyState, WebSocket.OPEN, 'the rejoin is taken');
  assert.equal((await status(dialId)).status, 'in-progress');

  second.close(1000);
  await eventually(async () => (await status(dialId)).status === 'completed');
  assert.equal((await status(dialId)).systemResultType, 'USER_HANGUP');
});

test('a caller away whose dial is hung up meanwhile (the companion grace) finds the room gone', async () => {
  const { dialId, token } = await awayCaller();
  const fresh = await token();
  await api('POST', `/dials/${dialId}/hangup`);
  assert.equal((await status(dialId)).status, 'completed');
  await assert.rejects(join(fresh), /404/);
});
