// The room's HTTP and signalling surface through the real emulator (REST half + dial store +
// token verification), with a plain WebSocket standing in for livekit-client's signal channel.
// Agent-less dials (emu-no-agent) keep these tests free of audio; media is tested in Chromium.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  JoinRequest,
  SignalRequest,
  SignalResponse,
  AddTrackRequest,
  Ping,
  LeaveRequest,
  TrackType,
  TrackSource,
  SignalTarget,
} from '@livekit/protocol';
import WebSocket from 'ws';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { startMediaServer } from '../../src/emulator/room/server.js';
import { encodeJoinRequest } from '../../src/emulator/room/protocol/join-request.js';
import { DisconnectReason } from '../../src/emulator/room/protocol/responses.js';
import { createMediaKeys, signParticipantToken, verifyParticipantToken } from '../../src/emulator/media-token.js';
import type { DialControl } from '../../src/emulator/seam.js';
import { emulatorRest } from '../support/emulator-rest.js';
import { livekitCredentials } from '../support/media-credentials.js';

/** The room's departure timeout here: a caller whose socket dropped without a close frame keeps its place this long. */
const DEPARTURE_MS = 1500;
let emulator: Emulator;
let httpUrl: string;

before(async () => {
  // rejoinGraceMs: how long a call a media room crash dropped waits for its caller (the last test;
  // counted from the crash, so it holds a slow restart and two rejoins on a loaded machine).
  emulator = await startEmulator({
    logger: false,
    roomTimings: { leaveCloseDelayMs: 20, rejoinGraceMs: 4000, departureTimeoutMs: DEPARTURE_MS },
  });
  httpUrl = emulator.mediaUrl.replace(/^ws:/, 'http:');
});
after(() => emulator.close());

const api = <T>(method: string, path: string, body?: unknown) => emulatorRest<T>(emulator, method, path, body);

/** A dial and its LiveKit token, from browserDialToken (the REST dial token does not open the room). */
async function newDial(callAgentId = 'emu-no-agent'): Promise<{ dialId: string; token: string; dialToken: string }> {
  const { dialId, sessionId } = await api<{ dialId: string; sessionId: string }>('POST', '/dials', {
    callAgentId,
    browserCall: true,
  });
  const { dialToken } = await api<{ dialToken: string }>('POST', `/dials/${dialId}/token`);
  const { token } = await livekitCredentials(emulator.graphqlUrl, dialToken, sessionId);
  return { dialId, token, dialToken };
}

function dialRecord(dialId: string) {
  return api<{ status: string; systemResultType: string | null; startedAt: string | null }>('GET', `/dials/${dialId}`);
}

type SignalPath = 'v0' | 'v1';

/** The upgrade URL livekit-client opens: v1 carries the join as `join_request`, v0 as plain query parameters. */
function signalUrl(base: string, token: string, join: JoinRequest, path: SignalPath): string {
  if (path === 'v1') {
    return `${base}/rtc/v1?${new URLSearchParams({ access_token: token, join_request: encodeJoinRequest(join) })}`;
  }
  const query = new URLSearchParams({ access_token: token, auto_subscribe: '1', sdk: 'js', protocol: '16' });
  if (join.reconnect) query.set('reconnect', '1');
  if (join.participantSid) query.set('sid', join.participantSid);
  return `${base}/rtc?${query}`;
}

/** A signal connection as livekit-client opens it, with its responses collected in order. */
class Signal {
  readonly ws: WebSocket;
  readonly responses: SignalResponse[] = [];
  readonly closed: Promise<void>;
  #waiters: Array<() => void> = [];

  constructor(token: string, join: JoinRequest = new JoinRequest({}), path: SignalPath = 'v1') {
    this.ws = new WebSocket(signalUrl(emulator.mediaUrl, token, join, path));
    this.ws.on('message', (data: Buffer) => {
      this.responses.push(SignalResponse.fromBinary(data));
      for (const wake of this.#waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => this.ws.once('close', () => resolve()));
  }

  send(message: SignalRequest['message']): void {
    this.ws.send(new SignalRequest({ message }).toBinary());
  }

  /** The next response of this kind (waits for it). */
  async next<C extends NonNullable<SignalResponse['message']['case']>>(kind: C, timeoutMs = 5000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.responses.findIndex((response) => response.message.case === kind);
      if (index >= 0) {
        const [found] = this.responses.splice(index, 1);
        if (!found) throw new Error(`the ${kind} response went missing`);
        return (found.message as { value: unknown }).value as Extract<SignalResponse['message'], { case: C }>['value'];
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${kind} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}

/** Opens an upgrade and reports the HTTP status when it is refused (or 101 when accepted). */
function upgradeStatus(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    ws.on('open', () => {
      ws.terminate();
      resolve({ status: 101, body: '' });
    });
    ws.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    ws.on('error', () => {});
  });
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('HTTP routes', () => {
  test('HEAD and GET / answer 200 (livekit-client prepareConnection)', async () => {
    assert.equal((await fetch(`${httpUrl}/`, { method: 'HEAD' })).status, 200);
    assert.equal((await fetch(`${httpUrl}/`)).status, 200);
  });

  test('the v0 /rtc path: validate and the upgrade answer as on v1 (200 and 101, 401, 404 for an ended dial); other paths 404', async () => {
    const { dialId, token, dialToken } = await newDial();
    const upgrade = (with_: string) => upgradeStatus(`${emulator.mediaUrl}/rtc?access_token=${with_}&auto_subscribe=1`);
    assert.equal((await fetch(`${httpUrl}/rtc/validate?access_token=${token}`)).status, 200);
    assert.equal((await fetch(`${httpUrl}/rtc/validate?access_token=${dialToken}`)).status, 401);
    assert.equal((await upgrade(dialToken)).status, 401);
    assert.equal((await upgrade(token)).status, 101);
    // That socket dropped without a close frame, which is not a leave: end the dial here.
    await api('POST', `/dials/${dialId}/hangup`);
    await eventually(async () => ['completed', 'canceled'].includes((await dialRecord(dialId)).status));
    const validate = await fetch(`${httpUrl}/rtc/validate?access_token=${token}`);
    assert.equal(validate.status, 404);
    assert.match(await validate.text(), /requested room does not exist/);
    assert.equal((await upgrade(token)).status, 404);
    assert.equal((await fetch(`${httpUrl}/rtc?access_token=${token}`)).status, 404, 'not a plain HTTP route');
    assert.equal((await upgradeStatus(`${emulator.mediaUrl}/rtc/v2?access_token=${token}`)).status, 404);
  });

  test('a bad token is refused with 401 on the upgrade and on validate, without echoing it', async () => {
    const { token } = await newDial();
    const forged = `${token.slice(0, -4)}AAAA`;
    const refused = await upgradeStatus(
      `${emulator.mediaUrl}/rtc/v1?access_token=${forged}&join_request=${encodeJoinRequest(new JoinRequest({}))}`,
    );
    assert.equal(refused.status, 401);
    const validate = await fetch(`${httpUrl}/rtc/v1/validate?access_token=${forged}`);
    assert.equal(validate.status, 401);
    assert.ok(!(await validate.text()).includes(forged));
  });

  test("the REST dial token does not open the room (401); browserDialToken's LiveKit token does", async () => {
    const { token, dialToken } = await newDial();
    const join = `&join_request=${encodeJoinRequest(new JoinRequest({}))}`;
    assert.equal((await fetch(`${httpUrl}/rtc/v1/validate?access_token=${dialToken}`)).status, 401);
    assert.equal((await upgradeStatus(`${emulator.mediaUrl}/rtc/v1?access_token=${dialToken}${join}`)).status, 401);
    assert.equal((await fetch(`${httpUrl}/rtc/v1/validate?access_token=${token}`)).status, 200);
    assert.equal((await upgradeStatus(`${emulator.mediaUrl}/rtc/v1?access_token=${token}${join}`)).status, 101);
  });

  test('an expired token is refused with 401', async () => {
    const keys = createMediaKeys();
    const control: DialControl = {
      sessionForRoom: () => ({
        dialId: 'd',
        roomName: 'r',
        scenario: 'emu-no-agent',
        status: 'ringing',
        maxDurationSeconds: 60,
        aiPaused: false,
      }),
      joined: () => {},
      addTranscript: () => {},
      liveTranscript: () => {},
      sessionStarted: () => new Promise(() => {}),
      setAiResult: () => {},
      end: () => {},
      onEnded: () => () => {},
      onAiPaused: () => () => {},
      onTransferred: () => () => {},
    };
    const media = await startMediaServer({
      host: '127.0.0.1',
      port: 0,
      control,
      verifyToken: (token) => verifyParticipantToken(keys, token),
    });
    try {
      const expired = await signParticipantToken(keys, {
        identity: 'caller',
        name: 'Caller',
        roomName: 'r',
        ttlSeconds: -60,
      });
      const valid = await signParticipantToken(keys, {
        identity: 'caller',
        name: 'Caller',
        roomName: 'r',
        ttlSeconds: 60,
      });
      const http = media.url.replace(/^ws:/, 'http:');
      assert.equal((await fetch(`${http}/rtc/v1/validate?access_token=${expired}`)).status, 401);
      assert.equal((await upgradeStatus(`${media.url}/rtc/v1?access_token=${expired}&join_request=x`)).status, 401);
      assert.equal((await fetch(`${http}/rtc/v1/validate?access_token=${valid}`)).status, 200);
    } finally {
      await media.close();
    }
  });

  test('a valid token for a live dial validates 200; a missing join_request is a 400', async () => {
    const { token } = await newDial();
    assert.equal((await fetch(`${httpUrl}/rtc/v1/validate?access_token=${token}`)).status, 200);
    assert.equal((await upgradeStatus(`${emulator.mediaUrl}/rtc/v1?access_token=${token}`)).status, 400);
  });

  test('the room of an ended dial does not exist any more (404, which livekit-client reads as NotAllowed)', async () => {
    const { dialId, token } = await newDial();
    await api('POST', `/dials/${dialId}/hangup`);
    const validate = await fetch(`${httpUrl}/rtc/v1/validate?access_token=${token}`);
    assert.equal(validate.status, 404);
    assert.match(await validate.text(), /requested room does not exist/);
    const join = `&join_request=${encodeJoinRequest(new JoinRequest({}))}`;
    assert.equal((await upgradeStatus(`${emulator.mediaUrl}/rtc/v1?access_token=${token}${join}`)).status, 404);
  });
});

for (const path of ['v1', 'v0'] as const) {
  describe(`signalling on ${path}`, () => {
    test('a join is answered with a JoinResponse and the dial is in progress', async () => {
      const { dialId, token } = await newDial();
      const signal = new Signal(token, undefined, path);
      const join = await signal.next('join');
      assert.ok(join.serverVersion);
      assert.equal(join.otherParticipants.length, 0, 'emu-no-agent: nobody else');
      assert.equal(join.subscriberPrimary, path === 'v0', 'v0: the subscriber connection is the primary one');
      if (path === 'v1') assert.equal(signal.responses.length, 0, 'JoinResponse comes first');
      else {
        // v0: the room offers the subscriber connection (its data channels) right after the join.
        const offer = await signal.next('offer');
        assert.equal(offer.type, 'offer');
        assert.equal(offer.id, 1);
        assert.match(offer.sdp, /m=application .* webrtc-datachannel/);
        assert.deepEqual(offer.midToTrackId, {}, 'emu-no-agent: no voice to offer');
      }
      await eventually(async () => (await dialRecord(dialId)).status === 'in-progress');
      assert.ok((await dialRecord(dialId)).startedAt);

      signal.send({ case: 'pingReq', value: new Ping({ timestamp: 42n, rtt: 0n }) });
      assert.equal((await signal.next('pongResp')).lastPingTimestamp, 42n);
      signal.send({ case: 'ping', value: 7n });
      assert.equal(await signal.next('pong'), 7n);

      signal.send({
        case: 'addTrack',
        value: new AddTrackRequest({
          cid: 'mic-cid',
          type: TrackType.AUDIO,
          source: TrackSource.MICROPHONE,
          name: 'microphone',
        }),
      });
      const published = await signal.next('trackPublished');
      assert.equal(published.cid, 'mic-cid');
      assert.match(published.track?.sid ?? '', /^TR_/);

      signal.send({ case: 'leave', value: new LeaveRequest({}) });
      await signal.closed;
      await eventually(async () => (await dialRecord(dialId)).status === 'completed');
      assert.equal((await dialRecord(dialId)).systemResultType, 'USER_HANGUP');
    });

    test('a rejoin with the same identity replaces the first connection (DUPLICATE_IDENTITY), as on a LiveKit server', async () => {
      const { dialId, token } = await newDial();
      const first = new Signal(token, undefined, path);
      await first.next('join');
      const second = new Signal(token, undefined, path);
      assert.equal((await first.next('leave')).reason, DisconnectReason.DUPLICATE_IDENTITY, 'the older one is told');
      await first.closed;
      await second.next('join');
      assert.equal(second.ws.readyState, WebSocket.OPEN, 'the newcomer stays');
      assert.equal((await dialRecord(dialId)).status, 'in-progress', 'the dial goes on');
      second.ws.close();
      await second.closed;
      await eventually(async () => (await dialRecord(dialId)).status === 'completed');
    });

    test('a resume (reconnect=true) is answered with a LeaveRequest', async () => {
      const { token } = await newDial();
      const resume = new Signal(token, new JoinRequest({ reconnect: true, participantSid: 'PA_old' }), path);
      const leave = await resume.next('leave');
      assert.equal(leave.canReconnect, false);
      assert.equal(
        resume.responses.some((response) => response.message.case === 'join'),
        false,
      );
      await resume.closed;
    });

    test('a REST hangup mid-call ends the room with a LeaveRequest (ROOM_DELETED)', async () => {
      const { dialId, token } = await newDial();
      const signal = new Signal(token, undefined, path);
      await signal.next('join');
      await eventually(async () => (await dialRecord(dialId)).status === 'in-progress');
      await api('POST', `/dials/${dialId}/hangup`);
      assert.equal((await signal.next('leave')).reason, DisconnectReason.ROOM_DELETED);
      await signal.closed;
      const record = await dialRecord(dialId);
      assert.deepEqual([record.status, record.systemResultType], ['completed', 'USER_HANGUP']);
    });

    test('a signal connection dropped without a close frame (1006) keeps the dial for the departure timeout, then ends it USER_HANGUP', async () => {
      const { dialId, token } = await newDial();
      const signal = new Signal(token, undefined, path);
      await signal.next('join');
      const dropped = Date.now();
      signal.ws.terminate();
      await eventually(async () => (await dialRecord(dialId)).status === 'completed', DEPARTURE_MS + 3000);
      const after = Date.now() - dropped;
      assert.ok(after >= DEPARTURE_MS - 100, `ended ${after} ms after the drop, before the departure timeout`);
      assert.equal((await dialRecord(dialId)).systemResultType, 'USER_HANGUP');
    });
  });
}

test("v0 with an agent: the room's subscriber offer carries the agent's voice (sendonly, mapped to its track) and its candidates name the subscriber connection", async () => {
  const { dialId, token } = await newDial('emu-quick');
  const signal = new Signal(token, undefined, 'v0');
  const join = await signal.next('join');
  const agentTrack = join.otherParticipants[0]?.tracks[0]?.sid;
  assert.match(agentTrack ?? '', /^TR_/);
  const offer = await signal.next('offer');
  const audio = offer.sdp.split(/\r?\n(?=m=)/).find((section) => section.startsWith('m=audio')) ?? '';
  assert.match(audio, /a=sendonly/);
  const mid = /a=mid:(\S+)/.exec(audio)?.[1] ?? '';
  assert.deepEqual(offer.midToTrackId, { [mid]: agentTrack });
  assert.match(audio, new RegExp(`a=msid:${join.otherParticipants[0]?.sid}\\|${agentTrack} `));
  const candidate = await signal.next('trickle');
  assert.equal(candidate.target, SignalTarget.SUBSCRIBER);
  signal.ws.close();
  await eventually(async () => (await dialRecord(dialId)).status === 'completed');
});

describe('the time cap', () => {
  // An agent-less dial: an RTCAudioSource would make libwebrtc crash this test process at exit.
  test('a dial reaching its time cap closes the room with a LeaveRequest and ends TIMEOUT', async () => {
    // One "minute" of time cap lasts 400 ms here.
    const short = await startEmulator({
      logger: false,
      minuteMs: 400,
      roomTimings: { leaveCloseDelayMs: 20, timeUpLineMaxMs: 300 },
    });
    try {
      const headers = { authorization: `Bearer ${short.apiKey}`, 'content-type': 'application/json' };
      const created = await fetch(`${short.apiUrl}/dials`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ callAgentId: 'emu-no-agent', browserCall: true, timeoutMinutes: 1 }),
      });
      const { dialId, sessionId, dialToken } = (await created.json()) as {
        dialId: string;
        sessionId: string;
        dialToken: string;
      };
      const { token } = await livekitCredentials(short.graphqlUrl, dialToken, sessionId);
      const query = new URLSearchParams({ access_token: token, join_request: encodeJoinRequest(new JoinRequest({})) });
      const ws = new WebSocket(`${short.mediaUrl}/rtc/v1?${query}`);
      const responses: SignalResponse[] = [];
      ws.on('message', (data: Buffer) => responses.push(SignalResponse.fromBinary(data)));
      const joinedAt = Date.now();
      await new Promise<void>((resolve) => ws.once('close', () => resolve()));
      const elapsed = Date.now() - joinedAt;
      assert.ok(elapsed >= 350 && elapsed < 1500, `closed after ${elapsed} ms`);
      const cases = responses.map((response) => response.message.case);
      assert.equal(cases[0], 'join');
      const leave = responses.at(-1)?.message;
      assert.equal(leave?.case, 'leave');
      assert.equal(leave?.case === 'leave' && leave.value.reason, DisconnectReason.ROOM_DELETED);
      const record = (await (await fetch(`${short.apiUrl}/dials/${dialId}`, { headers })).json()) as {
        status: string;
        systemResultType: string;
      };
      assert.deepEqual([record.status, record.systemResultType], ['completed', 'TIMEOUT']);
    } finally {
      await short.close();
    }
  });
});

describe('teardown', () => {
  test('a session stops listening for dial ends when it ends, and the dial is ended once', async () => {
    const keys = createMediaKeys();
    const listeners = new Set<unknown>();
    const ends: string[] = [];
    let status: 'ringing' | 'in-progress' | 'completed' = 'ringing';
    const control: DialControl = {
      sessionForRoom: (roomName) =>
        roomName === 'r'
          ? { dialId: 'd', roomName, scenario: 'emu-no-agent', status, maxDurationSeconds: 60, aiPaused: false }
          : undefined,
      joined: () => (status = 'in-progress'),
      addTranscript: () => {},
      liveTranscript: () => {},
      sessionStarted: () => new Promise(() => {}),
      setAiResult: () => {},
      end: (_dialId, end) => {
        ends.push(end.systemResultType);
        status = 'completed';
      },
      onEnded: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      onAiPaused: () => () => {},
      onTransferred: () => () => {},
    };
    const media = await startMediaServer(
      { host: '127.0.0.1', port: 0, control, verifyToken: (token) => verifyParticipantToken(keys, token) },
      { leaveCloseDelayMs: 10 },
    );
    /** The server's own (it forgets a dial's pause state when the dial ends). */
    const serverListeners = listeners.size;
    try {
      const token = await signParticipantToken(keys, {
        identity: 'caller',
        name: 'Caller',
        roomName: 'r',
        ttlSeconds: 60,
      });
      const query = new URLSearchParams({ access_token: token, join_request: encodeJoinRequest(new JoinRequest({})) });
      const ws = new WebSocket(`${media.url}/rtc/v1?${query}`);
      await new Promise<void>((resolve) => ws.once('message', () => resolve()));
      assert.equal(listeners.size, serverListeners + 1);
      ws.send(new SignalRequest({ message: { case: 'leave', value: new LeaveRequest({}) } }).toBinary());
      await new Promise<void>((resolve) => ws.once('close', () => resolve()));
      await eventually(async () => listeners.size === serverListeners);
      assert.deepEqual(ends, ['USER_HANGUP'], 'the leave and the closing socket end the dial once');
    } finally {
      await media.close();
    }
  });
});

// Last in this file: it crashes the shared emulator's media room (which comes back on its port).
describe('a media room crash (issue 18)', () => {
  test('SIGSEGV in the room process mid-call: the calls drop, the API answers throughout, a caller who rejoins carries on, one who does not fails, the next call works', async () => {
    const before = emulator.health();
    assert.equal(before.ok, true);
    assert.equal(before.media.state, 'up');
    assert.notEqual(before.media.pid, process.pid, 'the room runs in a process of its own');
    const healthz = await fetch(`${emulator.apiUrl}/healthz`);
    assert.equal(healthz.status, 200, 'GET /healthz needs no key');
    assert.deepEqual(((await healthz.json()) as { media: { state: string } }).media.state, 'up');

    // Two calls in the room: one caller comes back after the crash, the other does not. A third
    // caller's page went away before the crash (a `persist` page: closed 1001, no leave).
    const back = await newDial();
    const gone = await newDial();
    const away = await newDial();
    const signals = [new Signal(back.token), new Signal(gone.token)];
    const awaySignal = new Signal(away.token);
    for (const signal of [...signals, awaySignal]) await signal.next('join');
    for (const { dialId } of [back, gone, away])
      await eventually(async () => (await dialRecord(dialId)).status === 'in-progress');
    const startedAt = (await dialRecord(back.dialId)).startedAt;
    awaySignal.ws.close(1001);
    await awaySignal.closed;

    assert.ok(before.media.pid !== null, 'the media room process runs');
    process.kill(before.media.pid, 'SIGSEGV');
    for (const signal of signals) await signal.closed;
    for (const signal of signals)
      assert.equal(
        signal.responses.filter((response) => response.message.case === 'leave').length,
        0,
        'a crash sends no LeaveRequest',
      );
    // The REST API never stopped answering.
    assert.equal(
      (await fetch(`${emulator.apiUrl}/agents`, { headers: { authorization: `Bearer ${emulator.apiKey}` } })).status,
      200,
    );

    // Up again after a restart (right after the kill it may not have noticed yet, so count restarts).
    await eventually(
      async () => emulator.health().media.restarts === 1 && emulator.health().media.state === 'up',
      10_000,
    );
    // The dropped caller rejoins (livekit-client's full reconnect: a fresh join, the same token).
    const rejoin = new Signal(back.token);
    await rejoin.next('join');
    assert.equal((await dialRecord(back.dialId)).status, 'in-progress', 'the dial goes on');
    assert.equal((await dialRecord(back.dialId)).startedAt, startedAt, 'the same call, not a new one');
    // The page that was away comes back (its next page) to the restarted room.
    const awayBack = new Signal(away.token);
    await awayBack.next('join');
    assert.equal((await dialRecord(away.dialId)).status, 'in-progress');

    const after = emulator.health().media;
    assert.equal(after.state, 'up');
    assert.equal(after.restarts, 1);
    assert.equal(after.lastExit?.signal, 'SIGSEGV');
    assert.ok(typeof after.lastExit?.restartMs === 'number' && after.lastExit.restartMs > 0);
    assert.notEqual(after.pid, before.media.pid);

    // The caller who does not come back: its dial fails once the rejoin grace (4 s here) is over,
    // and its room is gone from then on.
    await eventually(async () => (await dialRecord(gone.dialId)).status === 'failed', 8000);
    assert.equal((await dialRecord(gone.dialId)).systemResultType, 'FAILED');
    const query = new URLSearchParams({
      access_token: gone.token,
      join_request: encodeJoinRequest(new JoinRequest({})),
    });
    assert.equal((await upgradeStatus(`${emulator.mediaUrl}/rtc/v1?${query}`)).status, 404);
    assert.equal((await dialRecord(back.dialId)).status, 'in-progress', 'the rejoined call did not fail with it');

    // The rejoined calls end as any call does.
    for (const signal of [rejoin, awayBack]) {
      signal.send({ case: 'leave', value: new LeaveRequest({}) });
      await signal.closed;
    }
    for (const { dialId } of [back, away])
      await eventually(async () => (await dialRecord(dialId)).systemResultType === 'USER_HANGUP');

    // The next call, on the same mediaUrl, works from join to hang-up.
    const next = await newDial();
    const nextSignal = new Signal(next.token);
    await nextSignal.next('join');
    await eventually(async () => (await dialRecord(next.dialId)).status === 'in-progress');
    nextSignal.send({ case: 'leave', value: new LeaveRequest({}) });
    await nextSignal.closed;
    await eventually(async () => (await dialRecord(next.dialId)).systemResultType === 'USER_HANGUP');
  });
});
