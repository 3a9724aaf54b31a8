// What one signal socket may ask of the room (issue 41): a frame larger than any LiveKit client
// message is refused (closed with 1009) before the room reads it, and a socket that piles up
// requests faster than the room answers them is closed (1008); either way the other calls in the
// room keep their signal round trip. Through the real emulator (the room in its child process).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { JoinRequest, Ping, SessionDescription, SignalRequest, SignalResponse } from '@livekit/protocol';
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

const MiB = 1024 * 1024;

/** `promise`, or a rejection naming `what` once `ms` have passed (so a missing close fails instead of hanging). */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** A live agent-less dial's LiveKit token (what every visitor holds: it is in the create answer). */
async function participantToken(): Promise<string> {
  const api = <T>(method: string, path: string, body?: unknown) => emulatorRest<T>(emulator, method, path, body);
  const { dialId, sessionId } = await api<{ dialId: string; sessionId: string }>('POST', '/dials', {
    callAgentId: 'emu-no-agent',
    browserCall: true,
  });
  const { dialToken } = await api<{ dialToken: string }>('POST', `/dials/${dialId}/token`);
  return (await livekitCredentials(emulator.graphqlUrl, dialToken, sessionId)).token;
}

/** A joined v1 signal connection, counting its pongs, with its close code. */
class Caller {
  readonly ws: WebSocket;
  readonly closed: Promise<{ code: number; at: number }>;
  pongs = 0;
  #onPong: Array<() => void> = [];

  private constructor(ws: WebSocket) {
    this.ws = ws;
    this.closed = new Promise((resolve) =>
      ws.once('close', (code: number) => resolve({ code, at: performance.now() })),
    );
    ws.on('error', () => {});
    ws.on('message', (data: Buffer) => {
      if (SignalResponse.fromBinary(data).message.case !== 'pongResp') return;
      this.pongs += 1;
      for (const wake of this.#onPong.splice(0)) wake();
    });
  }

  static async join(): Promise<Caller> {
    const token = await participantToken();
    const query = new URLSearchParams({ access_token: token, join_request: encodeJoinRequest(new JoinRequest({})) });
    const ws = new WebSocket(`${emulator.mediaUrl}/rtc/v1?${query}`, { headers: { authorization: `Bearer ${token}` } });
    const caller = new Caller(ws);
    await new Promise<void>((resolve, reject) => {
      ws.on('message', (data: Buffer) => {
        if (SignalResponse.fromBinary(data).message.case === 'join') resolve();
      });
      ws.once('close', (code) => reject(new Error(`closed (${code}) before the JoinResponse`)));
    });
    return caller;
  }

  send(message: SignalRequest['message']): void {
    this.ws.send(new SignalRequest({ message }).toBinary());
  }

  /** One signal round trip (pingReq → pongResp), in ms. */
  async roundTrip(): Promise<number> {
    const start = performance.now();
    const answered = new Promise<void>((resolve) => this.#onPong.push(resolve));
    this.send({ case: 'pingReq', value: new Ping({ timestamp: BigInt(Date.now()), rtt: 0n }) });
    await answered;
    return performance.now() - start;
  }

  async leave(): Promise<void> {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close();
    await this.closed;
  }
}

describe('one signal socket cannot stall the room', () => {
  test('an 8 MiB frame is refused (closed with 1009), and another call in the room is answered meanwhile and afterwards', async () => {
    const [victim, attacker] = await Promise.all([Caller.join(), Caller.join()]);
    try {
      // A well-formed offer whose SDP is 8 MiB: no LiveKit client message comes near it.
      const frame = new SignalRequest({
        message: { case: 'offer', value: new SessionDescription({ type: 'offer', sdp: 'a'.repeat(8 * MiB), id: 1 }) },
      }).toBinary();
      attacker.ws.send(frame);
      // How quick is the bench's business (the times are in docs/emulator.md); here: answered at all.
      await within(30_000, "the other call's round trip", victim.roundTrip());
      const { code } = await within(30_000, "the attacker's close", attacker.closed);
      assert.equal(code, 1009, 'closed as too big');
      await within(30_000, "the other call's round trip afterwards", victim.roundTrip());
      assert.equal(victim.ws.readyState, WebSocket.OPEN, 'the other call is still connected');
    } finally {
      await Promise.all([victim.leave(), attacker.leave()]);
    }
  });

  test('a socket that queues 20,000 requests is closed (1008) instead of having them all queued and answered', async () => {
    const [victim, attacker] = await Promise.all([Caller.join(), Caller.join()]);
    try {
      const ping = new SignalRequest({ message: { case: 'pingReq', value: new Ping({ timestamp: 1n, rtt: 0n }) } });
      const bytes = ping.toBinary();
      for (let i = 0; i < 20_000; i++) attacker.ws.send(bytes);
      await within(30_000, "the other call's round trip", victim.roundTrip());
      const { code } = await within(30_000, "the attacker's close", attacker.closed);
      assert.equal(code, 1008, 'closed as a policy violation');
      assert.ok(attacker.pongs < 20_000, `${attacker.pongs} of 20,000 pings answered`);
      assert.equal(victim.ws.readyState, WebSocket.OPEN, 'the other call is still connected');
    } finally {
      await Promise.all([victim.leave(), attacker.leave()]);
    }
  });

  test('a caller that pings as fast as it gets answers is never cut off', async () => {
    const caller = await Caller.join();
    try {
      for (let i = 0; i < 500; i++) await within(30_000, `ping ${i + 1}`, caller.roundTrip());
      assert.equal(caller.pongs, 500);
      assert.equal(caller.ws.readyState, WebSocket.OPEN);
    } finally {
      await caller.leave();
    }
  });
});
