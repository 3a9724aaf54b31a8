// A caller whose page went away (issue 37): its browser closes the room's signal socket with 1001
// ("going away"), without a LeaveRequest. The emulator keeps the dial, and a join with a fresh
// token for the same identity (the next page's rejoin) takes it up. A socket dropped without a
// close frame (1006) is kept for a rejoin until the departure timeout; any other close is the
// caller leaving (USER_HANGUP). A plain WebSocket stands in for livekit-client; no agent, no audio.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';
import { JoinRequest, SignalResponse } from '@livekit/protocol';
import WebSocket from 'ws';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { Peer } from '../../src/emulator/room/media/peer.js';
import { encodeJoinRequest } from '../../src/emulator/room/protocol/join-request.js';
import { emulatorRest } from '../support/emulator-rest.js';
import { livekitCredentials } from '../support/media-credentials.js';

let emulator: Emulator;
before(async () => {
  emulator = await startEmulator({ logger: false, roomTimings: { leaveCloseDelayMs: 20 } });
});
after(() => emulator.close());

const api = <T>(method: string, path: string, body?: unknown) => emulatorRest<T>(emulator, method, path, body);
const status = async (dialId: string, on = emulator) =>
  emulatorRest<{ status: string; systemResultType: string | null }>(on, 'GET', `/dials/${dialId}`);

/** A dial and a fresh LiveKit token for it (each call to browserDialToken gives one, as a rejoin asks). */
async function newDial(on = emulator): Promise<{ dialId: string; token: () => Promise<string> }> {
  const { dialId, sessionId } = await emulatorRest<{ dialId: string; sessionId: string }>(on, 'POST', '/dials', {
    callAgentId: 'emu-no-agent',
    browserCall: true,
  });
  const token = async () => {
    const { dialToken } = await emulatorRest<{ dialToken: string }>(on, 'POST', `/dials/${dialId}/token`);
    return (await livekitCredentials(on.graphqlUrl, dialToken, sessionId)).token;
  };
  return { dialId, token };
}

/** Joins the room (v1) and resolves once the JoinResponse came. */
const join = (token: string): Promise<WebSocket> => joinRoom(emulator, token);

async function joinRoom(on: Emulator, token: string): Promise<WebSocket> {
  const query = new URLSearchParams({ access_token: token, join_request: encodeJoinRequest(new JoinRequest({})) });
  const ws = new WebSocket(`${on.mediaUrl}/rtc/v1?${query}`);
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

  await rejoinThenLeave(dialId, token);
});

/** The next page's join with a fresh token is taken (the dial goes on), and its plain close ends the dial USER_HANGUP. */
async function rejoinThenLeave(dialId: string, token: () => Promise<string>): Promise<void> {
  const second = await join(await token());
  assert.equal(second.readyState, WebSocket.OPEN, 'the rejoin is taken');
  assert.equal((await status(dialId)).status, 'in-progress');
  second.close(1000);
  await eventually(async () => (await status(dialId)).status === 'completed');
  assert.equal((await status(dialId)).systemResultType, 'USER_HANGUP');
}

test('a caller whose socket dropped without a close frame (1006, a page torn down mid-rejoin) is taken back by its next page within the departure timeout', async () => {
  const { dialId, token } = await newDial();
  const first = await join(await token());
  await eventually(async () => (await status(dialId)).status === 'in-progress');
  const closed = once(first, 'close');
  first.terminate();
  await closed;
  await rejoinThenLeave(dialId, token);
});

test('a caller away whose dial is hung up meanwhile (the companion grace) finds the room gone', async () => {
  const { dialId, token } = await awayCaller();
  const fresh = await token();
  await api('POST', `/dials/${dialId}/hangup`);
  assert.equal((await status(dialId)).status, 'completed');
  await assert.rejects(join(fresh), /404/);
});

describe('a caller whose peer connection the room hears close before its signal socket', () => {
  // A page going away closes both at once, and the room may hear the peer connection first. No
  // client here can make the room's libwebrtc see its peer close on cue (a @roamhq/wrtc close was
  // not noticed within 5 s), so the room's own Peer is real but its `connectionLost` is called by
  // the test, as libwebrtc would call it; the room runs in this process for that and for its log.
  let room: Emulator;
  const lines: string[] = [];
  const lost: (() => void)[] = [];
  const create = Peer.create.bind(Peer);
  before(async () => {
    Peer.create = (options, events) => {
      lost.push(() => events.connectionLost());
      return create(options, events);
    };
    room = await startEmulator({
      isolateMedia: false,
      logger: (line) => lines.push(line),
      roomTimings: { leaveCloseDelayMs: 20, peerLostGraceMs: 1000 },
    });
  });
  after(async () => {
    Peer.create = create;
    await room.close();
  });

  const dialStatus = (dialId: string) => status(dialId, room);

  /** A caller in the room (the dial in progress) whose peer connection the room has just heard close. */
  async function peerLost(): Promise<{ dialId: string; ws: WebSocket }> {
    const { dialId, token } = await newDial(room);
    const ws = await joinRoom(room, await token());
    await eventually(async () => (await dialStatus(dialId)).status === 'in-progress');
    const heard = lost.at(-1);
    assert.ok(heard, 'the room made a peer connection for the caller');
    heard();
    return { dialId, ws };
  }

  test('its socket closing 1001 a moment later is a page going away: the dial waits for the next page', async () => {
    const { dialId, ws } = await peerLost();
    // The socket's close is a moment behind: the scenario itself, not a wait for something.
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(ws.readyState, WebSocket.OPEN, 'the room still holds the socket, waiting for its close');
    const closed = once(ws, 'close');
    ws.close(1001);
    await closed;
    await eventually(async () => lines.some((line) => line.includes(`caller-${dialId.slice(0, 8)} away`)));
    assert.equal((await dialStatus(dialId)).status, 'in-progress');
    await emulatorRest(room, 'POST', `/dials/${dialId}/hangup`);
  });

  test('its socket left open is a caller gone: USER_HANGUP once the wait is over, not before', async () => {
    const { dialId, ws } = await peerLost();
    assert.equal((await dialStatus(dialId)).status, 'in-progress', 'the room waits for the socket first');
    await eventually(async () => (await dialStatus(dialId)).status === 'completed');
    assert.equal((await dialStatus(dialId)).systemResultType, 'USER_HANGUP');
    assert.ok(
      lines.some((line) => line.includes('its peer connection closed and its signal socket stayed open')),
      lines.join('\n'),
    );
    ws.close();
  });
});
