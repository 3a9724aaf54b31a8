// The fault matrix, media and call half: faults while `connecting`, `in-call`, `reconnecting` and
// `ending`, and the visitor's own races (double start, start + hangup, hangup or pagehide while
// the dial is on its way, two calls on one page). Real Chromium, the real CallSession, the real
// companion (through test/support/fault-proxy.mjs where a fault is injected) and the emulator's
// loopback room. A reconnect is started with LiveKit's own room events, as in call-e2e.
import { expect } from '@open-wc/testing';
import { DisconnectReason, Room, RoomEvent, Track } from 'livekit-client';
import type { CallSession } from '../../src/call/call-session.js';
import type { CallState, EndReason } from '../../src/call/types.js';
import {
  emulatorDial,
  expectCleanEnd,
  faultLog,
  front,
  newSession,
  record,
  until,
  useHarness,
} from '../support/fault-matrix.js';
import type { Harness, Seen } from '../support/fault-matrix.js';
import { pair, present } from '../support/present.js';
import { revocableMicrophone, type RevocableMicrophone } from '../support/revocable-microphone.js';

const COMPANION = '/api/voice-call';
/**
 * The request timeout of the pages whose first create the fault proxy holds 4 s (`holdonce`,
 * `lateonce`: FRONT_ONCE_HOLD_MS): the first attempt times out, and the retry has as long.
 */
const ONCE_TIMEOUT_MS = 2500;
// emu-blip's lines (src/emulator/agent/scenarios.ts LINES).
const BLIP_GREETING = 'Hello, this line will drop for a moment.';
const BLIP_BACK = 'Sorry, the line dropped. I am back.';

let rooms: Room[] = [];
/** Why each captured room disconnected, as livekit-client reports it (the server's LeaveRequest reason, or CLIENT_INITIATED). */
let disconnects: string[] = [];
const register = Room.prototype.registerTextStreamHandler;

function captureRooms(): void {
  rooms = [];
  disconnects = [];
  Room.prototype.registerTextStreamHandler = function (
    this: Room,
    ...args: Parameters<Room['registerTextStreamHandler']>
  ) {
    rooms.push(this);
    this.once(RoomEvent.Disconnected, (reason?: DisconnectReason) =>
      disconnects.push(reason === undefined ? 'UNKNOWN' : DisconnectReason[reason]),
    );
    return register.apply(this, args);
  };
}

function reconnecting(session: CallSession): void {
  const room = present(rooms.at(-1), "the call's room");
  room.emit(RoomEvent.SignalReconnecting);
  room.emit(RoomEvent.Reconnecting);
  expect(session.state).to.equal('reconnecting');
}

/**
 * The next microphone the session asks for is one the test can take away (revocable-microphone.ts);
 * `revoke()` then ends it as an unplugged device would.
 */
function revocableMicrophoneFor(harness: Harness): { revoke(): Promise<void> } {
  const asked = harness.getUserMedia;
  let microphone: RevocableMicrophone | null = null;
  navigator.mediaDevices.getUserMedia = async (constraints?: MediaStreamConstraints) => {
    const stream = await asked(constraints);
    microphone = await revocableMicrophone(present(stream.getAudioTracks()[0], 'a microphone track'));
    harness.micTracks.push(microphone.track);
    return new MediaStream([microphone.track]);
  };
  return {
    revoke: async () => {
      if (!microphone) throw new Error('the session never asked for the microphone');
      await microphone.revoke();
    },
  };
}

/**
 * From now on the browser has no microphone to give: a call whose microphone ends then has none to
 * move to, and ends (one that has one moves to it: element-controls.test.ts).
 */
function noOtherMicrophone(): void {
  navigator.mediaDevices.getUserMedia = () =>
    Promise.reject(new DOMException('Requested device not found', 'NotFoundError'));
}

/** ICE can never complete: every peer connection may only use relay candidates, and there is no relay. */
function blockIce(): () => void {
  const Real = window.RTCPeerConnection;
  const setConfiguration = Real.prototype.setConfiguration;
  class RelayOnly extends Real {
    constructor(config?: RTCConfiguration) {
      super({ ...config, iceServers: [], iceTransportPolicy: 'relay' });
    }
    override setConfiguration(config?: RTCConfiguration): void {
      setConfiguration.call(this, { ...config, iceServers: [], iceTransportPolicy: 'relay' });
    }
  }
  window.RTCPeerConnection = RelayOnly;
  return () => {
    window.RTCPeerConnection = Real;
  };
}

/**
 * The service's word that the dial is over (graphql-ws's ConnectSession update with a terminal
 * status) reaches the page before the failed join rejects: the order Firefox sometimes shows, where
 * livekit-client closes its signal socket (the service then records the caller gone, USER_HANGUP)
 * and only afterwards rejects `connect()`. Every socket opened from now on is watched; the join's
 * rejection is held until such an update was handled by the page's own listeners.
 */
function serviceEndBeforeJoinFails(): () => void {
  const RealSocket = window.WebSocket;
  const register = Room.prototype.registerTextStreamHandler;
  let heard: () => void = () => {};
  const serviceSaidEnded = new Promise<void>((resolve) => (heard = resolve));
  class WatchedSocket extends RealSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      // Added first, so it runs before the page's own listener; `setTimeout` lets that one run too.
      this.addEventListener('message', (event: MessageEvent) => {
        if (
          typeof event.data === 'string' &&
          event.data.includes('connectSession') &&
          event.data.includes('"completed"')
        ) {
          setTimeout(heard);
        }
      });
    }
  }
  window.WebSocket = WatchedSocket;
  // livekit-client's `connect` is an instance property: wrapped on the room the session builds,
  // which registers its transcript handler before it connects.
  Room.prototype.registerTextStreamHandler = function (
    this: Room,
    ...args: Parameters<Room['registerTextStreamHandler']>
  ) {
    const connect = this.connect;
    this.connect = (...connectArgs) =>
      connect(...connectArgs).catch(async (error: unknown) => {
        await serviceSaidEnded;
        throw error;
      });
    return register.apply(this, args);
  };
  return () => {
    window.WebSocket = RealSocket;
    Room.prototype.registerTextStreamHandler = register;
  };
}

function atState(session: CallSession, state: CallState, act: () => void): void {
  session.addEventListener('call-state', (event) => {
    if (event.detail.state === state) act();
  });
}

interface Cell {
  fault: string;
  state: CallState;
  endpoint?: string;
  agent?: string;
  options?: Parameters<typeof newSession>[3];
  /** Runs the call and injects the fault; resolves once it is injected. */
  run: (session: CallSession, harness: Harness, seen: Seen) => Promise<void>;
  reason: EndReason;
  code: string | null;
  dials?: number;
  /** What else the visitor would notice, checked after the shared assertion. */
  check?: (session: CallSession, seen: Seen) => void | Promise<void>;
}

/** The result carries the service's own record of how the dial ended; the room went away as `leftWith` says. */
const serviceSays = (status: string, systemResultType: string, leftWith: string) => async (session: CallSession) => {
  expect(disconnects, 'how the room ended for the caller').to.deep.equal([leftWith]);
  expect(session.result?.status).to.equal(status);
  expect(session.result?.systemResultType).to.equal(systemResultType);
  const dial = await emulatorDial(present(session.dialId, "the call's dial id"));
  expect([dial.status, dial.systemResultType]).to.deep.equal([status, systemResultType]);
};

const inCall = async (session: CallSession) => {
  await session.start();
  expect(session.state).to.equal('in-call');
};

/** An `ending` cell: the call reaches in-call, the visitor hangs up, and the call still ends as a user-hangup. */
const endingCell = (fault: string, endpoint: string, more: Partial<Cell> = {}): Cell => ({
  fault,
  state: 'ending',
  endpoint,
  run: async (s) => {
    await inCall(s);
    await s.hangup();
  },
  reason: 'user-hangup',
  code: null,
  dials: 1,
  ...more,
});

const CELLS: Cell[] = [
  // connecting
  {
    fault: 'token refused by the media server',
    state: 'connecting',
    endpoint: front('token-badtoken'),
    run: (s) => s.start(),
    reason: 'setup-failed',
    code: 'media_failed',
    dials: 1,
  },
  {
    fault: 'media server unreachable',
    state: 'connecting',
    endpoint: front('token-nomedia'),
    run: (s) => s.start(),
    reason: 'setup-failed',
    code: 'media_failed',
    dials: 1,
  },
  {
    fault: 'media server never answers',
    state: 'connecting',
    endpoint: front('token-blackhole'),
    options: { mediaConnectTimeoutMs: 3000 },
    run: (s) => s.start(),
    reason: 'setup-failed',
    code: 'media_failed',
    dials: 1,
  },
  {
    fault: 'ICE never completes',
    state: 'connecting',
    options: { mediaConnectTimeoutMs: 3000 },
    run: async (s) => {
      const restore = blockIce();
      try {
        await s.start();
      } finally {
        restore();
      }
    },
    reason: 'setup-failed',
    code: 'media_failed',
    dials: 1,
  },
  {
    fault: 'ICE never completes and the service hears the caller leave before the join fails',
    state: 'connecting',
    options: { mediaConnectTimeoutMs: 3000 },
    run: async (s) => {
      const restoreIce = blockIce();
      const restoreOrder = serviceEndBeforeJoinFails();
      try {
        await s.start();
      } finally {
        restoreOrder();
        restoreIce();
      }
    },
    reason: 'setup-failed',
    code: 'media_failed',
    dials: 1,
    // The join named the end (livekit-client's own words), not the service's USER_HANGUP of our leave.
    check: async (session) => {
      expect(session.result?.error?.message).to.match(/could not establish pc connection/);
      const dial = await emulatorDial(present(session.dialId, "the call's dial id"));
      expect([dial.status, dial.systemResultType], 'the service saw the caller leave').to.deep.equal([
        'completed',
        'USER_HANGUP',
      ]);
    },
  },
  {
    fault: 'visitor hangs up',
    state: 'connecting',
    endpoint: front('token-blackhole'),
    run: async (s) => {
      atState(s, 'connecting', () => void s.hangup());
      await s.start();
    },
    reason: 'user-hangup',
    code: null,
    dials: 1,
  },
  {
    fault: 'no agent, page hidden while waiting',
    state: 'connecting',
    agent: 'emu-no-agent',
    run: async (s) => {
      atState(s, 'connecting', () =>
        setTimeout(() => window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false })), 300),
      );
      await s.start();
    },
    reason: 'page-unload',
    code: null,
    dials: 1,
  },
  // starting, with the dial on its way (the companion holds POST /dials for a moment)
  {
    fault: 'visitor hangs up while the dial is being created',
    state: 'starting',
    endpoint: front('dials-hold'),
    run: async (s, _h, seen) => {
      const started = s.start();
      await until(() => seen.states.includes('starting'), 5000, 'starting');
      await new Promise((resolve) => setTimeout(resolve, 300));
      await s.hangup();
      await started;
    },
    reason: 'user-hangup',
    code: null,
    dials: 1,
  },
  {
    fault: 'page hidden while the dial is being created',
    state: 'starting',
    endpoint: front('dials-hold'),
    run: async (s) => {
      const started = s.start();
      await new Promise((resolve) => setTimeout(resolve, 300));
      window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
      await started;
    },
    reason: 'page-unload',
    code: null,
    dials: 1,
  },
  {
    fault: 'start() and hangup() concurrently',
    state: 'starting',
    run: async (s) => {
      await Promise.all([s.start(), s.hangup()]);
    },
    reason: 'user-hangup',
    code: null,
  },
  {
    fault: 'element removed while the dial is being created',
    state: 'starting',
    endpoint: front('dials-hold'),
    run: async (s) => {
      const started = s.start();
      await new Promise((resolve) => setTimeout(resolve, 300));
      s.abandon('element-removed');
      await started;
    },
    reason: 'element-removed',
    code: null,
    dials: 1,
  },
  // in-call
  {
    fault: 'microphone revoked (track ended) and no other microphone to move to',
    state: 'in-call',
    run: async (s, h) => {
      const microphone = revocableMicrophoneFor(h);
      await inCall(s);
      noOtherMicrophone();
      await microphone.revoke();
    },
    reason: 'microphone-unavailable',
    code: 'microphone_unavailable',
    dials: 1,
  },
  {
    fault: 'the dial hung up through the service API while media lives (the service says USER_HANGUP)',
    state: 'in-call',
    run: async (s) => {
      await inCall(s);
      const answer = await fetch(`/__emu/dials/${s.dialId}/hangup`, { method: 'POST' });
      expect(answer.status).to.equal(200);
    },
    reason: 'user-hangup',
    code: null,
    dials: 1,
  },
  {
    fault: 'the agent leaves the room without a reason (no LeaveRequest to the caller)',
    state: 'in-call',
    agent: 'emu-agent-leaves',
    run: inCall,
    reason: 'failed',
    code: null,
    dials: 1,
    // No LeaveRequest: the widget leaves the room itself.
    check: serviceSays('failed', 'FAILED', 'CLIENT_INITIATED'),
  },
  {
    fault: 'the media server closes the room (LeaveRequest SERVER_SHUTDOWN) while the dial is in progress',
    state: 'in-call',
    agent: 'emu-server-leave',
    run: inCall,
    reason: 'failed',
    code: null,
    dials: 1,
    check: serviceSays('failed', 'FAILED', 'SERVER_SHUTDOWN'),
  },
  {
    fault: 'the service ends the dial as the agent (LeaveRequest ROOM_DELETED after AGENT_HANGUP)',
    state: 'in-call',
    agent: 'emu-quick',
    run: inCall,
    reason: 'agent-hangup',
    code: null,
    dials: 1,
    check: serviceSays('completed', 'AGENT_HANGUP', 'ROOM_DELETED'),
  },
  // reconnecting
  {
    fault: 'the connection drops without a LeaveRequest and the reconnect fails',
    state: 'reconnecting',
    agent: 'emu-drop',
    run: inCall,
    reason: 'network-lost',
    code: 'network_lost',
    dials: 1,
  },
  {
    fault: 'visitor hangs up',
    state: 'reconnecting',
    run: async (s) => {
      await inCall(s);
      reconnecting(s);
      await s.hangup();
    },
    reason: 'user-hangup',
    code: null,
    dials: 1,
  },
  {
    fault: 'page hidden',
    state: 'reconnecting',
    run: async (s) => {
      await inCall(s);
      reconnecting(s);
      window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
    },
    reason: 'page-unload',
    code: null,
    dials: 1,
  },
  {
    fault: 'microphone revoked and no other microphone to move to',
    state: 'reconnecting',
    run: async (s, h) => {
      const microphone = revocableMicrophoneFor(h);
      await inCall(s);
      reconnecting(s);
      s.setMuted(true);
      noOtherMicrophone();
      await microphone.revoke();
    },
    reason: 'microphone-unavailable',
    code: 'microphone_unavailable',
    dials: 1,
  },
  // ending: in the call, the visitor hangs up and the fault meets the hang-up
  endingCell('companion hangup answers 502', front('hangup-502')),
  endingCell('companion never answers the result read', front('read-hang'), { options: { resultTimeoutMs: 1500 } }),
  endingCell('companion never answers the hangup', front('hangup-hang'), { options: { requestTimeoutMs: 1500 } }),
  endingCell('service answers 500 to the hangup', '/__fault-svc', { agent: 'svc-hangup-500' }),
  {
    fault: 'service hangs on every dial read (transcript polling), then the visitor hangs up',
    state: 'in-call',
    endpoint: '/__fault-svc',
    agent: 'svc-read-hang',
    options: { transcript: 'poll', pollIntervalMs: 200, resultTimeoutMs: 2000 },
    run: async (s) => {
      await inCall(s);
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(s.state, 'reads failing do not end the call').to.equal('in-call');
      await s.hangup();
    },
    reason: 'user-hangup',
    code: null,
    dials: 1,
  },
  {
    fault: 'page hidden',
    state: 'ending',
    run: async (s) => {
      await inCall(s);
      const hungUp = s.hangup();
      window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
      await hungUp;
    },
    reason: 'user-hangup',
    code: null,
    dials: 1,
  },
];

describe('fault matrix: media, call and visitor races', function () {
  this.timeout(45000);
  const harness = useHarness();

  beforeEach(captureRooms);

  afterEach(() => {
    Room.prototype.registerTextStreamHandler = register;
  });

  /** The call gets through the fault: start() reaches in-call, then one clean user-hangup on its one dial. */
  async function getsThrough(session: CallSession, seen: Seen, emulator?: string): Promise<void> {
    await session.start();
    expect(session.state, `${session.result?.reason} ${session.result?.error?.code}`).to.equal('in-call');
    await session.hangup();
    await expectCleanEnd(harness, session, seen, { reason: 'user-hangup', code: null, dials: 1, emulator });
  }

  for (const cell of CELLS) {
    it(`${cell.fault} in ${cell.state}: ${cell.reason}${cell.code ? ` (${cell.code})` : ''}`, async () => {
      const session = newSession(harness, cell.endpoint ?? COMPANION, cell.agent ?? 'emu-demo', cell.options);
      const seen = record(session);
      await cell.run(session, harness, seen);
      const expected = {
        reason: cell.reason,
        code: cell.code,
        ...(cell.dials === undefined ? {} : { dials: cell.dials }),
      };
      await expectCleanEnd(harness, session, seen, expected);
      expect(seen.states, 'passed through the cell state').to.include(cell.state);
      await cell.check?.(session, seen);
    });
  }

  // A reconnect that succeeds: emu-blip drops the signal and media connections once without a
  // LeaveRequest; livekit-client's resume is refused, its full rejoin is taken as the same dial.
  async function blip(muteWhileReconnecting: boolean): Promise<void> {
    const session = newSession(harness, COMPANION, 'emu-blip', { maxReconnectAttempts: 4 });
    const seen = record(session);
    if (muteWhileReconnecting) atState(session, 'reconnecting', () => session.setMuted(true));
    await inCall(session);
    const dialId = session.dialId;
    await until(() => seen.states.includes('reconnecting'), 10000, 'reconnecting');
    await until(() => session.state === 'in-call' || seen.ended.length > 0, 15000, 'back in-call');
    expect(session.state, `${session.result?.reason} ${session.result?.error?.code}`).to.equal('in-call');
    expect(session.dialId, 'the same dial').to.equal(dialId);
    expect((await emulatorDial(present(dialId, "the call's dial id"))).status, 'the dial goes on').to.equal(
      'in-progress',
    );
    // The agent is back and talks: its next line reaches the live transcript.
    await until(
      () => session.transcript.some((entry) => entry.speaker === 'AI' && entry.final && entry.text === BLIP_BACK),
      10000,
      'the agent back',
    );
    expect(seen.connected, 'call-connected once').to.have.length(1);
    if (muteWhileReconnecting) {
      expect(session.muted, 'still muted').to.equal(true);
      expect(
        harness.micTracks.filter((track) => track.readyState === 'live').every((track) => !track.enabled),
        'microphone silent',
      ).to.equal(true);
      const publication = rooms.at(-1)?.localParticipant.getTrackPublication(Track.Source.Microphone);
      expect(publication?.isMuted, 'the room sees the microphone muted').to.equal(true);
    }
    await session.hangup();
    await expectCleanEnd(harness, session, seen, { reason: 'user-hangup', code: null, dials: 1 });
    expect(seen.states.filter((state) => state === 'in-call')).to.have.length(2);
    expect(session.result?.systemResultType).to.equal('USER_HANGUP');
    const spoken = present(session.result, 'the call result')
      .transcript.filter((entry) => entry.speaker === 'AI')
      .map((entry) => entry.text);
    expect(spoken, 'one transcript across the blip').to.include.members([BLIP_GREETING, BLIP_BACK]);
  }

  it('a reconnect that succeeds (emu-blip): reconnecting → in-call, same dial, the agent back, transcript goes on, one user-hangup', async () => {
    await blip(false);
  });

  it('muted during a reconnect that succeeds (emu-blip): still muted after it, then one user-hangup', async () => {
    await blip(true);
  });

  it('double start: one dial, one call, then a clean hangup', async () => {
    const session = newSession(harness, front('dials-hold'), 'emu-demo');
    const seen = record(session);
    const first = session.start();
    const second = session.start();
    await Promise.all([first, second]);
    expect(session.state).to.equal('in-call');
    expect(seen.connected).to.have.length(1);
    await session.hangup();
    await expectCleanEnd(harness, session, seen, { reason: 'user-hangup', code: null, dials: 1 });
  });

  it('service slow to create the dial: the retry with the same Idempotency-Key gets the same dial, and the call goes through', async () => {
    const session = newSession(harness, '/__fault-svc', 'svc-create-slow');
    await getsThrough(session, record(session));
  });

  it('the companion answers the create after the request timeout: the retry (same key) learns the one dial, and the call goes on', async () => {
    // The proxy holds the first attempt 4 s (FRONT_ONCE_HOLD_MS) before forwarding it; the page gives up at 2.5 s.
    const session = newSession(harness, front('dials-holdonce'), 'emu-demo', { requestTimeoutMs: ONCE_TIMEOUT_MS });
    await getsThrough(session, record(session));
    const creates = (await faultLog()).slice(harness.logStart).filter((entry) => entry.path === '/dials');
    expect(creates.length, 'POST /dials attempts').to.equal(2);
    expect(new Set(creates.map((entry) => entry.key)).size, 'one Idempotency-Key').to.equal(1);
  });

  // The service may replay a reused key (the emulator's default) or refuse it with a 409 naming
  // the first dial (`--idempotency strict`); the companion adopts a named dial, so both work.
  for (const mode of ['replay', 'strict'] as const) {
    it(`the create's answer is lost (service ${mode}s a reused key): the retry with the same key gets the one dial, and the call goes on`, async () => {
      // The proxy forwards the first attempt at once and holds its answer 4 s (FRONT_ONCE_HOLD_MS);
      // the page gives up at 2.5 s, and the retry has as long.
      const endpoint = mode === 'strict' ? '/__fault-strict/dials-lateonce' : front('dials-lateonce');
      const session = newSession(harness, endpoint, 'emu-demo', { requestTimeoutMs: ONCE_TIMEOUT_MS });
      await getsThrough(session, record(session), mode === 'strict' ? '/__emu-strict' : '/__emu');
      const creates = (await faultLog()).slice(harness.logStart).filter((entry) => entry.path === '/dials');
      expect(
        creates.map((entry) => entry.status),
        'POST /dials attempts',
      ).to.deep.equal([200, 200]);
      expect(new Set(creates.map((entry) => entry.key)).size, 'one Idempotency-Key').to.equal(1);
      const [first, retry] = pair(creates, 'POST /dials attempts');
      expect(retry.dialId, 'the retry learned the first dial').to.equal(first.dialId);
    });
  }

  it('two calls on one page at once: both connect, each ends once, two dials both terminal', async () => {
    const other = document.createElement('div');
    document.body.append(other);
    const a = newSession(harness, COMPANION, 'emu-demo');
    const b = newSession(harness, COMPANION, 'emu-demo', { audioContainer: other });
    const seenA = record(a);
    const seenB = record(b);
    await Promise.all([a.start(), b.start()]);
    expect([a.state, b.state]).to.deep.equal(['in-call', 'in-call']);
    expect(a.dialId).to.not.equal(b.dialId);
    await a.hangup();
    expect(b.state, 'the other call is untouched').to.equal('in-call');
    await b.hangup();
    for (const seen of [seenA, seenB]) {
      expect(seen.ended.map((r) => r.reason)).to.deep.equal(['user-hangup']);
      expect(seen.ended[0]?.systemResultType).to.equal('USER_HANGUP');
    }
    for (const id of [a.dialId, b.dialId])
      expect((await emulatorDial(present(id, 'a dial id'))).status).to.equal('completed');
    expect(harness.micTracks.filter((t) => t.readyState === 'live')).to.have.length(0);
    other.remove();
  });
});
