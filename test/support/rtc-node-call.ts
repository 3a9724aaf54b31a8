// One call into the emulator's media room with LiveKit's Rust-core SDK (@livekit/rtc-node), as a
// backend integrator would make it. test/node/room-rtc-node.test.ts runs this file inside a private
// network namespace with a veth pair (libwebrtc gathers no loopback candidates), the emulator's
// room listening on the veth address. Prints one line `RESULT <json>` with what the caller noticed.
//
//   node --import tsx test/support/rtc-node-call.ts <scenario> <mediaHost>
//   call-v1 | call-v0: join (v1: one peer connection; v0: publisher + subscriber), hear the agent,
//                      read its transcription, publish a microphone and be answered, leave
//   quick-v0:          emu-quick on v0: the agent says goodbye and ends the room
//   replace:           a second connection with the same identity replaces the first
//   refused:           a token the room does not know
import {
  AudioFrame,
  AudioSource,
  AudioStream,
  LocalAudioTrack,
  Room,
  RoomEvent,
  TrackKind,
  TrackPublishOptions,
  TrackSource,
  dispose,
  type RemoteTrack,
  type RoomOptions,
} from '@livekit/rtc-node';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { emulatorRest } from './emulator-rest.js';
import { livekitCredentials, startDialSession } from './media-credentials.js';
import { until } from './until.js';

export type RtcNodeScenario = 'call-v1' | 'call-v0' | 'quick-v0' | 'replace' | 'refused';

export interface Segment {
  identity: string;
  text: string;
  segmentId: string;
  final: boolean;
  trackId: string;
}

export interface RtcNodeResult {
  mediaUrl: string;
  /** What `room.connect()` threw, if it did. */
  connectError?: string;
  /** The loudest 10 ms of the agent's voice heard (RMS of 16-bit samples). */
  agentPeakRms: number;
  agentStates: string[];
  segments: Segment[];
  /** The Disconnected reason of each room, by name (`first`, `second` for `replace`). */
  disconnected: Record<string, number>;
  /** The dial as REST shows it: right after the replace (`replace`), and at the end. */
  dialDuringReplace?: string;
  dialStatus: string;
  dialResult: string | null;
  /** The emulator's log lines about the media room. */
  roomLog: string[];
  /** The token of the call, so the test can check the log never shows it. */
  token: string;
}

const [scenario, mediaHost] = process.argv.slice(2) as [RtcNodeScenario, string];
const roomLog: string[] = [];
const emulator = await startEmulator({
  mediaHost,
  logger: (line) => {
    if (line.startsWith('media room')) roomLog.push(line);
  },
  roomTimings: { leaveCloseDelayMs: 50 },
});
const result: RtcNodeResult = {
  mediaUrl: emulator.mediaUrl,
  agentPeakRms: 0,
  agentStates: [],
  segments: [],
  disconnected: {},
  dialStatus: '',
  dialResult: null,
  roomLog,
  token: '',
};
const rooms: Room[] = [];
const segmentWaiters = new Set<(segment: Segment) => void>();

try {
  await run();
} finally {
  for (const room of rooms) await room.disconnect().catch(() => {});
  await dispose();
  await emulator.close();
}
process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
// rtc-node's FFI threads would keep the process alive.
process.exit(0);

async function run(): Promise<void> {
  const agentId = scenario === 'quick-v0' ? 'emu-quick' : 'emu-demo';
  const { dialId, sessionId } = await emulatorRest<{ dialId: string; sessionId: string }>(emulator, 'POST', '/dials', {
    callAgentId: agentId,
    browserCall: true,
  });
  const { dialToken } = await emulatorRest<{ dialToken: string }>(emulator, 'POST', `/dials/${dialId}/token`);
  const { token, url } = await livekitCredentials(emulator.graphqlUrl, dialToken, sessionId);
  result.token = token;
  const v1 = scenario === 'call-v1' || scenario === 'replace';
  // The Rust core takes the v1 signal path (one peer connection) when asked, else v0.
  const options = { autoSubscribe: true, dynacast: false, singlePeerConnection: v1 } as RoomOptions;

  if (scenario === 'refused') {
    const room = watch(new Room(), 'first');
    try {
      await room.connect(url, `${token.slice(0, -4)}AAAA`, options);
    } catch (error) {
      result.connectError = error instanceof Error ? error.message : String(error);
    }
    return;
  }

  const first = watch(new Room(), 'first');
  await first.connect(url, token, options);
  await startDialSession(emulator.graphqlUrl, dialToken, sessionId);
  const greeting = await segmentDone(agentLine);

  if (scenario === 'replace') {
    const firstGone = disconnectedOf(first);
    const second = watch(new Room(), 'second');
    await second.connect(url, token, options);
    await firstGone;
    result.dialDuringReplace = (await dial(dialId)).status;
    // The newcomer hears the agent (a fresh one, which greets again).
    await segmentDone((segment) => agentLine(segment) && segment !== greeting);
    await leave(second, dialId);
    return;
  }

  if (scenario === 'quick-v0') {
    await disconnectedOf(first);
    await settle(dialId);
    return;
  }

  await speak(first);
  await segmentDone((segment) => agentLine(segment) && segment !== greeting);
  await leave(first, dialId);
}

function watch(room: Room, name: string): Room {
  rooms.push(room);
  room.on(RoomEvent.TrackSubscribed, (track: RemoteTrack) => {
    if (track.kind === TrackKind.KIND_AUDIO) void measure(track);
  });
  room.on(RoomEvent.ParticipantAttributesChanged, (changed) => {
    const state = changed['lk.agent.state'];
    if (state && result.agentStates.at(-1) !== state) result.agentStates.push(state);
  });
  room.registerTextStreamHandler('lk.transcription', async (reader, participant) => {
    // A stream still open when the room goes is cut off ("Disconnected while receiving").
    const text = await reader.readAll().catch(() => undefined);
    if (text === undefined) return;
    const attributes = reader.info.attributes ?? {};
    const segment: Segment = {
      identity: participant.identity,
      text,
      segmentId: attributes['lk.segment_id'] ?? '',
      final: attributes['lk.transcription_final'] === 'true',
      trackId: attributes['lk.transcribed_track_id'] ?? '',
    };
    result.segments.push(segment);
    for (const waiter of [...segmentWaiters]) waiter(segment);
  });
  room.on(RoomEvent.Disconnected, (reason) => {
    result.disconnected[name] = reason;
  });
  return room;
}

async function measure(track: RemoteTrack): Promise<void> {
  try {
    for await (const frame of new AudioStream(track, 48000, 1)) {
      let sum = 0;
      for (const sample of frame.data) sum += sample * sample;
      result.agentPeakRms = Math.max(result.agentPeakRms, Math.round(Math.sqrt(sum / frame.data.length)));
    }
  } catch {
    // The track ended with its room.
  }
}

function segmentDone(match: (segment: Segment) => boolean): Promise<Segment> {
  const seen = result.segments.find(match);
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve) => {
    const waiter = (segment: Segment) => {
      if (!match(segment)) return;
      segmentWaiters.delete(waiter);
      resolve(segment);
    };
    segmentWaiters.add(waiter);
  });
}

/** A whole line the agent said (the agent also publishes the caller's turns, as `(caller spoke, …)`). */
function agentLine(segment: Segment): boolean {
  return segment.identity === 'agent' && segment.final && !segment.text.startsWith('(caller');
}

function disconnectedOf(room: Room): Promise<void> {
  return new Promise((resolve) => room.once(RoomEvent.Disconnected, () => resolve()));
}

/** Publishes a microphone and says something: a 440 Hz tone for 1 s, then quiet. */
async function speak(room: Room): Promise<void> {
  const source = new AudioSource(48000, 1);
  const track = LocalAudioTrack.createAudioTrack('microphone', source);
  await room.localParticipant?.publishTrack(track, new TrackPublishOptions({ source: TrackSource.SOURCE_MICROPHONE }));
  for (let frame = 0; frame < 200; frame++) {
    const samples = new Int16Array(480);
    if (frame < 100) {
      for (let i = 0; i < samples.length; i++) {
        samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * (frame * 480 + i)) / 48000));
      }
    }
    await source.captureFrame(new AudioFrame(samples, 48000, 1, 480));
  }
}

async function leave(room: Room, dialId: string): Promise<void> {
  await room.disconnect();
  await settle(dialId);
}

type DialView = { status: string; systemResultType: string | null };
function dial(dialId: string): Promise<DialView> {
  return emulatorRest<DialView>(emulator as Emulator, 'GET', `/dials/${dialId}`);
}

/** Waits for the dial to end, as the REST API shows it (no event announces it here). */
async function settle(dialId: string): Promise<void> {
  await until(
    async () => {
      const record = await dial(dialId);
      result.dialStatus = record.status;
      result.dialResult = record.systemResultType;
      return !['queued', 'ringing', 'in-progress'].includes(record.status);
    },
    10000,
    'the dial to end',
  );
}
