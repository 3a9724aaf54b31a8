// The call's media: one LiveKit room. The ONLY module that imports livekit-client; call-session.ts
// loads it with a dynamic import() on the first call, so a page that never calls pays nothing.
import {
  ConnectionQuality,
  ConnectionState,
  DisconnectReason,
  LocalAudioTrack,
  LoggerNames,
  ParticipantKind,
  Room,
  RoomEvent,
  Track,
  getLogger,
  type Participant,
  type RemoteParticipant,
  type RemoteTrack,
  type RemoteTrackPublication,
  type TextStreamReader,
  RemoteAudioTrack,
} from 'livekit-client';
import { CallError, abortError } from '../errors.js';
import type { LiveSegment } from '../transcript.js';
import type { CallSessionOptions, ConnectionQualityLevel, Speaker, VoiceLevels } from '../types.js';
import { AudioLevelMeter } from './audio-levels.js';

// The service's session protocol (GraphQL) travels in this chunk too: loaded with the media, not before.
export { openEarlySocket, openServiceSession } from './service-session.js';
export type { ServiceSession, ServiceSessionCallbacks, ServiceSessionOptions } from './service-session.js';

/**
 * How the room went away: we left, the server ended it, the network did and retries gave up, or a
 * newer connection of the same caller took the room over (`moved`: another tab took the call up).
 */
export type MediaDisconnectCause = 'client' | 'server' | 'network' | 'moved';

export interface MediaCallbacks {
  /** The agent participant is in the room (fires once, possibly during the join). */
  onAgentJoined(): void;
  onAgentLeft(): void;
  /** The agent's audio track, or null when it went away. */
  onAgentAudio(track: MediaStreamTrack | null): void;
  onAgentSpeaking(speaking: boolean): void;
  onReconnecting(): void;
  onReconnected(): void;
  onDisconnected(cause: MediaDisconnectCause, detail: string): void;
  /** The current state of one `lk.transcription` segment (whole text so far). */
  onTranscript(segment: LiveSegment): void;
}

/**
 * Where a prepared room joins (the media credentials the dial answered with) and what it
 * publishes. The microphone is wrapped for livekit-client only here: its wrapper enables the track
 * it is given, and until the join the session's mute holds on the raw track.
 */
export interface RoomCredentials {
  /** The microphone track the visitor already granted; published as is, never asked for again. */
  microphone: MediaStreamTrack;
  serverUrl: string;
  participantToken: string;
  /** ICE servers the service named (`browserDialToken`'s `iceConfig`); without them, the media server's own. */
  iceServers?: RTCIceServer[] | undefined;
  muted: boolean;
}

/** What a room needs before the dial answers (`prepareMedia`). */
export interface RoomOptions {
  /** Aborting it disconnects the room (or lets go of a prepared one) and rejects a pending join. */
  signal: AbortSignal;
  callbacks: MediaCallbacks;
  /**
   * The call's options the room reads: `maxReconnectAttempts` (livekit-client's default is 10),
   * `mediaConnectTimeoutMs` (its `websocketTimeout` and `peerConnectionTimeout` for the join, 15000
   * each by default) and `debug` (its own console logs at `debug` level; otherwise they are off,
   * see `quietLivekitLogs`).
   */
  call: Pick<CallSessionOptions, 'maxReconnectAttempts' | 'mediaConnectTimeoutMs' | 'debug'>;
}

export interface MediaConnection {
  /** How loud the agent and the visitor are now (0…1); cheap, for one read per animation frame. */
  levels(): VoiceLevels;
  setMuted(muted: boolean): Promise<void>;
  /** One keypad digit (`0`-`9`, `*`, `#`) as DTMF, the way the service's own client sends it (`publishDtmf`). */
  sendDtmf(digit: string): Promise<void>;
  /**
   * Sends `track` in place of the microphone (RTCRtpSender.replaceTrack: no renegotiation), muted
   * or not as `muted` says. The session owns both tracks: it stops the old one.
   */
  replaceMicrophone(track: MediaStreamTrack, muted: boolean): Promise<void>;
  /**
   * Calls `listener` with the visitor's connection quality as the media server grades it
   * (LiveKit's `ConnectionQualityChanged` for the local participant), now if known and on each
   * change; returns the function that stops it (the room's `disconnect` stops it too).
   */
  watchQuality(listener: (quality: ConnectionQualityLevel) => void): () => void;
  /** The link's figures from the peer connection's stats (RTCP), each absent while not known yet. */
  linkStats(): Promise<LinkStats>;
  /** Leaves the room and removes every listener; idempotent. */
  disconnect(): Promise<void>;
}

/** Round trip (from the microphone's sender), jitter and loss (of the agent's audio as received). */
export interface LinkStats {
  rttMs?: number;
  jitterMs?: number;
  /** Packets lost so far / packets expected so far (0…1). */
  packetLoss?: number;
}

const QUALITY_LEVELS: Readonly<Record<string, ConnectionQualityLevel>> = {
  [ConnectionQuality.Excellent]: 'excellent',
  [ConnectionQuality.Good]: 'good',
  [ConnectionQuality.Poor]: 'poor',
  [ConnectionQuality.Lost]: 'lost',
};

const TRANSCRIPTION_TOPIC = 'lk.transcription';

/** Server-side reasons: the room or the participant was ended on purpose, not lost. */
const SERVER_REASONS = new Set<DisconnectReason>([
  DisconnectReason.DUPLICATE_IDENTITY,
  DisconnectReason.SERVER_SHUTDOWN,
  DisconnectReason.PARTICIPANT_REMOVED,
  DisconnectReason.ROOM_DELETED,
  DisconnectReason.ROOM_CLOSED,
  DisconnectReason.USER_UNAVAILABLE,
  DisconnectReason.USER_REJECTED,
  DisconnectReason.SIP_TRUNK_FAILURE,
  DisconnectReason.AGENT_ERROR,
]);

function isAgent(participant: Participant): boolean {
  return (
    participant.isAgent || participant.kind === ParticipantKind.AGENT || 'lk.agent.state' in participant.attributes
  );
}

/**
 * An agent that says it is still `initializing` (LiveKit Agents' state) is in the room but not
 * on the call yet: the service's agent waits for `startDialSession`. An agent without the
 * attribute counts as ready once it is there.
 */
function isReady(participant: Participant): boolean {
  return participant.attributes['lk.agent.state'] !== 'initializing';
}

// livekit-client 2.23.0 also registers each Room with a FinalizationRegistry whose cleanup closure
// keeps that Room (the same scope), so the registry itself held every call's room. Without a
// registry Room takes its plain path (a direct listener), which `roomReleasedBy` removes.
Room.cleanupRegistry = false;

/**
 * A Room whose `devicechange` listener goes when the room is done. livekit-client 2.23.0 adds one
 * to `navigator.mediaDevices` in Room's constructor, to be removed (by a FinalizationRegistry) once
 * the room is collected; but the listener's closure keeps the room (its scope holds `this`), so
 * the room never is, and every call's room stayed for the page's life with its engine, streams and
 * AbortSignals (the endurance bench's heap growth; a heap snapshot shows the path). The listener's
 * registration also gets `release`, which the connection aborts when it lets go of the room.
 */
function roomReleasedBy(release: AbortSignal, options: ConstructorParameters<typeof Room>[0]): Room {
  const devices = globalThis.navigator?.mediaDevices;
  if (!devices || typeof devices.addEventListener !== 'function') return new Room(options);
  const own = Object.prototype.hasOwnProperty.call(devices, 'addEventListener');
  const add = devices.addEventListener;
  devices.addEventListener = function (
    this: MediaDevices,
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ): void {
    if (!listener) return;
    const withRelease =
      type === 'devicechange'
        ? { ...(typeof options === 'object' ? options : { capture: options }), signal: release }
        : options;
    add.call(this, type, listener, withRelease);
  };
  try {
    return new Room(options);
  } finally {
    if (own) devices.addEventListener = add;
    else delete (devices as Partial<MediaDevices>).addEventListener;
  }
}

/**
 * The visitor's microphone as livekit-client publishes it, without its silence check:
 * LocalAudioTrack checks a microphone for silence when it is made and again when it is published,
 * each time in an AudioContext of its own (made on the main thread, between the dial's answer and
 * the agent's first words; kept 200 ms), only to emit `AudioSilenceDetected`, which the widget
 * does not use: its own meter hears the microphone (audio-levels.ts).
 */
class MicrophoneTrack extends LocalAudioTrack {
  override checkForSilence(): Promise<boolean> {
    return Promise.resolve(false);
  }
}

class LivekitMedia implements MediaConnection {
  readonly #room: Room;
  /** Aborted when the room is let go of: removes what livekit-client would leave behind (see `roomReleasedBy`). */
  readonly #release = new AbortController();
  readonly #options: RoomOptions;
  readonly #callbacks: MediaCallbacks;
  /** The microphone as published: made at the join (see `RoomCredentials`). */
  #localTrack: LocalAudioTrack | null = null;
  #agent: RemoteParticipant | null = null;
  /** `onAgentJoined` was called: the agent is ready (see `isReady`). */
  #agentAnnounced = false;
  #agentTrack: RemoteTrack | null = null;
  #agentSpeaking = false;
  /** Once the agent reports `lk.agent.state`, active-speaker updates no longer decide speaking. */
  #agentStateSeen = false;
  #reconnecting = false;
  #closed = false;
  readonly #qualityWatchers = new Set<() => void>();
  readonly #meter = new AudioLevelMeter();

  constructor(options: RoomOptions) {
    this.#options = options;
    // Until the room is joined, the call's end lets go of it (`disconnect`); joined, the session leaves it.
    options.signal.addEventListener('abort', this.#onAbort);
    this.#callbacks = options.callbacks;
    const attempts = options.call.maxReconnectAttempts;
    this.#room = roomReleasedBy(this.#release.signal, {
      adaptiveStream: false,
      dynacast: false,
      // The session decides what a page leaving means (it hangs up the dial); no second handler.
      disconnectOnPageLeave: false,
      ...(attempts === undefined
        ? {}
        : {
            reconnectPolicy: {
              nextRetryDelayInMs: ({ retryCount }) =>
                retryCount < attempts ? Math.min(300 * 2 ** retryCount, 2000) : null,
            },
          }),
    });
  }

  async connect(credentials: RoomCredentials): Promise<void> {
    const { signal } = this.#options;
    if (signal.aborted || this.#closed) throw abortError(signal);
    const room = this.#room;
    const microphone = new MicrophoneTrack(credentials.microphone, undefined, true);
    this.#localTrack = microphone;
    room
      .on(RoomEvent.ParticipantConnected, this.#onParticipantConnected)
      .on(RoomEvent.ParticipantDisconnected, this.#onParticipantDisconnected)
      .on(RoomEvent.ParticipantAttributesChanged, this.#onAttributesChanged)
      .on(RoomEvent.ActiveSpeakersChanged, this.#onActiveSpeakers)
      .on(RoomEvent.TrackSubscribed, this.#onTrackSubscribed)
      .on(RoomEvent.TrackUnsubscribed, this.#onTrackUnsubscribed)
      .on(RoomEvent.Reconnecting, this.#onReconnecting)
      .on(RoomEvent.SignalReconnecting, this.#onReconnecting)
      .on(RoomEvent.Reconnected, this.#onReconnected)
      .on(RoomEvent.Disconnected, this.#onDisconnected);
    room.registerTextStreamHandler(TRANSCRIPTION_TOPIC, this.#onTranscription);
    try {
      const timeout = this.#options.call.mediaConnectTimeoutMs;
      const { iceServers } = credentials;
      await room.connect(credentials.serverUrl, credentials.participantToken, {
        autoSubscribe: true,
        ...(timeout === undefined ? {} : { websocketTimeout: timeout, peerConnectionTimeout: timeout }),
        ...(iceServers && iceServers.length > 0 ? { rtcConfig: { iceServers } } : {}),
      });
      if (signal.aborted) throw abortError(signal);
      if (credentials.muted) await microphone.mute();
      await room.localParticipant.publishTrack(microphone, {
        source: Track.Source.Microphone,
        dtx: true,
        red: true,
      });
      if (signal.aborted) throw abortError(signal);
      this.#meter.track('visitor', credentials.microphone);
      // Connected: from now on the session leaves the room itself, after it hung up the dial.
      signal.removeEventListener('abort', this.#onAbort);
    } catch (error) {
      await this.disconnect();
      if (signal.aborted) throw abortError(signal);
      throw new CallError(
        'media_failed',
        `could not join the media session: ${error instanceof Error ? error.message : String(error)}`,
        {
          cause: error,
        },
      );
    }
    for (const participant of room.remoteParticipants.values()) this.#onParticipantConnected(participant);
  }

  levels(): VoiceLevels {
    return this.#meter.read();
  }

  async setMuted(muted: boolean): Promise<void> {
    if (this.#closed) return;
    if (muted) await this.#localTrack?.mute();
    else await this.#localTrack?.unmute();
  }

  async sendDtmf(digit: string): Promise<void> {
    if (this.#closed) throw new Error('the call has no media connection');
    // As the service's client maps them: `*` is 10, `#` is 11, a digit its value.
    const code = digit === '*' ? 10 : digit === '#' ? 11 : Number.parseInt(digit, 10);
    await this.#room.localParticipant.publishDtmf(code, digit);
  }

  async replaceMicrophone(track: MediaStreamTrack, muted: boolean): Promise<void> {
    if (this.#closed) return;
    await this.#localTrack?.replaceTrack(track, true);
    this.#meter.track('visitor', track);
    // livekit-client mutes a user-provided track that ended (an unplugged microphone): say again what we want.
    await this.setMuted(muted);
  }

  watchQuality(listener: (quality: ConnectionQualityLevel) => void): () => void {
    if (this.#closed) return () => {};
    const local = this.#room.localParticipant;
    const onChange = (quality: ConnectionQuality, participant: Participant) => {
      const level = QUALITY_LEVELS[quality];
      if (participant === local && level !== undefined) listener(level);
    };
    this.#room.on(RoomEvent.ConnectionQualityChanged, onChange);
    const stop = () => void this.#room.off(RoomEvent.ConnectionQualityChanged, onChange);
    this.#qualityWatchers.add(stop);
    const now = QUALITY_LEVELS[local.connectionQuality];
    if (now !== undefined) listener(now);
    return () => {
      this.#qualityWatchers.delete(stop);
      stop();
    };
  }

  async linkStats(): Promise<LinkStats> {
    if (this.#closed) return {};
    const stats: LinkStats = {};
    const sent = await this.#localTrack?.getSenderStats().catch(() => undefined);
    if (sent?.roundTripTime !== undefined) stats.rttMs = sent.roundTripTime * 1000;
    const track = this.#agentTrack;
    const received =
      track instanceof RemoteAudioTrack ? await track.getReceiverStats().catch(() => undefined) : undefined;
    if (received?.jitter !== undefined) stats.jitterMs = received.jitter * 1000;
    const lost = received?.packetsLost;
    const got = received?.packetsReceived;
    if (lost !== undefined && got !== undefined && lost + got > 0)
      stats.packetLoss = Math.max(0, lost) / (Math.max(0, lost) + got);
    return stats;
  }

  async disconnect(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const stop of this.#qualityWatchers) stop();
    this.#qualityWatchers.clear();
    this.#options.signal.removeEventListener('abort', this.#onAbort);
    const room = this.#room;
    room
      .off(RoomEvent.ParticipantConnected, this.#onParticipantConnected)
      .off(RoomEvent.ParticipantDisconnected, this.#onParticipantDisconnected)
      .off(RoomEvent.ParticipantAttributesChanged, this.#onAttributesChanged)
      .off(RoomEvent.ActiveSpeakersChanged, this.#onActiveSpeakers)
      .off(RoomEvent.TrackSubscribed, this.#onTrackSubscribed)
      .off(RoomEvent.TrackUnsubscribed, this.#onTrackUnsubscribed)
      .off(RoomEvent.Reconnecting, this.#onReconnecting)
      .off(RoomEvent.SignalReconnecting, this.#onReconnecting)
      .off(RoomEvent.Reconnected, this.#onReconnected)
      .off(RoomEvent.Disconnected, this.#onDisconnected);
    room.unregisterTextStreamHandler(TRANSCRIPTION_TOPIC);
    this.#agentTrack = null;
    this.#meter.close();
    try {
      if (room.state !== ConnectionState.Disconnected) await room.disconnect(true);
    } finally {
      this.#release.abort();
      // The session owns the microphone track and stops it; the wrapper only lets go of it.
      this.#localTrack?.stop();
      // `debug` lasts as long as its call: livekit-client's levels are global, and the room's late
      // work (the silence check on the stopped microphone) would otherwise still log after the end.
      if (this.#options.call.debug) quietLivekitLogs(false);
    }
  }

  /** The agent's audio for the session (to play) and for the level meter. */
  #agentAudio(track: MediaStreamTrack | null): void {
    this.#meter.track('agent', track);
    this.#callbacks.onAgentAudio(track);
  }

  readonly #onAbort = (): void => {
    void this.disconnect();
  };

  readonly #onParticipantConnected = (participant: RemoteParticipant): void => {
    if (this.#agent || !isAgent(participant)) return;
    this.#agent = participant;
    this.#announceIfReady();
    for (const publication of participant.trackPublications.values()) {
      if (publication.track && publication.kind === Track.Kind.Audio) this.#useAgentTrack(publication.track);
    }
    const state = participant.attributes['lk.agent.state'];
    if (state !== undefined) this.#setAgentState(state);
  };

  readonly #onParticipantDisconnected = (participant: RemoteParticipant): void => {
    if (participant !== this.#agent) return;
    this.#agent = null;
    this.#setSpeaking(false);
    if (this.#agentTrack) {
      this.#agentTrack = null;
      this.#agentAudio(null);
    }
    // An agent that left before it was ready never joined the call: the agent timeout decides.
    if (!this.#agentAnnounced) return;
    this.#agentAnnounced = false;
    // A full reconnect first unwinds every remote participant, then emits Reconnecting in the
    // same turn: only an agent that left while the room stays up has really left.
    queueMicrotask(() => {
      if (this.#closed || this.#reconnecting || this.#agent) return;
      if (this.#room.state !== ConnectionState.Connected) return;
      this.#callbacks.onAgentLeft();
    });
  };

  readonly #onAttributesChanged = (changed: Record<string, string>, participant: Participant): void => {
    if (!this.#agent && isAgent(participant) && participant !== this.#room.localParticipant) {
      this.#onParticipantConnected(participant as RemoteParticipant);
      return;
    }
    if (participant !== this.#agent) return;
    this.#announceIfReady();
    const state = changed['lk.agent.state'];
    if (state !== undefined) this.#setAgentState(state);
  };

  readonly #onActiveSpeakers = (speakers: Participant[]): void => {
    if (this.#agentStateSeen || !this.#agent) return;
    this.#setSpeaking(speakers.includes(this.#agent));
  };

  readonly #onTrackSubscribed = (
    track: RemoteTrack,
    _publication: RemoteTrackPublication,
    participant: RemoteParticipant,
  ): void => {
    if (track.kind !== Track.Kind.Audio) return;
    if (!this.#agent && isAgent(participant)) this.#onParticipantConnected(participant);
    if (participant === this.#agent) this.#useAgentTrack(track);
  };

  readonly #onTrackUnsubscribed = (track: RemoteTrack): void => {
    if (track !== this.#agentTrack) return;
    this.#agentTrack = null;
    this.#agentAudio(null);
  };

  readonly #onReconnecting = (): void => {
    if (this.#reconnecting) return;
    this.#reconnecting = true;
    this.#callbacks.onReconnecting();
  };

  readonly #onReconnected = (): void => {
    if (!this.#reconnecting) return;
    this.#reconnecting = false;
    this.#callbacks.onReconnected();
  };

  readonly #onDisconnected = (reason?: DisconnectReason): void => {
    if (this.#closed) return;
    const detail = reason === undefined ? 'UNKNOWN' : (DisconnectReason[reason] ?? String(reason));
    const cause: MediaDisconnectCause =
      reason === DisconnectReason.CLIENT_INITIATED
        ? 'client'
        : reason === DisconnectReason.DUPLICATE_IDENTITY
          ? 'moved'
          : !this.#reconnecting && reason !== undefined && SERVER_REASONS.has(reason)
            ? 'server'
            : 'network';
    void this.disconnect();
    this.#callbacks.onDisconnected(cause, detail);
  };

  readonly #onTranscription = (reader: TextStreamReader, sender: { identity: string }): void => {
    void this.#readTranscription(reader, sender.identity);
  };

  async #readTranscription(reader: TextStreamReader, senderIdentity: string): Promise<void> {
    const header = reader.info.attributes ?? {};
    const segmentId = header['lk.segment_id'] ?? reader.info.id;
    const speaker = this.#speakerOf(header['lk.transcribed_track_id'], senderIdentity);
    const finalFromStart = header['lk.transcription_final'] === 'true';
    let text = '';
    try {
      for await (const chunk of reader.withAbortSignal(this.#options.signal)) {
        if (this.#closed) return;
        text += chunk;
        // Interim text shows while it grows; a stream that says final up front is shown when whole.
        if (!finalFromStart) this.#callbacks.onTranscript({ segmentId, speaker, text, final: false });
      }
    } catch {
      return;
    }
    if (this.#closed) return;
    // The trailer may carry the final flag, merged into info.attributes once the stream closed.
    const final = finalFromStart || (reader.info.attributes ?? {})['lk.transcription_final'] === 'true';
    this.#callbacks.onTranscript({ segmentId, speaker, text, final });
  }

  #speakerOf(trackId: string | undefined, senderIdentity: string): Speaker {
    const local = this.#room.localParticipant;
    if (trackId) {
      if (this.#localTrack?.sid === trackId || local.trackPublications.has(trackId)) return 'HUMAN';
      for (const participant of this.#room.remoteParticipants.values()) {
        if (participant.trackPublications.has(trackId)) return 'AI';
      }
    }
    return senderIdentity === local.identity ? 'HUMAN' : 'AI';
  }

  #announceIfReady(): void {
    if (this.#agentAnnounced || !this.#agent || !isReady(this.#agent)) return;
    this.#agentAnnounced = true;
    this.#callbacks.onAgentJoined();
  }

  #useAgentTrack(track: RemoteTrack): void {
    if (track.kind !== Track.Kind.Audio || track === this.#agentTrack) return;
    this.#agentTrack = track;
    this.#agentAudio(track.mediaStreamTrack);
  }

  #setAgentState(state: string): void {
    this.#agentStateSeen = true;
    this.#setSpeaking(state === 'speaking');
  }

  #setSpeaking(speaking: boolean): void {
    if (speaking === this.#agentSpeaking) return;
    this.#agentSpeaking = speaking;
    this.#callbacks.onAgentSpeaking(speaking);
  }
}

/**
 * livekit-client logs the expected ends of a call as warnings and errors ("could not createOffer
 * with closed peer connection" on every hang-up, several lines on a drop, a blip or a silence
 * hang-up); a site owner reads them as the widget's bugs. Every outcome reaches the page as a typed
 * event, so its logs are off unless the page asks for them (`debug`). This sets *default* levels
 * (loglevel's `setDefaultLevel`): `setLogLevel` would persist the level in the site's
 * localStorage (or a cookie), where it would also silence a livekit-client the site uses itself,
 * and a level the site did persist with `setLogLevel` still wins over a default.
 */
export function quietLivekitLogs(debug: boolean): void {
  for (const name of Object.values(LoggerNames)) getLogger(name).setDefaultLevel(debug ? 'debug' : 'silent');
}

/** The WebRTC warm-up has run (once per page). */
let warmed = false;

/**
 * A page's first RTCPeerConnection costs the browser more than the next ones (Chromium: 5-7 ms of
 * the main thread, then about 1 ms): one made and closed while the page is idle, ahead of the first
 * call (this chunk loaded on intent), or at the latest with the call's room, while the dial's
 * request is out (`prepareMedia`), so the call's own connection is not the first. No offer, no
 * candidates: nothing goes on the network.
 */
function warmWebRtc(): void {
  if (warmed) return;
  warmed = true;
  try {
    if (typeof RTCPeerConnection === 'function') new RTCPeerConnection().close();
  } catch {
    // A browser that refuses a peer connection here refuses the call's too, which says why.
  }
}
(globalThis.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1)))(warmWebRtc);

/** A room made ahead of its join: `join` with the dial's media credentials; the call's `signal` lets go of it. */
export interface PreparedMedia {
  /** Joins the room, publishes the microphone and reports what happens through the callbacks. */
  join(credentials: RoomCredentials): Promise<MediaConnection>;
}

/**
 * Makes the call's room (livekit-client's Room and its engine) without joining it: the session
 * does this while the dial's request is out, so the main thread's part of it (a median 5-6 ms in
 * the development machine's Chromium, with or without the hover's prefetch) no longer stands
 * between the dial's answer and the room's join.
 */
export function prepareMedia(options: RoomOptions): PreparedMedia {
  warmWebRtc();
  if (options.signal.aborted) return { join: () => Promise.reject(abortError(options.signal)) };
  // Before the Room exists: its loggers copy the root logger's level when it is made.
  quietLivekitLogs(options.call.debug ?? false);
  const media = new LivekitMedia(options);
  return { join: (credentials) => media.connect(credentials).then(() => media) };
}
