// The ONLY module that touches native WebRTC (@roamhq/wrtc, libwebrtc). It is loaded lazily, on
// the first media session, so REST-only users of the emulator never load libwebrtc.
//
// The v1 signal path has one peer connection per session (livekit-client's "single PC"): the
// browser offers, the room answers; the agent's voice goes out on the first audio section the
// browser left recvonly, the caller's microphone comes in through an RTCAudioSink, DataPackets go
// both ways on the browser's `_reliable` channel.
// The v0 path has two, as a LiveKit server keeps them: the publisher connection (the browser
// offers its microphone and its data channels, the room answers) and the subscriber connection
// (the room offers the agent's voice and its own `_reliable` / `_lossy` channels, on which the
// agent's DataPackets go out; the browser answers). ICE candidates name the connection they are for.
import type { RTCAudioSink, RTCAudioSource } from '@roamhq/wrtc/types/nonstandard.js';
import { explainMissingPeer } from '../../optional-peers.js';
import { isCandidateOn, type CandidateInit } from '../protocol/responses.js';
import { FRAME_SAMPLES, SAMPLE_RATE, framesDue, peakLevel, toFrames } from './pcm.js';

type Wrtc = typeof import('@roamhq/wrtc');

let loading: Promise<Wrtc> | undefined;

/** Loads libwebrtc once per process. */
export function loadWrtc(): Promise<Wrtc> {
  loading ??= import('@roamhq/wrtc').then(
    (module) => ((module as { default?: Wrtc }).default ?? module) as Wrtc,
    (error: unknown) => {
      throw explainMissingPeer(error);
    },
  );
  return loading;
}

/** Which of a session's peer connections: the caller's publisher or subscriber connection (v0), or the one of v1 (`publisher`). */
export type Transport = 'publisher' | 'subscriber';

export interface PeerEvents {
  /** A local ICE candidate, already filtered to the room's addresses, for the caller's `transport` connection. */
  localCandidate(candidate: CandidateInit, transport: Transport): void;
  /** One 10 ms frame of the caller's microphone, its peak level 0…1. */
  micFrame(peak: number): void;
  /** The reliable data channel opened: queued DataPackets are on their way. */
  reliableOpen(): void;
  /** A message the caller sent on its `_reliable` channel (a DataPacket, if it is well-formed). */
  data(bytes: Uint8Array): void;
  /** ICE/DTLS gave up or the connection closed from the far side. */
  connectionLost(): void;
}

export interface PeerOptions {
  /** The agent's voice: its stream id `<participantSid>|<trackSid>` and track sid. Absent: no agent. */
  agent?: { participantSid: string; trackSid: string };
  /** `single`: one connection the browser offers (v1). `dual`: publisher + subscriber connections (v0). */
  connections: 'single' | 'dual';
  /** The addresses the room listens on: the only ones ICE candidates are taken on, both ways. */
  addresses: readonly string[];
}

interface Utterance {
  frames: Int16Array[];
  next: number;
  progress(playedMs: number): void;
  done(completed: boolean): void;
}

const SILENCE = new Int16Array(FRAME_SAMPLES);

export class Peer {
  static async create(options: PeerOptions, events: PeerEvents): Promise<Peer> {
    const wrtc = await loadWrtc();
    return new Peer(wrtc, options, events);
  }

  readonly #wrtc: Wrtc;
  readonly #options: PeerOptions;
  readonly #events: PeerEvents;
  /** The connection the browser offers: its microphone and data channels (and in v1 everything). */
  readonly #pc: RTCPeerConnection;
  /** v0 only: the connection the room offers, with the agent's voice and the room's data channels. */
  readonly #sub: RTCPeerConnection | undefined;
  #subscriberOffers = 0;
  readonly #source: RTCAudioSource | undefined;
  readonly #agentTrack: MediaStreamTrack | undefined;
  readonly #sinks: RTCAudioSink[] = [];
  #agentMid: string | null = null;
  #reliable: RTCDataChannel | undefined;
  /** The browser's channels the room listens on. */
  readonly #heard: RTCDataChannel[] = [];
  #outbox: Uint8Array<ArrayBuffer>[] = [];
  #pump: ReturnType<typeof setInterval> | undefined;
  #pumpStart = 0;
  #framesSent = 0;
  #speaking: Utterance[] = [];
  #closed = false;
  #audioStopped = false;
  /** The session is ending (`stopSending`): what was sent still drains, nothing new is sent. */
  #sendingStopped = false;
  /** The far side closed the channel or the connection is failing or closed: no more sends. */
  #farSideGone = false;

  private constructor(wrtc: Wrtc, options: PeerOptions, events: PeerEvents) {
    this.#wrtc = wrtc;
    this.#options = options;
    this.#events = events;
    this.#pc = new wrtc.RTCPeerConnection({ iceServers: [] });
    if (options.agent) {
      this.#source = new wrtc.nonstandard.RTCAudioSource();
      this.#agentTrack = this.#source.createTrack();
    }
    this.#pc.onicecandidate = (event) => this.#onIceCandidate(event, 'publisher');
    this.#pc.ontrack = this.#onTrack;
    this.#pc.ondatachannel = this.#onDataChannel;
    this.#pc.onconnectionstatechange = () => this.#onConnectionStateChange(this.#pc);
    if (options.connections === 'dual') {
      const sub = new wrtc.RTCPeerConnection({ iceServers: [] });
      this.#sub = sub;
      sub.onicecandidate = (event) => this.#onIceCandidate(event, 'subscriber');
      sub.onconnectionstatechange = () => this.#onConnectionStateChange(sub);
      // The room's own channels, as a LiveKit server opens them on the subscriber connection.
      this.#useReliable(sub.createDataChannel('_reliable', { ordered: true }));
      sub.createDataChannel('_lossy', { ordered: false, maxRetransmits: 0 });
    }
  }

  /**
   * Answers an offer from the browser (on its publisher connection). On v1 the first one also gets
   * the agent's voice attached; on v0 the voice goes out on the subscriber connection (`offer`).
   */
  async answer(offerSdp: string): Promise<{ sdp: string; midToTrackId: Record<string, string> }> {
    await this.#pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
    // Each await may resume after close(): never touch a closed connection (libwebrtc is native code).
    this.#throwIfClosed();
    const agent = this.#options.agent;
    if (!this.#sub && agent && this.#agentTrack && this.#agentMid === null) {
      const mid = firstRecvonlyAudioMid(offerSdp);
      const transceiver = this.#pc.getTransceivers().find((candidate) => candidate.mid === mid);
      if (transceiver) {
        transceiver.direction = 'sendonly';
        await transceiver.sender.replaceTrack(this.#agentTrack);
        this.#throwIfClosed();
        // The msid the browser sees is `<participantSid>|<trackSid>`: livekit-client maps the track by it.
        const MediaStreamWithId = this.#wrtc.MediaStream as unknown as new (init: { id: string }) => MediaStream;
        transceiver.sender.setStreams(new MediaStreamWithId({ id: `${agent.participantSid}|${agent.trackSid}` }));
        this.#agentMid = mid;
        this.#startPump();
      }
    }
    const local = await this.#pc.createAnswer();
    this.#throwIfClosed();
    await this.#pc.setLocalDescription(local);
    this.#throwIfClosed();
    const midToTrackId: Record<string, string> = {};
    if (!this.#sub && agent && this.#agentMid !== null) midToTrackId[this.#agentMid] = agent.trackSid;
    return { sdp: this.#pc.localDescription?.sdp ?? '', midToTrackId };
  }

  /**
   * v0: the room's offer on the subscriber connection: the agent's voice (sendonly, stream id
   * `<participantSid>|<trackSid>`) and the room's data channels. Its `id` counts from 1.
   */
  async offer(): Promise<{ sdp: string; id: number; midToTrackId: Record<string, string> }> {
    const sub = this.#sub;
    if (!sub) throw new Error('a single-connection session has no subscriber connection');
    const agent = this.#options.agent;
    if (agent && this.#agentTrack && this.#agentMid === null) {
      const transceiver = sub.addTransceiver(this.#agentTrack, { direction: 'sendonly' });
      const MediaStreamWithId = this.#wrtc.MediaStream as unknown as new (init: { id: string }) => MediaStream;
      transceiver.sender.setStreams(new MediaStreamWithId({ id: `${agent.participantSid}|${agent.trackSid}` }));
      this.#agentMid = '';
    }
    const local = await sub.createOffer();
    this.#throwIfClosed();
    await sub.setLocalDescription(local);
    this.#throwIfClosed();
    const midToTrackId: Record<string, string> = {};
    if (agent && this.#agentMid !== null) {
      const mid = sub.getTransceivers().find((candidate) => candidate.sender.track === this.#agentTrack)?.mid ?? null;
      this.#agentMid = mid;
      if (mid !== null) midToTrackId[mid] = agent.trackSid;
      this.#startPump();
    }
    return { sdp: sub.localDescription?.sdp ?? '', id: ++this.#subscriberOffers, midToTrackId };
  }

  /** v0: the browser's answer to the room's subscriber offer. */
  async acceptAnswer(answerSdp: string): Promise<void> {
    if (this.#closed || !this.#sub) return;
    await this.#sub.setRemoteDescription({ type: 'answer', sdp: answerSdp });
  }

  async addRemoteCandidate(candidate: CandidateInit, transport: Transport = 'publisher'): Promise<void> {
    if (this.#closed || !isCandidateOn(candidate.candidate, this.#options.addresses)) return;
    const pc = transport === 'subscriber' ? this.#sub : this.#pc;
    await pc?.addIceCandidate(candidate);
  }

  /**
   * Sends on `_reliable` once it is open; until then packets wait in order. Nothing is sent once
   * the far side is going: libwebrtc's binding crashes (SIGSEGV in RTCDataChannel::Send) on a
   * send to a channel the far side is tearing down.
   */
  sendData(packet: Uint8Array): void {
    if (this.#closed || this.#farSideGone || this.#sendingStopped) return;
    const bytes = packet as Uint8Array<ArrayBuffer>;
    if (this.#reliable?.readyState === 'open') this.#send(this.#reliable, bytes);
    else this.#outbox.push(bytes);
  }

  /** A send the channel refuses (InvalidStateError: it is closing) means the far side is going. */
  #send(channel: RTCDataChannel, bytes: Uint8Array<ArrayBuffer>): void {
    try {
      channel.send(bytes);
    } catch {
      this.#farSideGone = true;
    }
  }

  /**
   * Resolves once `_reliable` has handed everything sent so far to the transport (or at `maxMs`):
   * closing the peer connection earlier discards what is still queued, e.g. a goodbye's final
   * transcription segment sent just before the agent hangs up.
   */
  async drained(maxMs: number): Promise<void> {
    const deadline = performance.now() + maxMs;
    while (
      !this.#closed &&
      this.#reliable?.readyState === 'open' &&
      this.#reliable.bufferedAmount > 0 &&
      performance.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /**
   * Plays 48 kHz mono PCM as the agent's voice. Resolves true when the last frame went out, false
   * when it was cut off (`stopSpeaking`, `close`). `progress` sees the milliseconds played so far.
   */
  play(samples: Int16Array, progress: (playedMs: number) => void = () => {}): Promise<boolean> {
    if (this.#closed || this.#audioStopped || !this.#source) return Promise.resolve(false);
    return new Promise((done) => {
      this.#speaking.push({ frames: toFrames(samples), next: 0, progress, done });
    });
  }

  stopSpeaking(): void {
    for (const utterance of this.#speaking.splice(0)) utterance.done(false);
  }

  /**
   * No more agent audio: cut off what is playing and stop feeding frames to the audio source. An
   * ending session calls it at once, while the data channel still delivers the goodbye: frames
   * pushed into libwebrtc while the far side tears its connection down are what to avoid.
   */
  stopAudio(): void {
    this.#audioStopped = true;
    this.stopSpeaking();
    clearInterval(this.#pump);
    this.#pump = undefined;
  }

  /**
   * The session is ending: no more audio and no new DataPackets (what was sent before still
   * drains, see `drained`). An ending session is often one whose caller is leaving at the same
   * moment (a hang-up through the API, then the page disconnects), and libwebrtc's binding can
   * crash on a send that meets the far side closing the channel: `RTCDataChannel::Send` checks
   * the channel, then uses it, while libwebrtc's thread clears it on the far side's close. So the
   * line a hang-up cuts off gets no final segment (a deleted LiveKit room delivers nothing more
   * either).
   */
  stopSending(): void {
    this.#sendingStopped = true;
    this.stopAudio();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.stopAudio();
    if (this.#reliable) {
      this.#reliable.onopen = null;
      this.#reliable.onclose = null;
    }
    for (const channel of this.#heard) channel.onmessage = null;
    for (const sink of this.#sinks) sink.stop();
    this.#agentTrack?.stop();
    this.#outbox = [];
    for (const pc of [this.#pc, this.#sub]) {
      if (!pc) continue;
      pc.onicecandidate = null;
      pc.ontrack = null;
      pc.ondatachannel = null;
      pc.onconnectionstatechange = null;
      pc.close();
    }
  }

  #throwIfClosed(): void {
    if (this.#closed) throw new Error('the peer connection was closed');
  }

  #startPump(): void {
    if (this.#closed || this.#audioStopped || this.#pump !== undefined) return;
    // The agent's track always carries audio (silence between lines), as a real agent's does.
    this.#pumpStart = performance.now();
    this.#framesSent = 0;
    this.#pump = setInterval(this.#tick, 10);
  }

  #tick = (): void => {
    const source = this.#source;
    if (!source || this.#closed || this.#audioStopped) return;
    const due = framesDue(this.#pumpStart, performance.now(), this.#framesSent);
    for (let i = 0; i < due; i++) {
      const utterance = this.#speaking[0];
      let samples: Int16Array = SILENCE;
      if (utterance) {
        samples = utterance.frames[utterance.next++] ?? SILENCE;
        utterance.progress(utterance.next * 10);
        if (utterance.next >= utterance.frames.length) {
          this.#speaking.shift();
          utterance.done(true);
        }
      }
      source.onData({
        samples,
        sampleRate: SAMPLE_RATE,
        bitsPerSample: 16,
        channelCount: 1,
        numberOfFrames: FRAME_SAMPLES,
      });
      this.#framesSent++;
    }
  };

  #onIceCandidate(event: RTCPeerConnectionIceEvent, transport: Transport): void {
    const candidate = event.candidate;
    if (!candidate || !isCandidateOn(candidate.candidate, this.#options.addresses)) return;
    this.#events.localCandidate(
      { candidate: candidate.candidate, sdpMid: candidate.sdpMid, sdpMLineIndex: candidate.sdpMLineIndex },
      transport,
    );
  }

  #onTrack = (event: RTCTrackEvent): void => {
    if (event.track.kind !== 'audio') return;
    const sink = new this.#wrtc.nonstandard.RTCAudioSink(event.track);
    sink.ondata = (data: { samples: Int16Array }) => {
      if (!this.#closed) this.#events.micFrame(peakLevel(data.samples));
    };
    this.#sinks.push(sink);
  };

  /** The browser's channels: on v1 its `_reliable` carries DataPackets both ways; on v0 only to the room. */
  #onDataChannel = (event: RTCDataChannelEvent): void => {
    const channel = event.channel;
    if (channel.label !== '_reliable') return;
    if (this.#sub) this.#hear(channel);
    else this.#useReliable(channel);
  };

  /** The channel the agent's DataPackets go out on (and, on v1, the caller's come in on). */
  #useReliable(channel: RTCDataChannel): void {
    this.#reliable = channel;
    channel.onclose = () => {
      this.#farSideGone = true;
    };
    if (!this.#sub) this.#hear(channel);
    const flush = () => {
      if (this.#closed || this.#farSideGone || this.#sendingStopped) return;
      for (const bytes of this.#outbox.splice(0)) this.#send(channel, bytes);
      this.#events.reliableOpen();
    };
    if (channel.readyState === 'open') flush();
    else channel.onopen = flush;
  }

  /** DataPackets the caller sends on `channel`. */
  #hear(channel: RTCDataChannel): void {
    this.#heard.push(channel);
    channel.onmessage = (message: MessageEvent) => {
      if (this.#closed) return;
      const payload: unknown = message.data;
      if (payload instanceof ArrayBuffer) this.#events.data(new Uint8Array(payload));
      else if (ArrayBuffer.isView(payload)) {
        this.#events.data(new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength));
      } else this.#events.data(new TextEncoder().encode(String(payload)));
    };
  }

  #onConnectionStateChange(pc: RTCPeerConnection): void {
    const state = pc.connectionState;
    if (state === 'failed' || state === 'closed') {
      // The far side is gone: nothing more to send it.
      this.#farSideGone = true;
      this.stopAudio();
      this.#events.connectionLost();
    }
  }
}

/** The mid of the first `m=audio` section the browser offered as recvonly (a placeholder for us). */
export function firstRecvonlyAudioMid(sdp: string): string | null {
  const sections = sdp.split(/\r?\n(?=m=)/).slice(1);
  for (const section of sections) {
    if (!section.startsWith('m=audio')) continue;
    if (!/\r?\na=recvonly/.test(section)) continue;
    const mid = /\r?\na=mid:(\S+)/.exec(section)?.[1];
    if (mid !== undefined) return mid;
  }
  return null;
}
