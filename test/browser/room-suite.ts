// The emulator's loopback room in real Chromium with an unmodified livekit-client `Room` (no
// widget): each scenario agent, the way the service's own browser client reaches it (REST dial →
// GraphQL: connectSession, browserDialToken → connect → startDialSession on GLOBAL_CALL_CONNECT),
// as a caller would notice it — the agent's voice, the live transcript, how the call ends, and the
// dial record. One suite, run once per client and signal path (room-scenarios*.test.ts): the
// project's livekit-client on v1 and on v0 (`singlePeerConnection: false`), and livekit-client
// 2.15, which speaks only v0; the scenarios that are the agent's or the service's own doing run in
// the first of those only (`onceIt`).
import { expect } from '@open-wc/testing';
import { createClient, type Client } from 'graphql-ws/client';
import type * as Livekit from 'livekit-client';
import type { RemoteAudioTrack, RemoteParticipant, RemoteTrack, RoomOptions } from 'livekit-client';
import { median } from '../../bench/lib/stats.js';
import { OPERATIONS, graphql, livekitCredentials, startDialSession } from '../support/media-credentials.js';
import { present } from '../support/present.js';
import { recordSignalPaths } from '../support/signal-paths.js';

/** The parts of a livekit-client build the suite uses (an older build is cast to it: the same API). */
export type LivekitClient = Pick<
  typeof Livekit,
  'Room' | 'RoomEvent' | 'Track' | 'ConnectionError' | 'ConnectionErrorReason' | 'DisconnectReason'
>;

export interface RoomClient {
  /** In the suite's name: which client and signal path. */
  label: string;
  livekit: LivekitClient;
  /** The signal path the client must take (the suite checks it did). */
  signalPath: 'v0' | 'v1';
  /** `new Room(options)`: `{ singlePeerConnection: false }` makes a current client use v0. */
  roomOptions?: Partial<RoomOptions>;
  /** Calls the timing test places (its medians are checked): fewer for the extra runs. */
  timingRuns: number;
  /**
   * true: this run also has the scenarios whose outcome is the service's or the agent's own, the
   * same whichever client joins (`onceIt` below); one run of the suite has them, not all three.
   */
  clientIndependent: boolean;
}

/** The whole room suite for one client. */
export function describeRoom(client: RoomClient): void {
  const { ConnectionError, ConnectionErrorReason, DisconnectReason, Room, RoomEvent, Track } = client.livekit;
  type DisconnectReason = Livekit.DisconnectReason;
  type Room = Livekit.Room;

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
    const response = await fetch(`/__emu${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', ...init.headers },
    });
    if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }

  interface Dial {
    dialId: string;
    sessionId: string;
    /** The service's dial token: it authorises GraphQL for this dial, not the media room. */
    dialToken: string;
    graphqlUrl: string;
    /** The LiveKit token and URL from browserDialToken. */
    token: string;
    url: string;
  }

  interface TranscriptEvent {
    eventType: 'LIVE' | 'FINAL';
    transcriptLine: { role: string; text: string; audioStart: number; audioEnd: number };
  }

  let graphqlUrl: Promise<string> | undefined;

  /** A browser dial and its media credentials, as the service's own browser client gets them. */
  async function newDial(callAgentId: string): Promise<Dial> {
    graphqlUrl ??= fetch('/__services').then(
      async (response) => ((await response.json()) as { graphqlUrl: string }).graphqlUrl,
    );
    const created = await emu<{ dialId: string; sessionId: string; dialToken: string }>('/dials', {
      method: 'POST',
      body: JSON.stringify({ callAgentId, browserCall: true }),
    });
    const url = await graphqlUrl;
    const media = await livekitCredentials(url, created.dialToken, created.sessionId);
    return { ...created, graphqlUrl: url, ...media };
  }

  const dialRecord = (dialId: string) => emu<DialRecord>(`/dials/${dialId}`);

  /**
   * The dial's record once its status reads `status`. The room records how it ended just after its
   * LeaveRequest (README: "What the emulator invents"), so a caller told first may read it a moment early.
   */
  const recordOnce = (dialId: string, status: string, timeoutMs: number) =>
    eventually(
      async () => {
        const current = await dialRecord(dialId);
        return current.status === status ? current : undefined;
      },
      timeoutMs,
      `the dial ${status}`,
    );

  async function eventually<T>(
    probe: () => Promise<T | undefined> | T | undefined,
    timeoutMs: number,
    what: string,
  ): Promise<T> {
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
    readonly room: Room = new Room(client.roomOptions);
    readonly segments: Segment[] = [];
    /** connectSession's message types, in order. */
    readonly sessionMessages: string[] = [];
    /** The dial statuses connectSession's SESSION_CONTACT_UPDATE messages carried, in order. */
    readonly sessionStatuses: string[] = [];
    /** watchLiveTranscriptEvents' events, in order. */
    readonly transcriptEvents: TranscriptEvent[] = [];
    #gql: Client | undefined;
    #dial: Dial | undefined;
    #sessionStarted = false;
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

    /**
     * Follows the dial over GraphQL as the official client does: connectSession, and on
     * GLOBAL_CALL_CONNECT one startDialSession (unless `start` is false); the live transcript too.
     */
    follow(dial: Dial, { start = true } = {}): void {
      this.#dial = dial;
      this.#gql = createClient({
        url: dial.graphqlUrl.replace(/^http/, 'ws'),
        connectionParams: { authToken: dial.dialToken },
        retryAttempts: 0,
      });
      const ignore = { error: () => {}, complete: () => {} };
      this.#gql.subscribe<{
        connectSession: { messageType: string; content: { dials?: Array<{ status: string }> } | null };
      }>(
        { query: OPERATIONS.ConnectSession, variables: { sessionId: dial.sessionId } },
        {
          ...ignore,
          next: ({ data }) => {
            const type = data?.connectSession.messageType;
            if (!type) return;
            this.sessionMessages.push(type);
            for (const { status } of data.connectSession.content?.dials ?? []) this.sessionStatuses.push(status);
            if (type === 'GLOBAL_CALL_CONNECT' && start) void this.startSession();
          },
        },
      );
      this.#gql.subscribe<{ watchLiveTranscriptEvents: TranscriptEvent }>(
        { query: OPERATIONS.RefreshTranscript, variables: { dialId: dial.dialId } },
        { ...ignore, next: ({ data }) => data && this.transcriptEvents.push(data.watchLiveTranscriptEvents) },
      );
    }

    /** startDialSession, once. */
    async startSession(): Promise<void> {
      if (this.#sessionStarted || !this.#dial) return;
      this.#sessionStarted = true;
      await startDialSession(this.#dial.graphqlUrl, this.#dial.dialToken, this.#dial.sessionId);
    }

    /** Follows the dial (see `follow`), joins its room and publishes the microphone. */
    async connect(dial: Dial, microphone = true): Promise<void> {
      if (!this.#gql) this.follow(dial);
      await this.room.connect(dial.url, dial.token);
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

    #meter: { context: AudioContext; analyser: AnalyserNode; samples: Float32Array<ArrayBuffer> } | undefined;

    /**
     * The agent's voice as the caller hears it now: the peak of the last ~10 ms the browser decoded
     * (a Web Audio analyser on the track; getStats' levels fall off over some 300 ms, too slow here).
     */
    agentPeakNow(): number {
      const track = this.agentTrack?.mediaStreamTrack;
      if (!track) return 0;
      if (!this.#meter) {
        const context = new AudioContext();
        const analyser = context.createAnalyser();
        analyser.fftSize = 512;
        context.createMediaStreamSource(new MediaStream([track])).connect(analyser);
        this.#meter = { context, analyser, samples: new Float32Array(analyser.fftSize) };
      }
      const { analyser, samples } = this.#meter;
      analyser.getFloatTimeDomainData(samples);
      let peak = 0;
      for (const sample of samples) peak = Math.max(peak, Math.abs(sample));
      return peak;
    }

    finals(trackId?: string): Segment[] {
      return this.segments.filter((segment) => segment.final && (trackId === undefined || segment.trackId === trackId));
    }

    get micTrackSid(): string | undefined {
      return this.room.localParticipant.getTrackPublication(Track.Source.Microphone)?.trackSid;
    }

    async close(): Promise<void> {
      this.#audio?.remove();
      await this.#meter?.context.close();
      await this.room.disconnect();
      await this.#gql?.dispose();
    }
  }

  /** Each AI line: interim segments that grow word by word, then one final with the whole line, one id. */
  function expectInterimThenFinal(segments: Segment[], trackId: string): void {
    const ids = [
      ...new Set(segments.filter((segment) => segment.trackId === trackId).map((segment) => segment.segmentId)),
    ];
    expect(ids.length).to.be.greaterThan(0);
    for (const id of ids) {
      const versions = segments.filter((segment) => segment.segmentId === id);
      const final = present(versions.at(-1), `segment ${id}'s last version`);
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

  /** A new dial to `callAgentId`, and a Call following it, in its room with the microphone published. */
  async function joinedCall(callAgentId: string): Promise<{ dial: Dial; dialId: string; call: Call }> {
    const dial = await newDial(callAgentId);
    const call = newCall();
    await call.connect(dial);
    return { dial, dialId: dial.dialId, call };
  }
  afterEach(async () => {
    await Promise.all(calls.splice(0).map((call) => call.close()));
  });

  // The page holds the microphone for the whole file, as the widget's page does from the click on.
  // Firefox gathers ICE candidates on every interface only for a page that captures; otherwise only
  // on the default route's address, and a namespace with only loopback has none. These tests join
  // the room before (or without) publishing a microphone, so they capture first.
  let held: MediaStream | null = null;
  before(async () => {
    held = await navigator.mediaDevices.getUserMedia({ audio: true });
  });
  after(() => {
    held?.getTracks().forEach((track) => track.stop());
  });

  // Which signal path the client took: the path of every signal WebSocket it opens.
  const signalPaths = recordSignalPaths();

  /**
   * A scenario whose outcome does not depend on the client or its signal path, run only where
   * `clientIndependent` is set: what it checks is the agent's behaviour (waiting for
   * startDialSession, pauseAI, no agent at all) or the service's GraphQL transcript, while the
   * client only joins and listens, which every run's other scenarios check for their client
   * (the audio, lk.transcription, the agent's state, each way a room ends, ROOM_DELETED on a REST
   * hangup in the emu-keypad and emu-blip scenarios).
   */
  const onceIt: (name: string, test: () => Promise<void>) => void = client.clientIndependent ? it : () => {};

  describe(`loopback room (${client.label})`, () => {
    describe('loopback room: emu-quick', () => {
      it('greets with real audio, streams the transcript, hangs up by itself within ~4 s and sets the result', async () => {
        const dial = await newDial('emu-quick');
        const { dialId } = dial;
        const call = newCall();
        const connectStart = performance.now();
        await call.connect(dial);
        const agent = await eventually(() => call.agent, 3000, 'the agent track');
        expect(agent.isAgent).to.equal(true);

        const audio = await eventually(
          async () => {
            const inbound = await call.inboundAudio();
            return inbound.bytesReceived > 0 && inbound.audioLevel > 0.01 ? inbound : undefined;
          },
          3000,
          'audible agent audio',
        );
        expect(audio.bytesReceived).to.be.greaterThan(0);

        expect([...new Set(signalPaths)], 'the signal path taken').to.deep.equal([
          client.signalPath === 'v0' ? '/rtc' : '/rtc/v1',
        ]);

        const reason = await call.disconnected;
        const callSeconds = (performance.now() - connectStart) / 1000;
        expect(reason).to.equal(DisconnectReason.ROOM_DELETED);
        expect(callSeconds).to.be.lessThan(6);

        const agentTrackSid = present(call.agentTrack?.sid, "the agent track's sid");
        expectInterimThenFinal(call.segments, agentTrackSid);
        expect(call.finals(agentTrackSid).map((segment) => segment.text)).to.deep.equal([
          'Hi, quick test call.',
          'Thanks, goodbye!',
        ]);
        expect(call.agentStates).to.include.members(['listening', 'speaking']);

        const record = await recordOnce(dialId, 'completed', 3000);
        expect([record.status, record.systemResultType]).to.deep.equal(['completed', 'AGENT_HANGUP']);
        expect(record.aiResult?.['summary']).to.be.a('string');
        const aiLines = record.transcript.filter((line) => line.speaker === 'AI');
        expect(aiLines.map((line) => line.text)).to.deep.equal(['Hi, quick test call.', 'Thanks, goodbye!']);
        for (const line of record.transcript) expect(line.endTimeMs).to.be.greaterThan(line.startTimeMs);
        expect(record.durationSeconds).to.be.within(2, 6);
        expect(record.aiDurationSeconds).to.be.within(1, 4);
      });
    });

    describe("loopback room: the service's browser protocol", () => {
      onceIt(
        'the agent waits for startDialSession: in the room but silent until it is sent, then it greets',
        async () => {
          const dial = await newDial('emu-quick');
          const call = newCall();
          call.follow(dial, { start: false });
          await call.connect(dial);
          await eventually(() => call.agent, 3000, 'the agent in the room');
          await eventually(
            () => call.sessionMessages.includes('GLOBAL_CALL_CONNECT') || undefined,
            3000,
            'GLOBAL_CALL_CONNECT',
          );
          // The absence of speech: listen for a while, as a caller would.
          let loudest = 0;
          for (const until = performance.now() + 2000; performance.now() < until;) {
            loudest = Math.max(loudest, (await call.inboundAudio()).audioLevel);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          expect(loudest, 'no voice before startDialSession').to.be.lessThan(0.01);
          expect(call.segments).to.have.length(0);
          expect(call.transcriptEvents).to.have.length(0);
          expect(call.agentStates).to.not.include('speaking');

          await call.startSession();
          await eventually(
            async () => ((await call.inboundAudio()).audioLevel > 0.01 ? true : undefined),
            5000,
            'the greeting, audible',
          );
          await eventually(() => call.finals(call.agentTrack?.sid)[0], 5000, 'the greeting in lk.transcription');
          expect(await call.disconnected).to.equal(DisconnectReason.ROOM_DELETED);
        },
      );

      onceIt(
        'watchLiveTranscriptEvents carries the lines of lk.transcription: LIVE versions, then one FINAL per line',
        async () => {
          const { call } = await joinedCall('emu-quick');
          const micSid = call.micTrackSid;
          await call.disconnected;
          // The status comes over GraphQL's own socket: the room's LeaveRequest may come first.
          await eventually(
            () => (call.sessionStatuses.includes('completed') ? true : undefined),
            10000,
            'the terminal status',
          );
          const agentTrackSid = present(call.agentTrack?.sid, "the agent track's sid");
          const finalsOf = (role: string) =>
            call.transcriptEvents.filter((event) => event.eventType === 'FINAL' && event.transcriptLine.role === role);
          const finals = finalsOf('AI');
          expect(finals.map((event) => event.transcriptLine.text)).to.deep.equal(
            call.finals(agentTrackSid).map((segment) => segment.text),
          );
          // The caller's turns (the fake microphone beeps) go out both ways too.
          expect(finalsOf('HUMAN').map((event) => event.transcriptLine.text)).to.deep.equal(
            call.finals(micSid).map((segment) => segment.text),
          );
          const first = present(finals[0], "the agent's first FINAL");
          const firstFinal = call.transcriptEvents.indexOf(first);
          const lives = call.transcriptEvents.slice(0, firstFinal);
          expect(lives.length, 'LIVE before the FINAL').to.be.greaterThan(0);
          for (const live of lives) {
            expect(live.eventType).to.equal('LIVE');
            expect(first.transcriptLine.text.startsWith(live.transcriptLine.text)).to.equal(true);
          }
          expect(first.transcriptLine.audioEnd).to.be.greaterThan(first.transcriptLine.audioStart);
        },
      );

      onceIt(
        'emu-graphql-transcript: no lk.transcription in the room, the GraphQL events are the live transcript',
        async () => {
          const { dial, call } = await joinedCall('emu-graphql-transcript');
          await eventually(
            async () => ((await call.inboundAudio()).audioLevel > 0.01 ? true : undefined),
            5000,
            'the greeting, audible',
          );
          expect(await call.disconnected).to.equal(DisconnectReason.ROOM_DELETED);
          expect(call.segments).to.have.length(0);
          const finals = () =>
            call.transcriptEvents
              .filter((event) => event.eventType === 'FINAL' && event.transcriptLine.role === 'AI')
              .map((event) => event.transcriptLine.text);
          await eventually(() => (finals().length >= 2 ? true : undefined), 3000, 'the goodbye over GraphQL');
          expect(finals()).to.deep.equal(['Hi, quick test call.', 'Thanks, goodbye!']);
          const record = await recordOnce(dial.dialId, 'completed', 3000);
          expect([record.status, record.systemResultType]).to.deep.equal(['completed', 'AGENT_HANGUP']);
        },
      );
    });

    describe('loopback room: emu-demo', () => {
      it('answers each detected caller turn, and the caller leaving ends the dial USER_HANGUP', async () => {
        const { dialId, call } = await joinedCall('emu-demo');
        const micSid = await eventually(() => call.micTrackSid, 3000, 'the published microphone');
        // The fake microphone beeps on: a turn is detected, announced for the caller's track, and answered.
        const heard = await eventually(() => call.finals(micSid)[0], 9000, 'a caller turn');
        expect(heard.text).to.match(/^\(caller spoke, \d\.\d s\)$/);
        expect(heard.sender).to.equal('agent');
        await eventually(
          () => call.finals(present(call.agentTrack, 'the agent track').sid).length >= 2 || undefined,
          6000,
          'the agent reply',
        );
        expect(call.agentStates).to.include.members(['listening', 'speaking', 'thinking']);

        await call.room.disconnect();
        const record = await recordOnce(dialId, 'completed', 3000);
        expect(record.systemResultType).to.equal('USER_HANGUP');
        expect(record.transcript.map((line) => line.speaker)).to.include.members(['AI', 'HUMAN']);
        const human = present(
          record.transcript.find((line) => line.speaker === 'HUMAN'),
          "the caller's line in the record",
        );
        expect(human.text).to.equal(heard.text);
      });

      onceIt('a REST hangup mid-call ends the room for the caller; the room sends nothing after it', async () => {
        const { dialId, call } = await joinedCall('emu-demo');
        const greeting = await eventually(() => call.segments[0], 3000, 'the greeting to start');
        await emu(`/dials/${dialId}/hangup`, { method: 'POST' });
        expect(await call.disconnected).to.equal(DisconnectReason.ROOM_DELETED);
        const record = await dialRecord(dialId);
        expect([record.status, record.systemResultType]).to.deep.equal(['completed', 'USER_HANGUP']);
        // The greeting was cut off, and the room, ending, sends no final segment for it: a send
        // into a caller that may be disconnecting at that moment is what crashed libwebrtc's binding.
        const versions = call.segments.filter((segment) => segment.segmentId === greeting.segmentId);
        expect(
          versions.some((segment) => segment.final),
          'a final segment for the cut-off greeting',
        ).to.equal(false);
      });
    });

    describe('loopback room: emu-keypad', () => {
      it('answers each keypad tone (publishDtmf) in its next line, live and in the record; broken tones are ignored', async () => {
        const { dialId, call } = await joinedCall('emu-keypad');
        const agentTrackSid = (await eventually(() => call.agentTrack, 3000, 'the agent track')).sid;
        const aiFinals = () => call.finals(agentTrackSid).map((segment) => segment.text);
        await eventually(() => aiFinals()[0], 6000, 'the greeting');
        expect(aiFinals()).to.deep.equal(['Hello, this is the keypad agent. Please press a key on your keypad.']);

        const keypad = call.room.localParticipant;
        await keypad.publishDtmf(99, 'x'); // not a key: ignored (and logged)
        await keypad.publishDtmf(5, '#'); // the code disagrees with the digit: ignored
        await keypad.publishDtmf(2, '2');
        await eventually(() => aiFinals()[1], 6000, 'the answer to 2');
        await keypad.publishDtmf(11, '#');
        await eventually(() => aiFinals()[2], 6000, 'the answer to #');
        const said = [
          'Hello, this is the keypad agent. Please press a key on your keypad.',
          'You pressed 2.',
          'You pressed pound.',
        ];
        expect(aiFinals()).to.deep.equal(said);
        expect(call.agentStates).to.include.members(['listening', 'thinking', 'speaking']);
        const graphqlFinals = () =>
          call.transcriptEvents
            .filter((event) => event.eventType === 'FINAL' && event.transcriptLine.role === 'AI')
            .map((event) => event.transcriptLine.text);
        await eventually(() => (graphqlFinals().length === 3 ? true : undefined), 3000, 'the answers over GraphQL');
        expect(graphqlFinals()).to.deep.equal(said);

        await emu(`/dials/${dialId}/hangup`, { method: 'POST' });
        expect(await call.disconnected).to.equal(DisconnectReason.ROOM_DELETED);
        const record = await dialRecord(dialId);
        expect(record.transcript.map((line) => line.text)).to.deep.equal(said);
      });
    });

    describe('loopback room: pauseAI', () => {
      onceIt(
        'silences the agent at once (its audio level measured), cutting its line short; idle and deaf while paused; resumed, it says "I\'m back."',
        async () => {
          const { dial, dialId, call } = await joinedCall('emu-demo');
          const pause = (pauseStatus: boolean) =>
            graphql(dial.graphqlUrl, dial.dialToken, 'SetPaused', { dialId, pauseStatus });
          await eventually(
            async () => ((await call.inboundAudio()).audioLevel > 0.05 ? true : undefined),
            5000,
            'the greeting, audible',
          );
          await eventually(() => (call.agentPeakNow() > 0.05 ? true : undefined), 2000, 'the greeting on the meter');
          const agentTrackSid = present(call.agentTrack?.sid, "the agent track's sid");

          const pausedAt = performance.now();
          expect((await pause(true)).errors).to.equal(undefined);
          // The agent's voice for 2 s from the pause, every 10 ms: it is silent from the last loud moment on.
          let lastLoudAt = pausedAt;
          for (const until = pausedAt + 2000; performance.now() < until;) {
            const peak = call.agentPeakNow();
            if (peak >= 0.01) lastLoudAt = performance.now();
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
          const silentAfterMs = Math.round(lastLoudAt - pausedAt);
          console.log(`room timing (${client.label}) ${JSON.stringify({ pauseSilentAfterMs: silentAfterMs })}`);
          // A pause that did not cut the line would be heard for seconds (the greeting is one long
          // sentence, and its final must come cut short). Typically 110–190 ms here (the log line
          // above), but Firefox under .ci/run's load took 348 and 742 ms (its jitter buffer, and the
          // mutation and the room behind a busy machine): the bound is for 'at once', not a timing.
          expect(silentAfterMs, 'the line stops at once').to.be.lessThan(1500);
          const cut = await eventually(() => call.finals(agentTrackSid)[0], 2000, "the greeting's final, cut short");
          expect(cut.text).to.not.equal('Hello, this is the demo agent. Say something and I will answer.');
          await eventually(() => (call.agentStates.at(-1) === 'idle' ? true : undefined), 2000, 'lk.agent.state idle');

          // Paused for 2.5 s while the fake microphone beeps on: nothing is said, no turn is taken.
          const segmentsWhenPaused = call.segments.length;
          const eventsWhenPaused = call.transcriptEvents.length;
          let loudest = 0;
          for (const until = performance.now() + 2500; performance.now() < until;) {
            loudest = Math.max(loudest, call.agentPeakNow());
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
          expect(loudest, 'silent while paused').to.be.lessThan(0.01);
          expect(call.segments.length, 'no line, no caller turn').to.equal(segmentsWhenPaused);
          expect(call.transcriptEvents.length).to.equal(eventsWhenPaused);
          expect(call.agentStates.at(-1)).to.equal('idle');

          expect((await pause(false)).errors).to.equal(undefined);
          const back = await eventually(() => call.finals(agentTrackSid)[1], 5000, "the agent's next line");
          expect(back.text).to.equal("I'm back.");
          // The state and the line travel apart (signal and data channel): the state may come a little later.
          await eventually(() => (call.agentStates.at(-1) === 'listening' ? true : undefined), 2000, 'listening again');
          expect(call.agentStates.slice(call.agentStates.lastIndexOf('idle'))).to.deep.equal([
            'idle',
            'speaking',
            'listening',
          ]);

          await emu(`/dials/${dialId}/hangup`, { method: 'POST' });
          expect(await call.disconnected).to.equal(DisconnectReason.ROOM_DELETED);
          const record = await dialRecord(dialId);
          expect(record.transcript.map((line) => line.text).slice(0, 2)).to.deep.equal([cut.text, "I'm back."]);
          const ended = await pause(true);
          expect(ended.errors?.[0]?.extensions?.code).to.equal('FAILED_PRECONDITION');
        },
      );
    });

    describe('loopback room: emu-silent-user', () => {
      it('hangs up LONG_SILENCE_HANGUP once the caller has been muted for 3 s', async () => {
        const { dialId, call } = await joinedCall('emu-silent-user');
        await eventually(() => call.finals(call.agentTrack?.sid)[0], 4000, 'the greeting');
        await call.room.localParticipant.setMicrophoneEnabled(false);
        const mutedAt = performance.now();
        expect(await call.disconnected).to.equal(DisconnectReason.ROOM_DELETED);
        expect(performance.now() - mutedAt).to.be.within(2500, 9000);
        const record = await recordOnce(dialId, 'completed', 3000);
        expect([record.status, record.systemResultType]).to.deep.equal(['completed', 'LONG_SILENCE_HANGUP']);
        expect(record.transcript.at(-1)?.text).to.equal('I cannot hear you. Goodbye.');
      });
    });

    describe('loopback room: emu-drop', () => {
      it('drops the media connection without a goodbye, refuses to come back, and the dial fails', async () => {
        const { dialId, call } = await joinedCall('emu-drop');
        await eventually(() => call.finals(call.agentTrack?.sid)[0], 5000, 'the greeting');
        const reason = await call.disconnected;
        expect(call.reconnecting, 'the client tried to get the call back').to.equal(true);
        expect(reason).to.not.equal(DisconnectReason.CLIENT_INITIATED);
        const record = await recordOnce(dialId, 'failed', 5000);
        expect(record.systemResultType).to.equal('FAILED');
        expect(record.transcript.map((line) => line.text)).to.deep.equal(['Hello, this line is about to drop.']);
      });
    });

    describe('loopback room: the agent or the media server closing the room', () => {
      it('emu-agent-leaves: the agent leaves without a goodbye; the room stays open and the dial fails', async () => {
        const { dialId, call } = await joinedCall('emu-agent-leaves');
        const agent = await eventually(() => call.agent, 3000, 'the agent');
        const left = new Promise<void>((resolve) =>
          call.room.on(RoomEvent.ParticipantDisconnected, (participant) => {
            if (participant.identity === agent.identity) resolve();
          }),
        );
        await eventually(() => call.finals(call.agentTrack?.sid)[0], 5000, 'the greeting');
        await left;
        expect(call.room.remoteParticipants.size).to.equal(0);
        expect(call.room.state, 'no LeaveRequest: the caller is still in the room').to.equal('connected');
        const record = await recordOnce(dialId, 'failed', 3000);
        expect(record.systemResultType).to.equal('FAILED');
        expect(record.transcript.map((line) => line.text)).to.deep.equal(['Hello, I have to go.']);
      });

      it('emu-server-leave: the media server closes the room, SERVER_SHUTDOWN, and the dial fails', async () => {
        const { dialId, call } = await joinedCall('emu-server-leave');
        await eventually(() => call.finals(call.agentTrack?.sid)[0], 5000, 'the greeting');
        expect(await call.disconnected).to.equal(DisconnectReason.SERVER_SHUTDOWN);
        const record = await recordOnce(dialId, 'failed', 3000);
        expect(record.systemResultType).to.equal('FAILED');
      });
    });

    describe('loopback room: emu-blip', () => {
      it('the connection drops once; the client comes back (a full rejoin, same dial) and the agent says so', async () => {
        const { dialId, call } = await joinedCall('emu-blip');
        const firstTrack = (await eventually(() => call.agentTrack, 3000, 'the agent track')).sid;
        await eventually(() => call.finals(firstTrack)[0], 5000, 'the greeting');
        const back = await eventually(
          () => call.finals().find((segment) => segment.text === 'Sorry, the line dropped. I am back.'),
          15000,
          "the agent's line after the rejoin",
        );
        expect(call.reconnecting, 'the client noticed the drop').to.equal(true);
        expect(call.room.state).to.equal('connected');
        expect(back.trackId, "a fresh agent participant's track").to.not.equal(firstTrack);
        expect([...new Set(signalPaths)], 'the rejoin took the same signal path').to.deep.equal([
          client.signalPath === 'v0' ? '/rtc' : '/rtc/v1',
        ]);
        await emu(`/dials/${dialId}/hangup`, { method: 'POST' });
        expect(await call.disconnected).to.equal(DisconnectReason.ROOM_DELETED);
        const record = await dialRecord(dialId);
        expect([record.status, record.systemResultType]).to.deep.equal(['completed', 'USER_HANGUP']);
        const texts = record.transcript.map((line) => line.text);
        expect(texts.slice(0, 2)).to.deep.equal([
          'Hello, this line will drop for a moment.',
          'Sorry, the line dropped. I am back.',
        ]);
      });
    });

    describe('loopback room: emu-no-agent', () => {
      onceIt('opens the room, but no agent ever joins', async () => {
        const { dialId, call } = await joinedCall('emu-no-agent');
        expect(call.room.state).to.equal('connected');
        await new Promise((resolve) => setTimeout(resolve, 1500)); // the absence of an event: give it time to (not) happen
        expect(call.room.remoteParticipants.size).to.equal(0);
        expect(call.segments).to.have.length(0);
        await call.room.disconnect();
        const record = await recordOnce(dialId, 'completed', 3000);
        expect(record.systemResultType).to.equal('USER_HANGUP');
        expect(record.transcript).to.have.length(0);
      });
    });

    describe('loopback room: refusals', () => {
      it('refuses a bad token, and the REST dial token: ConnectionError NotAllowed', async () => {
        const { token, url, dialToken } = await newDial('emu-demo');
        for (const refused of [`${token.slice(0, -6)}AAAAAA`, dialToken]) {
          const call = newCall();
          let error: unknown;
          try {
            await call.room.connect(url, refused);
          } catch (caught) {
            error = caught;
          }
          expect(error).to.be.instanceOf(ConnectionError);
          expect((error as Livekit.ConnectionError).reason).to.equal(ConnectionErrorReason.NotAllowed);
        }
      });
    });

    describe('loopback room: timing', () => {
      it(`connects and plays the first agent audio quickly (median of ${client.timingRuns})`, async () => {
        const connectMs: number[] = [];
        const firstAudioMs: number[] = [];
        for (let run = 0; run < client.timingRuns; run++) {
          const dial = await newDial('emu-demo');
          const { dialId } = dial;
          const call = newCall();
          const start = performance.now();
          call.follow(dial);
          await call.room.connect(dial.url, dial.token);
          connectMs.push(performance.now() - start);
          // As the widget does; Chromium also measures received audio only once its audio device runs.
          await call.room.localParticipant.setMicrophoneEnabled(true);
          let last = { bytesReceived: 0, audioLevel: 0 };
          await eventually(
            async () => {
              last = await call.inboundAudio();
              return last.audioLevel > 0.01 ? true : undefined;
            },
            5000,
            'audible agent audio',
          ).catch((error: Error) => {
            throw new Error(
              `${error.message} (run ${run}, track ${call.agentTrack ? 'subscribed' : 'missing'}, ${JSON.stringify(last)}, ${call.segments.length} segments)`,
            );
          });
          firstAudioMs.push(performance.now() - start);
          await call.close();
          calls.splice(calls.indexOf(call), 1);
          await emu(`/dials/${dialId}`);
        }
        const summary = {
          connectMedianMs: Math.round(median(connectMs)),
          connectRangeMs: [Math.round(Math.min(...connectMs)), Math.round(Math.max(...connectMs))],
          firstAudioMedianMs: Math.round(median(firstAudioMs)),
          firstAudioRangeMs: [Math.round(Math.min(...firstAudioMs)), Math.round(Math.max(...firstAudioMs))],
        };
        console.log(`room timing (${client.label}) ${JSON.stringify(summary)}`);
        expect(summary.connectMedianMs).to.be.lessThan(3000);
        expect(summary.firstAudioMedianMs).to.be.lessThan(4000);
      });
    });
  });
}
