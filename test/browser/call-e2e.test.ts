// CallSession end to end: real Chromium (fake microphone), the real companion at /api/voice-call,
// the emulator's REST API and its LiveKit-protocol loopback room with scripted agents.
import { expect } from '@open-wc/testing';
import { sendMouse } from '@web/test-runner-commands';
import { Room, RoomEvent } from 'livekit-client';
import { CallSession } from '../../src/call/call-session.js';
import type { CallSessionEvents } from '../../src/call/events.js';
import type { CallResult, CallSessionOptions, CallState, TranscriptEntry } from '../../src/call/types.js';
import { median } from '../../bench/lib/stats.js';
import { emulatorDial } from '../support/emulator.js';
import { recordSignalPaths } from '../support/signal-paths.js';
import { present } from '../support/present.js';
import { until } from '../support/until.js';

const realGetUserMedia = navigator.mediaDevices.getUserMedia;
let micTracks: MediaStreamTrack[] = [];
let container: HTMLElement;

function newSession(agent: string, options: Partial<CallSessionOptions> = {}): CallSession {
  return new CallSession({
    endpoint: '/api/voice-call',
    agent,
    audioContainer: container,
    requestTimeoutMs: 5000,
    resultTimeoutMs: 5000,
    ...options,
  });
}

/** How the call ended, for an assertion's message: a failure then says why the call ended, not only that it did. */
function endedHow(session: CallSession): string {
  const result = session.result;
  if (!result) return 'the call has not ended';
  return `the call ended: ${result.reason}${result.error ? ` (${result.error.code}: ${result.error.message})` : ''}`;
}

function record(session: CallSession) {
  const states: CallState[] = [];
  const ended: CallResult[] = [];
  const connected: string[] = [];
  const transcript: TranscriptEntry[] = [];
  session.addEventListener('call-state', (event) => states.push(event.detail.state));
  session.addEventListener('call-ended', (event) => ended.push(event.detail));
  session.addEventListener('call-connected', (event) => connected.push(event.detail.dialId));
  session.addEventListener('call-transcript', (event) => transcript.push(event.detail.changed));
  return { states, ended, connected, transcript };
}

function next<K extends keyof CallSessionEvents>(
  session: CallSession,
  type: K,
  timeoutMs = 20000,
): Promise<CallSessionEvents[K]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} within ${timeoutMs} ms`)), timeoutMs);
    session.addEventListener(
      type,
      (event) => {
        clearTimeout(timer);
        resolve(event);
      },
      { once: true },
    );
  });
}

function liveMicTracks(): number {
  return micTracks.filter((track) => track.readyState === 'live').length;
}

describe('CallSession end to end (companion + emulator)', function () {
  this.timeout(60000);

  beforeEach(() => {
    micTracks = [];
    navigator.mediaDevices.getUserMedia = async (constraints?: MediaStreamConstraints) => {
      const stream = await realGetUserMedia.call(navigator.mediaDevices, constraints);
      micTracks.push(...stream.getTracks());
      return stream;
    };
    container = document.createElement('div');
    document.body.append(container);
  });

  afterEach(() => {
    navigator.mediaDevices.getUserMedia = realGetUserMedia;
    expect(container.querySelectorAll('audio').length, 'audio elements left').to.equal(0);
    expect(liveMicTracks(), 'live microphone tracks left').to.equal(0);
    container.remove();
  });

  it('emu-quick: a whole call, agent hangs up with a result', async () => {
    const session = newSession('emu-quick');
    const seen = record(session);
    const ended = next(session, 'call-ended', 30000);
    await session.start();
    expect(session.state, endedHow(session)).to.equal('in-call');
    expect(seen.connected).to.have.length(1);
    expect(seen.connected[0]).to.equal(session.dialId);
    expect(container.querySelectorAll('audio').length).to.equal(1);
    const result = (await ended).detail;
    expect(seen.states, endedHow(session)).to.deep.equal(['starting', 'connecting', 'in-call', 'ending', 'ended']);
    expect(seen.ended).to.have.length(1);
    expect(result).to.include({
      reason: 'agent-hangup',
      systemResultType: 'AGENT_HANGUP',
      status: 'completed',
      dialId: seen.connected[0],
    });
    expect(result.aiResult).to.be.an('object');
    expect(result.durationSeconds).to.be.a('number').and.greaterThan(0);
    expect(result.aiDurationSeconds).to.be.a('number');
    expect(result.startedAt).to.be.a('string');
    expect(result.endedAt).to.be.a('string');
    // Live transcript: at least one entry seen interim and then final under the same id.
    const interimIds = new Set(seen.transcript.filter((e) => !e.final).map((e) => e.id));
    const finals = seen.transcript.filter((e) => e.final);
    expect(
      finals.some((e) => interimIds.has(e.id)),
      'an interim entry became final in place',
    ).to.equal(true);
    expect(finals.some((e) => e.speaker === 'AI')).to.equal(true);
    // The fake microphone's tone is a caller turn: transcribed for the visitor's own track.
    expect(
      finals.some((e) => e.speaker === 'HUMAN'),
      JSON.stringify(finals),
    ).to.equal(true);
    // The result's transcript is the service's, without duplicates.
    expect(result.transcript.length).to.be.greaterThan(0);
    expect(new Set(result.transcript.map((e) => e.id)).size).to.equal(result.transcript.length);
    expect(result.transcript.every((e) => e.final)).to.equal(true);
    expect(session.result).to.deep.equal(result);
  });

  it('emu-quick, transcript "poll" plus live: merged without duplicates; the agent speaking indicator follows lk.agent.state', async () => {
    const session = newSession('emu-quick', { liveTranscriptGraceMs: 1, pollIntervalMs: 250 });
    const speaking: boolean[] = [];
    session.addEventListener('agent-speaking', (event) => speaking.push(event.detail.speaking));
    let latest: TranscriptEntry[] = [];
    session.addEventListener('call-transcript', (event) => (latest = event.detail.entries));
    const ended = next(session, 'call-ended', 30000);
    await session.start();
    const result = (await ended).detail;
    expect(result.reason).to.equal('agent-hangup');
    expect(speaking.slice(0, 2)).to.deep.equal([true, false]);
    expect(session.agentSpeaking).to.equal(false);
    const key = (e: TranscriptEntry) =>
      `${e.speaker}|${e.text
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, ' ')
        .trim()}`;
    const finals = latest.filter((e) => e.final);
    expect(finals.length).to.be.greaterThan(1);
    expect(new Set(finals.map(key)).size, JSON.stringify(finals)).to.equal(finals.length);
    expect(new Set(latest.map((e) => e.id)).size).to.equal(latest.length);
    // Every line of the service's transcript is in the result exactly once.
    expect(result.transcript.map(key)).to.deep.equal([...new Set(result.transcript.map(key))]);
  });

  it('transcript "off": no transcript events, the call still ends cleanly with the service result', async () => {
    const session = newSession('emu-quick', { transcript: 'off' });
    const seen = record(session);
    const ended = next(session, 'call-ended', 30000);
    await session.start();
    expect((await ended).detail.reason).to.equal('agent-hangup');
    expect(seen.transcript).to.deep.equal([]);
  });

  it('playback blocked by the browser: audio-blocked, then unlockAudio() from a click plays', async () => {
    const realPlay = HTMLMediaElement.prototype.play;
    let refuse = true;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      return refuse
        ? Promise.reject(new DOMException('play() needs a user gesture', 'NotAllowedError'))
        : realPlay.call(this);
    };
    try {
      const session = newSession('emu-demo');
      const blocked: boolean[] = [];
      session.addEventListener('audio-blocked', (event) => blocked.push(event.detail.blocked));
      await session.start();
      await until(() => session.audioBlocked, 10000, 'audio blocked');
      refuse = false;
      await session.unlockAudio();
      expect(session.audioBlocked).to.equal(false);
      expect(session.audioElement?.paused).to.equal(false);
      await session.hangup();
      expect(blocked).to.deep.equal([true, false]);
    } finally {
      HTMLMediaElement.prototype.play = realPlay;
    }
  });

  it('emu-demo: the visitor hangs up', async () => {
    const session = newSession('emu-demo');
    const seen = record(session);
    await session.start();
    expect(session.state, endedHow(session)).to.equal('in-call');
    const dialId = present(session.dialId, "the call's dial id");
    await session.hangup();
    expect(seen.states, endedHow(session)).to.deep.equal(['starting', 'connecting', 'in-call', 'ending', 'ended']);
    expect(seen.ended).to.have.length(1);
    expect(seen.ended[0]).to.include({ reason: 'user-hangup', systemResultType: 'USER_HANGUP', dialId });
    expect((await emulatorDial(dialId)).systemResultType).to.equal('USER_HANGUP');
  });

  it('one request to the companion before joining: POST /dials answers the media credentials, no token request', async () => {
    const realFetch = window.fetch;
    const companionRequests: string[] = [];
    window.fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input), location.href);
      if (url.pathname.startsWith('/api/voice-call/'))
        companionRequests.push(`${init?.method ?? 'GET'} ${url.pathname}`);
      return realFetch(input, init);
    };
    try {
      const session = newSession('emu-demo');
      await session.start();
      expect(session.state, endedHow(session)).to.equal('in-call');
      expect(companionRequests).to.deep.equal(['POST /api/voice-call/dials']);
      await session.hangup();
    } finally {
      window.fetch = realFetch;
    }
  });

  it('emu-no-agent: gives up after agentTimeoutMs and ends the dial', async () => {
    const session = newSession('emu-no-agent', { agentTimeoutMs: 2000 });
    const seen = record(session);
    const began = performance.now();
    await session.start();
    const waited = performance.now() - began;
    expect(seen.ended).to.have.length(1);
    expect(seen.ended[0]?.reason).to.equal('agent-unavailable');
    expect(seen.connected).to.deep.equal([]);
    expect(waited).to.be.greaterThan(1900).and.lessThan(12000);
    const dial = await emulatorDial(present(seen.ended[0]?.dialId, "the ended call's dial id"));
    expect(['completed', 'canceled', 'failed', 'no-answer']).to.include(dial.status);
  });

  it('emu-busy: the service at capacity ends the call as busy', async () => {
    const session = newSession('emu-busy');
    const seen = record(session);
    await session.start();
    expect(seen.ended).to.have.length(1);
    expect(seen.ended[0]?.reason).to.equal('busy');
    expect(seen.connected).to.deep.equal([]);
  });

  it('emu-drop: reconnecting, then network-lost and the dial hung up', async () => {
    const session = newSession('emu-drop', { maxReconnectAttempts: 2 });
    const seen = record(session);
    const ended = next(session, 'call-ended', 45000);
    await session.start();
    expect(session.state, endedHow(session)).to.equal('in-call');
    const result = (await ended).detail;
    expect(seen.states).to.include('reconnecting');
    expect(seen.states.slice(-2)).to.deep.equal(['ending', 'ended']);
    expect(result.reason).to.equal('network-lost');
    // As the README's recipe table says: the widget hangs up once its reconnect gives up, before
    // the room's 2 s drop grace would end the dial FAILED.
    const dial = await emulatorDial(present(result.dialId, 'the dial id'));
    expect([dial.status, dial.systemResultType]).to.deep.equal(['completed', 'USER_HANGUP']);
  });

  it('network blip: reconnecting, back to in-call, mute still works, then a normal hangup', async () => {
    // The room is real; only the blip is injected, by emitting LiveKit's own events on it.
    const rooms: Room[] = [];
    const register = Room.prototype.registerTextStreamHandler;
    Room.prototype.registerTextStreamHandler = function (
      this: Room,
      ...args: Parameters<Room['registerTextStreamHandler']>
    ) {
      rooms.push(this);
      return register.apply(this, args);
    };
    try {
      const session = newSession('emu-demo');
      const seen = record(session);
      await session.start();
      expect(rooms).to.have.length(1);
      const room = present(rooms[0], "the call's room");
      room.emit(RoomEvent.SignalReconnecting);
      room.emit(RoomEvent.Reconnecting);
      expect(session.state).to.equal('reconnecting');
      session.setMuted(true);
      expect(micTracks[0]?.enabled).to.equal(false);
      room.emit(RoomEvent.Reconnected);
      expect(session.state, endedHow(session)).to.equal('in-call');
      expect(session.muted).to.equal(true);
      await session.hangup();
      session.setMuted(false);
      expect(seen.states, endedHow(session)).to.deep.equal([
        'starting',
        'connecting',
        'in-call',
        'reconnecting',
        'in-call',
        'ending',
        'ended',
      ]);
      expect(seen.ended.map((r) => r.reason)).to.deep.equal(['user-hangup']);
      expect(seen.connected).to.have.length(1);
    } finally {
      Room.prototype.registerTextStreamHandler = register;
    }
  });

  it('companion not there: setup-failed', async () => {
    const session = new CallSession({ endpoint: '/nowhere', agent: 'emu-quick', audioContainer: container });
    const seen = record(session);
    await session.start();
    expect(seen.ended.map((r) => r.reason)).to.deep.equal(['setup-failed']);
    expect(seen.ended[0]?.error?.code).to.be.a('string');
  });

  it('page hidden for good mid-call: page-unload at once, the dial hung up by beacon', async () => {
    const session = newSession('emu-demo');
    const seen = record(session);
    await session.start();
    const dialId = present(session.dialId, "the call's dial id");
    window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
    expect(seen.ended.map((r) => r.reason)).to.deep.equal(['page-unload']);
    expect(session.state).to.equal('ended');
    await until(async () => (await emulatorDial(dialId)).status === 'completed', 10000, 'dial hung up');
    // The listener went with the call: another pagehide changes nothing.
    window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
    expect(seen.ended).to.have.length(1);
  });

  it('element removed mid-call: element-removed at once, the dial hung up', async () => {
    const session = newSession('emu-demo');
    const seen = record(session);
    await session.start();
    const dialId = present(session.dialId, "the call's dial id");
    session.abandon('element-removed');
    expect(seen.ended.map((r) => r.reason)).to.deep.equal(['element-removed']);
    await until(async () => (await emulatorDial(dialId)).status === 'completed', 10000, 'dial hung up');
  });

  it('mute during a call mutes the published microphone; the agent hears silence', async () => {
    const session = newSession('emu-silent-user');
    const seen = record(session);
    await session.start();
    session.setMuted(true);
    expect(micTracks[0]?.enabled).to.equal(false);
    const ended = (await next(session, 'call-ended', 20000)).detail;
    expect(ended.reason).to.equal('silence');
    expect(seen.ended).to.have.length(1);
    session.setMuted(false);
  });

  it('20 start/hangup cycles leave no live tracks and no audio elements', async () => {
    const session = newSession('emu-demo');
    const seen = record(session);
    for (let i = 0; i < 20; i++) {
      await session.start();
      expect(session.state, `cycle ${i}: ${session.result?.reason} ${session.result?.error?.code}`).to.equal('in-call');
      await session.hangup();
      expect(container.querySelectorAll('audio').length).to.equal(0);
      expect(liveMicTracks()).to.equal(0);
    }
    expect(seen.ended).to.have.length(20);
    expect(seen.ended.every((r) => r.reason === 'user-hangup')).to.equal(true);
    expect(micTracks.length).to.equal(20);
  });

  describe('with the media on the v0 signal path (/rtc, two peer connections)', () => {
    // The widget's own Room, as an app that sets `singlePeerConnection: false` would have it: every
    // Room made while these run takes v0. The signal WebSockets the page opens say which path it took.
    before(() => {
      Object.defineProperty(Room.prototype, 'options', {
        configurable: true,
        set(this: Room, options: Room['options']) {
          Object.defineProperty(this, 'options', {
            value: { ...options, singlePeerConnection: false },
            writable: true,
            enumerable: true,
            configurable: true,
          });
        },
      });
    });
    after(() => {
      Reflect.deleteProperty(Room.prototype, 'options');
    });
    const signalPaths = recordSignalPaths();

    it('emu-demo: connects, the agent is heard and transcribed, the visitor hangs up, call-ended', async () => {
      const session = newSession('emu-demo');
      const seen = record(session);
      const ended = next(session, 'call-ended', 30000);
      await session.start();
      expect(session.state, endedHow(session)).to.equal('in-call');
      expect([...new Set(signalPaths)], 'the signal path taken').to.deep.equal(['/rtc']);
      await until(() => session.audioLevels.agent > 0.05, 10000, "the agent's voice, heard");
      await until(
        () => seen.transcript.some((entry) => entry.final && entry.speaker === 'AI'),
        10000,
        "the agent's first line, final",
      );
      const dialId = present(session.dialId, "the call's dial id");
      await session.hangup();
      const result = (await ended).detail;
      expect(seen.states, endedHow(session)).to.deep.equal(['starting', 'connecting', 'in-call', 'ending', 'ended']);
      expect(result).to.include({ reason: 'user-hangup', systemResultType: 'USER_HANGUP', dialId });
      expect(result.transcript.some((entry) => entry.speaker === 'AI' && entry.text.startsWith('Hello'))).to.equal(
        true,
      );
      expect((await emulatorDial(dialId)).systemResultType).to.equal('USER_HANGUP');
    });

    it('emu-quick: a whole call to the agent hanging up with a result', async () => {
      const session = newSession('emu-quick');
      const seen = record(session);
      const ended = next(session, 'call-ended', 30000);
      await session.start();
      const result = (await ended).detail;
      expect(seen.states, endedHow(session)).to.deep.equal(['starting', 'connecting', 'in-call', 'ending', 'ended']);
      expect(result).to.include({ reason: 'agent-hangup', systemResultType: 'AGENT_HANGUP', status: 'completed' });
      expect(result.aiResult).to.be.an('object');
      expect(seen.transcript.filter((entry) => entry.final && entry.speaker === 'AI').length).to.be.greaterThan(1);
      expect([...new Set(signalPaths)]).to.deep.equal(['/rtc']);
    });
  });

  it('measures click -> call-connected and click -> first agent audio (median of 10)', async () => {
    // A real click (through the browser's input pipeline, so it carries user activation) starts
    // each call; the first click also lets the AudioContext that meters the agent's audio run.
    const context = new AudioContext();
    const button = document.createElement('button');
    button.textContent = 'Call';
    container.append(button);
    const connectMs: number[] = [];
    const audioMs: number[] = [];
    for (let i = 0; i < 10; i++) {
      const session = newSession('emu-demo');
      let clickedAt = 0;
      let started: Promise<void> | null = null;
      button.onclick = () => {
        clickedAt = performance.now();
        void context.resume();
        started = session.start();
      };
      let connectedAt = 0;
      session.addEventListener('call-connected', () => (connectedAt = performance.now()), { once: true });
      const box = button.getBoundingClientRect();
      await sendMouse({
        type: 'click',
        position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)],
      });
      await until(() => started !== null, 5000, 'click handled');
      await started;
      expect(session.state, endedHow(session)).to.equal('in-call');
      connectMs.push(connectedAt - clickedAt);
      await until(
        () => (session.audioElement?.srcObject as MediaStream | null)?.getAudioTracks().length === 1,
        10000,
        'agent track',
      );
      const source = context.createMediaStreamSource(
        present(session.audioElement, "the agent's audio element").srcObject as MediaStream,
      );
      const analyser = context.createAnalyser();
      analyser.fftSize = 256;
      source.connect(analyser);
      const samples = new Float32Array(analyser.fftSize);
      await until(
        () => {
          analyser.getFloatTimeDomainData(samples);
          return samples.some((v) => Math.abs(v) > 0.01);
        },
        15000,
        'agent audio',
      );
      audioMs.push(performance.now() - clickedAt);
      source.disconnect();
      await session.hangup();
    }
    button.remove();
    await context.close();
    const report = {
      calls: connectMs.length,
      connectMedianMs: Math.round(median(connectMs)),
      firstAudioMedianMs: Math.round(median(audioMs)),
      connectMs: connectMs.map(Math.round),
      firstAudioMs: audioMs.map(Math.round),
    };
    console.log(`CALL-TIMINGS ${JSON.stringify(report)}`);
    expect(report.connectMedianMs).to.be.lessThan(10000);
    expect(report.firstAudioMedianMs).to.be.greaterThan(report.connectMedianMs);
  });
});
