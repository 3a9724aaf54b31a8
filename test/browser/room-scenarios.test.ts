// The emulator's loopback room in real Chromium with the unmodified livekit-client `Room` (no
// widget): each scenario agent, through the REST half (dial → token → connect), as a caller would
// notice it — the agent's voice, the live transcript, how the call ends, and the dial record.
import { expect } from '@open-wc/testing';
import {
  ConnectionError,
  ConnectionErrorReason,
  DisconnectReason,
  Room,
  RoomEvent,
  Track,
  type RemoteAudioTrack,
  type RemoteParticipant,
  type RemoteTrack,
} from 'livekit-client';

interface DialRecord {
  status: string;
  systemResultType: string | null;
  transcript: Array<{ text: string; speaker: 'AI' | 'HUMAN'; startTimeMs: number; endTimeMs: number }>;
  durationSeconds: number | null;
  aiDurationSeconds: number | null;
  aiResult: Record<string, unknown> | null;
  startedAt: string | null;
  endedAt: string | null;
}

interface Segment {
  segmentId: string;
  trackId: string;
  final: boolean;
  text: string;
  sender: string;
}

async function emu<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`/__emu${path}`, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function newDial(callAgentId: string): Promise<{ dialId: string; token: string; url: string }> {
  const { dialId } = await emu<{ dialId: string }>('/dials', { method: 'POST', body: JSON.stringify({ callAgentId, browserCall: true }) });
  const { dialToken, url } = await emu<{ dialToken: string; url: string }>(`/dials/${dialId}/token`, { method: 'POST' });
  return { dialId, token: dialToken, url };
}

const dialRecord = (dialId: string) => emu<DialRecord>(`/dials/${dialId}`);

async function eventually<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
}

/** A livekit-client Room with everything a test looks at recorded. */
class Call {
  readonly room = new Room();
  readonly segments: Segment[] = [];
  readonly agentStates: string[] = [];
  readonly disconnected: Promise<DisconnectReason | undefined>;
  reconnecting = false;
  agentTrack: RemoteAudioTrack | undefined;
  agent: RemoteParticipant | undefined;
  #audio: HTMLAudioElement | undefined;

  constructor() {
    this.disconnected = new Promise((resolve) => this.room.once(RoomEvent.Disconnected, resolve));
    this.room.on(RoomEvent.Reconnecting, () => (this.reconnecting = true));
    this.room.on(RoomEvent.SignalReconnecting, () => (this.reconnecting = true));
    this.room.on(RoomEvent.TrackSubscribed, (track: RemoteTrack, _publication, participant: RemoteParticipant) => {
      if (track.kind !== Track.Kind.Audio || !participant.isAgent) return;
      this.agentTrack = track as RemoteAudioTrack;
      this.agent = participant;
      this.#audio = track.attach() as HTMLAudioElement; // a sink, so Chromium decodes and measures it
      this.#audio.muted = true;
      document.body.append(this.#audio);
    });
    this.room.on(RoomEvent.ParticipantAttributesChanged, (_changed, participant) => {
      const state = participant.attributes['lk.agent.state'];
      if (state && this.agentStates.at(-1) !== state) this.agentStates.push(state);
    });
    this.room.registerTextStreamHandler('lk.transcription', (reader, { identity }) => {
      void reader.readAll().then((text) => {
        const attributes = reader.info.attributes ?? {};
        this.segments.push({
          segmentId: attributes['lk.segment_id'] ?? '',
          trackId: attributes['lk.transcribed_track_id'] ?? '',
          final: attributes['lk.transcription_final'] === 'true',
          text,
          sender: identity,
        });
      });
    });
  }

  async connect(url: string, token: string, microphone = true): Promise<void> {
    await this.room.connect(url, token);
    if (microphone) await this.room.localParticipant.setMicrophoneEnabled(true);
  }

  async inboundAudio(): Promise<{ bytesReceived: number; audioLevel: number }> {
    const stats = await this.agentTrack?.receiver?.getStats();
    let bytesReceived = 0;
    let audioLevel = 0;
    stats?.forEach((report: { type: string; kind?: string; bytesReceived?: number; audioLevel?: number }) => {
      if (report.type === 'inbound-rtp' && report.kind === 'audio') {
        bytesReceived = report.bytesReceived ?? 0;
        audioLevel = report.audioLevel ?? 0;
      }
    });
    return { bytesReceived, audioLevel };
  }

  finals(trackId?: string): Segment[] {
    return this.segments.filter((segment) => segment.final && (trackId === undefined || segment.trackId === trackId));
  }

  get micTrackSid(): string | undefined {
    return this.room.localParticipant.getTrackPublication(Track.Source.Microphone)?.trackSid;
  }

  async close(): Promise<void> {
    this.#audio?.remove();
    await this.room.disconnect();
  }
}

/** Each AI line: interim segments that grow word by word, then one final with the whole line, one id. */
function expectInterimThenFinal(segments: Segment[], trackId: string): void {
  const ids = [...new Set(segments.filter((segment) => segment.trackId === trackId).map((segment) => segment.segmentId))];
  expect(ids.length).to.be.greaterThan(0);
  for (const id of ids) {
    const versions = segments.filter((segment) => segment.segmentId === id);
    const final = versions.at(-1)!;
    expect(final.final, `segment ${id} ends final`).to.equal(true);
    expect(versions.filter((segment) => segment.final)).to.have.length(1);
    const interims = versions.slice(0, -1);
    expect(interims.length, `segment ${id} "${final.text}" has interim versions`).to.be.greaterThan(0);
    let previous = '';
    for (const interim of interims) {
      expect(final.text.startsWith(interim.text), `"${interim.text}" is a prefix of "${final.text}"`).to.equal(true);
      expect(interim.text.length).to.be.greaterThan(previous.length);
      previous = interim.text;
    }
  }
}

const calls: Call[] = [];
function newCall(): Call {
  const call = new Call();
  calls.push(call);
  return call;
}
afterEach(async () => {
  await Promise.all(calls.splice(0).map((call) => call.close()));
});

describe('loopback room: emu-quick', () => {
  it('greets with real audio, streams the transcript, hangs up by itself within ~4 s and sets the result', async () => {
    const { dialId, token, url } = await newDial('emu-quick');
    const call = newCall();
    const connectStart = performance.now();
    await call.connect(url, token);
    const agent = await eventually(() => call.agent, 3000, 'the agent track');
    expect(agent.isAgent).to.equal(true);

    const audio = await eventually(async () => {
      const inbound = await call.inboundAudio();
      return inbound.bytesReceived > 0 && inbound.audioLevel > 0.01 ? inbound : undefined;
    }, 3000, 'audible agent audio');
    expect(audio.bytesReceived).to.be.greaterThan(0);

    const reason = await call.disconnected;
    const callSeconds = (performance.now() - connectStart) / 1000;
    expect(reason).to.equal(DisconnectReason.ROOM_DELETED);
    expect(callSeconds).to.be.lessThan(6);

    const agentTrackSid = call.agentTrack!.sid!;
    expectInterimThenFinal(call.segments, agentTrackSid);
    expect(call.finals(agentTrackSid).map((segment) => segment.text)).to.deep.equal(['Hi, quick test call.', 'Thanks, goodbye!']);
    expect(call.agentStates).to.include.members(['listening', 'speaking']);

    const record = await dialRecord(dialId);
    expect([record.status, record.systemResultType]).to.deep.equal(['completed', 'AGENT_HANGUP']);
    expect(record.aiResult?.['summary']).to.be.a('string');
    const aiLines = record.transcript.filter((line) => line.speaker === 'AI');
    expect(aiLines.map((line) => line.text)).to.deep.equal(['Hi, quick test call.', 'Thanks, goodbye!']);
    for (const line of record.transcript) expect(line.endTimeMs).to.be.greaterThan(line.startTimeMs);
    expect(record.durationSeconds).to.be.within(2, 6);
    expect(record.aiDurationSeconds).to.be.within(1, 4);
  });
});

describe('loopback room: emu-demo', () => {
  it('answers each detected caller turn, and the caller leaving ends the dial USER_HANGUP', async () => {
    const { dialId, token, url } = await newDial('emu-demo');
    const call = newCall();
    await call.connect(url, token);
    const micSid = await eventually(() => call.micTrackSid, 3000, 'the published microphone');
    // The fake microphone beeps on: a turn is detected, announced for the caller's track, and answered.
    const heard = await eventually(() => call.finals(micSid)[0], 9000, 'a caller turn');
    expect(heard.text).to.match(/^\(caller spoke, \d\.\d s\)$/);
    expect(heard.sender).to.equal('agent');
    await eventually(() => call.finals(call.agentTrack!.sid).length >= 2 || undefined, 6000, 'the agent reply');
    expect(call.agentStates).to.include.members(['listening', 'speaking', 'thinking']);

    await call.room.disconnect();
    const record = await eventually(async () => {
      const current = await dialRecord(dialId);
      return current.status === 'completed' ? current : undefined;
    }, 3000, 'the dial to end');
    expect(record.systemResultType).to.equal('USER_HANGUP');
    expect(record.transcript.map((line) => line.speaker)).to.include.members(['AI', 'HUMAN']);
    const human = record.transcript.find((line) => line.speaker === 'HUMAN')!;
    expect(human.text).to.equal(heard.text);
  });

  it('a REST hangup mid-call ends the room for the caller', async () => {
    const { dialId, token, url } = await newDial('emu-demo');
    const call = newCall();
    await call.connect(url, token);
    await eventually(() => call.segments[0], 3000, 'the greeting to start');
    await emu(`/dials/${dialId}/hangup`, { method: 'POST' });
    expect(await call.disconnected).to.equal(DisconnectReason.ROOM_DELETED);
    const record = await dialRecord(dialId);
    expect([record.status, record.systemResultType]).to.deep.equal(['completed', 'USER_HANGUP']);
  });
});

describe('loopback room: emu-silent-user', () => {
  it('hangs up LONG_SILENCE_HANGUP once the caller has been muted for 3 s', async () => {
    const { dialId, token, url } = await newDial('emu-silent-user');
    const call = newCall();
    await call.connect(url, token);
    await eventually(() => call.finals(call.agentTrack?.sid)[0], 4000, 'the greeting');
    await call.room.localParticipant.setMicrophoneEnabled(false);
    const mutedAt = performance.now();
    expect(await call.disconnected).to.equal(DisconnectReason.ROOM_DELETED);
    expect(performance.now() - mutedAt).to.be.within(2500, 9000);
    const record = await dialRecord(dialId);
    expect([record.status, record.systemResultType]).to.deep.equal(['completed', 'LONG_SILENCE_HANGUP']);
    expect(record.transcript.at(-1)?.text).to.equal('I cannot hear you. Goodbye.');
  });
});

describe('loopback room: emu-drop', () => {
  it('drops the media connection without a goodbye, refuses to come back, and the dial fails', async () => {
    const { dialId, token, url } = await newDial('emu-drop');
    const call = newCall();
    await call.connect(url, token);
    await eventually(() => call.finals(call.agentTrack?.sid)[0], 5000, 'the greeting');
    const reason = await call.disconnected;
    expect(call.reconnecting, 'the client tried to get the call back').to.equal(true);
    expect(reason).to.not.equal(DisconnectReason.CLIENT_INITIATED);
    const record = await eventually(async () => {
      const current = await dialRecord(dialId);
      return current.status === 'failed' ? current : undefined;
    }, 5000, 'the dial to fail');
    expect(record.systemResultType).to.equal('FAILED');
    expect(record.transcript.map((line) => line.text)).to.deep.equal(['Hello, this line is about to drop.']);
  });
});

describe('loopback room: emu-no-agent', () => {
  it('opens the room, but no agent ever joins', async () => {
    const { dialId, token, url } = await newDial('emu-no-agent');
    const call = newCall();
    await call.connect(url, token);
    expect(call.room.state).to.equal('connected');
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the absence of an event: give it time to (not) happen
    expect(call.room.remoteParticipants.size).to.equal(0);
    expect(call.segments).to.have.length(0);
    await call.room.disconnect();
    const record = await eventually(async () => {
      const current = await dialRecord(dialId);
      return current.status === 'completed' ? current : undefined;
    }, 3000, 'the dial to end');
    expect(record.systemResultType).to.equal('USER_HANGUP');
    expect(record.transcript).to.have.length(0);
  });
});

describe('loopback room: refusals', () => {
  it('refuses a bad token: ConnectionError NotAllowed', async () => {
    const { token, url } = await newDial('emu-demo');
    const call = newCall();
    const forged = `${token.slice(0, -6)}AAAAAA`;
    let error: unknown;
    try {
      await call.room.connect(url, forged);
    } catch (caught) {
      error = caught;
    }
    expect(error).to.be.instanceOf(ConnectionError);
    expect((error as ConnectionError).reason).to.equal(ConnectionErrorReason.NotAllowed);
  });
});

describe('loopback room: timing', () => {
  it('connects and plays the first agent audio quickly (median of 10)', async () => {
    const connectMs: number[] = [];
    const firstAudioMs: number[] = [];
    for (let run = 0; run < 10; run++) {
      const { dialId, token, url } = await newDial('emu-demo');
      const call = newCall();
      const start = performance.now();
      await call.room.connect(url, token);
      connectMs.push(performance.now() - start);
      // As the widget does; Chromium also measures received audio only once its audio device runs.
      await call.room.localParticipant.setMicrophoneEnabled(true);
      let last = { bytesReceived: 0, audioLevel: 0 };
      await eventually(async () => {
        last = await call.inboundAudio();
        return last.audioLevel > 0.01 ? true : undefined;
      }, 5000, 'audible agent audio').catch((error: Error) => {
        throw new Error(`${error.message} (run ${run}, track ${call.agentTrack ? 'subscribed' : 'missing'}, ${JSON.stringify(last)}, ${call.segments.length} segments)`);
      });
      firstAudioMs.push(performance.now() - start);
      await call.close();
      calls.splice(calls.indexOf(call), 1);
      await emu(`/dials/${dialId}`);
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const summary = {
      connectMedianMs: Math.round(median(connectMs)),
      connectRangeMs: [Math.round(Math.min(...connectMs)), Math.round(Math.max(...connectMs))],
      firstAudioMedianMs: Math.round(median(firstAudioMs)),
      firstAudioRangeMs: [Math.round(Math.min(...firstAudioMs)), Math.round(Math.max(...firstAudioMs))],
    };
    console.log(`room timing ${JSON.stringify(summary)}`);
    expect(summary.connectMedianMs).to.be.lessThan(3000);
    expect(summary.firstAudioMedianMs).to.be.lessThan(4000);
  });
});
