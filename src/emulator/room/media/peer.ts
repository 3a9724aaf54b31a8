// The ONLY module that touches native WebRTC (@roamhq/wrtc, libwebrtc). It is loaded lazily, on
// the first media session, so REST-only users of the emulator never load libwebrtc.
//
// One peer connection per session (livekit-client's v1 "single PC"): the browser offers, the room
// answers; the agent's voice goes out on the first audio section the browser left recvonly, the
// caller's microphone comes in through an RTCAudioSink, DataPackets go both ways on the browser's
// `_reliable` channel.
import type { RTCAudioSink, RTCAudioSource } from '@roamhq/wrtc/types/nonstandard.js';
import { explainMissingPeer } from '../../optional-peers.js';
import { isLoopbackCandidate, type CandidateInit } from '../protocol/responses.js';
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

export interface PeerEvents {
  /** A local ICE candidate, already filtered to 127.0.0.1. */
  localCandidate(candidate: CandidateInit): void;
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
  readonly #pc: RTCPeerConnection;
  readonly #source: RTCAudioSource | undefined;
  readonly #agentTrack: MediaStreamTrack | undefined;
  readonly #sinks: RTCAudioSink[] = [];
  #agentMid: string | null = null;
  #reliable: RTCDataChannel | undefined;
  #outbox: Uint8Array<ArrayBuffer>[] = [];
  #pump: ReturnType<typeof setInterval> | undefined;
  #pumpStart = 0;
  #framesSent = 0;
  #speaking: Utterance[] = [];
  #closed = false;
  #audioStopped = false;
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
    this.#pc.onicecandidate = this.#onIceCandidate;
    this.#pc.ontrack = this.#onTrack;
    this.#pc.ondatachannel = this.#onDataChannel;
    this.#pc.onconnectionstatechange = this.#onConnectionStateChange;
  }

  /** Answers an offer from the browser; the first one also gets the agent's voice attached. */
  async answer(offerSdp: string): Promise<{ sdp: string; midToTrackId: Record<string, string> }> {
    await this.#pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
    // Each await may resume after close(): never touch a closed connection (libwebrtc is native code).
    this.#throwIfClosed();
    const agent = this.#options.agent;
    if (agent && this.#agentTrack && this.#agentMid === null) {
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
    if (agent && this.#agentMid !== null) midToTrackId[this.#agentMid] = agent.trackSid;
    return { sdp: this.#pc.localDescription?.sdp ?? '', midToTrackId };
  }

  async addRemoteCandidate(candidate: CandidateInit): Promise<void> {
    if (this.#closed || !isLoopbackCandidate(candidate.candidate)) return;
    await this.#pc.addIceCandidate(candidate);
  }

  /**
   * Sends on `_reliable` once it is open; until then packets wait in order. Nothing is sent once
   * the far side is going: libwebrtc's binding crashes (SIGSEGV in RTCDataChannel::Send) on a
   * send to a channel the far side is tearing down.
   */
  sendData(packet: Uint8Array): void {
    if (this.#closed || this.#farSideGone) return;
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

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.stopAudio();
    if (this.#reliable) {
      this.#reliable.onopen = null;
      this.#reliable.onclose = null;
      this.#reliable.onmessage = null;
    }
    for (const sink of this.#sinks) sink.stop();
    this.#agentTrack?.stop();
    this.#outbox = [];
    this.#pc.onicecandidate = null;
    this.#pc.ontrack = null;
    this.#pc.ondatachannel = null;
    this.#pc.onconnectionstatechange = null;
    this.#pc.close();
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

  #onIceCandidate = (event: RTCPeerConnectionIceEvent): void => {
    const candidate = event.candidate;
    if (!candidate || !isLoopbackCandidate(candidate.candidate)) return;
    this.#events.localCandidate({
      candidate: candidate.candidate,
      sdpMid: candidate.sdpMid,
      sdpMLineIndex: candidate.sdpMLineIndex,
    });
  };

  #onTrack = (event: RTCTrackEvent): void => {
    if (event.track.kind !== 'audio') return;
    const sink = new this.#wrtc.nonstandard.RTCAudioSink(event.track);
    sink.ondata = (data: { samples: Int16Array }) => {
      if (!this.#closed) this.#events.micFrame(peakLevel(data.samples));
    };
    this.#sinks.push(sink);
  };

  #onDataChannel = (event: RTCDataChannelEvent): void => {
    const channel = event.channel;
    if (channel.label !== '_reliable') return;
    this.#reliable = channel;
    channel.onclose = () => {
      this.#farSideGone = true;
    };
    channel.onmessage = (message: MessageEvent) => {
      if (this.#closed) return;
      const payload: unknown = message.data;
      if (payload instanceof ArrayBuffer) this.#events.data(new Uint8Array(payload));
      else if (ArrayBuffer.isView(payload)) {
        this.#events.data(new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength));
      } else this.#events.data(new TextEncoder().encode(String(payload)));
    };
    const flush = () => {
      if (this.#closed || this.#farSideGone) return;
      for (const bytes of this.#outbox.splice(0)) this.#send(channel, bytes);
      this.#events.reliableOpen();
    };
    if (channel.readyState === 'open') flush();
    else channel.onopen = flush;
  };

  #onConnectionStateChange = (): void => {
    const state = this.#pc.connectionState;
    if (state === 'failed' || state === 'closed') {
      // The far side is gone: nothing more to send it.
      this.#farSideGone = true;
      this.stopAudio();
      this.#events.connectionLost();
    }
  };
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
