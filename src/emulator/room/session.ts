// One browser in one dial's room: the signal connection (requests handled strictly in order), the
// peer connection, the scripted agent, and every way the session can end.
import { randomBytes } from 'node:crypto';
import type { JoinRequest, SignalResponse } from '@livekit/protocol';
import { SignalRequest, TrackInfo, TrackSource, TrackType } from '@livekit/protocol';
import type { WebSocket } from 'ws';
import type { DialControl, DialEnd, DialSession, SystemResultType } from '../seam.js';
import { ALL_LINES, LINES, delay, scenarioFor, type AgentContext, type ListenResult, type ScenarioTimings } from '../agent/scenarios.js';
import { TurnDetector, type TurnOptions } from '../agent/turn-detector.js';
import { speech } from '../agent/voice.js';
import { Peer } from './media/peer.js';
import { growingPrefixes, transcriptionPackets } from './protocol/data-packets.js';
import {
  DisconnectReason,
  agentInfo,
  answer,
  leave,
  legacyPong,
  parseCandidateInit,
  participantUpdate,
  pong,
  trackPublished,
  trickle,
  joinResponse,
  type AgentDescription,
  type AgentState,
} from './protocol/responses.js';

export interface RoomTimings extends ScenarioTimings {
  turn: TurnOptions;
  /** `thinking` before a reply. */
  thinkMs: number;
  /** After a LeaveRequest, the WebSocket closes this much later (the client reads it first). */
  leaveCloseDelayMs: number;
  /** The most the agent talks after the time cap before the room closes. */
  timeUpLineMaxMs: number;
  /** emu-drop: how long after the drop the dial ends `failed`. */
  dropGraceMs: number;
}

export interface SessionHost {
  control: DialControl;
  timings: RoomTimings;
  /** The session ended; the room is free again (or `dropped`: refuse it from now on). */
  closed(session: Session, dropped: boolean): void;
}

const AGENT_IDENTITY = 'agent';

function id(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

export class Session implements AgentContext {
  readonly dial: DialSession;
  readonly #ws: WebSocket;
  readonly #join: JoinRequest;
  readonly #host: SessionHost;
  readonly #identity: string;
  readonly #humanSid = id('PA');
  readonly #agent: AgentDescription | undefined;
  readonly #abort = new AbortController();
  #peer: Peer | undefined;
  #chain: Promise<void> = Promise.resolve();
  #joinedAt = 0;
  #micTrackSid: string | undefined;
  #micMuted = false;
  #turns: TurnDetector;
  #agentStarted = false;
  #ended = false;
  #unsubscribe: () => void = () => {};

  constructor(ws: WebSocket, join: JoinRequest, identity: string, dial: DialSession, host: SessionHost) {
    this.#ws = ws;
    this.#join = join;
    this.#identity = identity;
    this.dial = dial;
    this.#host = host;
    this.#turns = new TurnDetector(host.timings.turn, performance.now());
    if (scenarioFor(dial.scenario).agentJoins) {
      this.#agent = {
        sid: id('PA'),
        identity: AGENT_IDENTITY,
        name: `Emulator agent (${dial.scenario})`,
        trackSid: id('TR'),
        state: 'initializing',
        version: 1,
        joinedAtMs: Date.now(),
      };
    }
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** Accepts the join: JoinResponse, the answer to the offer that came with it, the agent. */
  start(): void {
    this.#ws.on('message', this.#onMessage);
    this.#ws.on('close', this.#onClose);
    this.#ws.on('error', () => {}); // 'close' follows
    this.#unsubscribe = this.#host.control.onEnded(this.#onDialEnded);
    this.#enqueue(async () => {
      if (this.#agent) for (const line of ALL_LINES) void speech(line); // warm the voice cache
      this.#peer = await Peer.create(
        { agent: this.#agent ? { participantSid: this.#agent.sid, trackSid: this.#agent.trackSid } : undefined },
        {
          localCandidate: (candidate) => this.#send(trickle(candidate)),
          micFrame: this.#onMicFrame,
          reliableOpen: this.#onReliableOpen,
          connectionLost: () => this.#userLeft(),
        },
      );
      if (this.#ended) return this.#peer.close();
      this.#send(
        joinResponse({
          roomSid: id('RM'),
          roomName: this.dial.roomName,
          human: { sid: this.#humanSid, identity: this.#identity, joinedAtMs: Date.now() },
          agent: this.#agent,
        }),
      );
      const offer = this.#join.publisherOffer;
      if (offer) await this.#answer(offer.sdp, offer.id);
      this.#joinedAt = performance.now();
      this.#host.control.joined(this.dial.dialId);
    });
  }

  /** The server is closing: tell the browser and let go. */
  shutdown(): void {
    this.#finish({ leaveReason: DisconnectReason.SERVER_SHUTDOWN });
  }

  // ---- signal requests, one at a time ----

  #enqueue(task: () => Promise<void> | void): void {
    this.#chain = this.#chain.then(task).catch((error: unknown) => {
      if (this.#ended) return;
      process.stderr.write(`voice-agent-emulator: room ${this.dial.roomName}: ${String(error)}\n`);
    });
  }

  #onMessage = (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): void => {
    if (!isBinary) return; // livekit-client speaks binary protobuf
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    let request: SignalRequest;
    try {
      request = SignalRequest.fromBinary(bytes);
    } catch {
      return;
    }
    this.#enqueue(() => this.#handle(request));
  };

  async #handle(request: SignalRequest): Promise<void> {
    if (this.#ended) return;
    const message = request.message;
    switch (message.case) {
      case 'offer':
        return this.#answer(message.value.sdp, message.value.id);
      case 'trickle': {
        const candidate = parseCandidateInit(message.value.candidateInit);
        if (candidate) await this.#peer?.addRemoteCandidate(candidate);
        return;
      }
      case 'addTrack': {
        const track = new TrackInfo({
          sid: id('TR'),
          type: message.value.type,
          source: message.value.source,
          name: message.value.name,
          muted: message.value.muted,
        });
        if (track.type === TrackType.AUDIO && (track.source === TrackSource.MICROPHONE || !this.#micTrackSid)) {
          this.#micTrackSid = track.sid;
          this.#micMuted = message.value.muted;
        }
        this.#send(trackPublished({ cid: message.value.cid, track }));
        return;
      }
      case 'mute':
        if (message.value.sid === this.#micTrackSid) this.#micMuted = message.value.muted;
        return;
      case 'pingReq':
        this.#send(pong(message.value.timestamp, Date.now()));
        return;
      case 'ping':
        this.#send(legacyPong(message.value));
        return;
      case 'leave':
        this.#userLeft();
        return;
      default:
        // subscriptionPermission, trackSetting, syncState, …: nothing for a two-party room to do.
        return;
    }
  }

  async #answer(sdp: string, offerId: number): Promise<void> {
    if (!this.#peer) return;
    const local = await this.#peer.answer(sdp);
    this.#send(answer({ sdp: local.sdp, id: offerId, midToTrackId: local.midToTrackId }));
  }

  #send(response: SignalResponse): void {
    if (this.#ws.readyState === this.#ws.OPEN) this.#ws.send(response.toBinary());
  }

  // ---- how a session ends ----

  #onClose = (): void => this.#userLeft();

  /** The browser left (`leave` request, WebSocket or peer connection gone): USER_HANGUP. */
  #userLeft(): void {
    if (this.#ended) return;
    this.#host.control.end(this.dial.dialId, { status: 'completed', systemResultType: 'USER_HANGUP' });
    this.#finish({});
  }

  #onDialEnded = (dialId: string, end: DialEnd): void => {
    if (dialId !== this.dial.dialId || this.#ended) return;
    if (end.systemResultType === 'TIMEOUT' && this.#agent) {
      void this.#sayTimeUpThenLeave();
      return;
    }
    this.#finish({ leaveReason: DisconnectReason.ROOM_DELETED });
  };

  async #sayTimeUpThenLeave(): Promise<void> {
    this.#abort.abort(new DOMException('time is up', 'AbortError'));
    this.#peer?.stopSpeaking();
    const timeUp = this.#sayUnguarded(LINES.timeUp).catch(() => {});
    const cap = new Promise((resolve) => setTimeout(resolve, this.#host.timings.timeUpLineMaxMs).unref());
    await Promise.race([timeUp, cap]);
    this.#finish({ leaveReason: DisconnectReason.ROOM_DELETED });
  }

  #finish(options: { leaveReason?: DisconnectReason; dropped?: boolean }): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#abort.abort(new DOMException('the room closed', 'AbortError'));
    this.#unsubscribe();
    this.#ws.off('message', this.#onMessage);
    this.#ws.off('close', this.#onClose);
    if (options.dropped) {
      this.#ws.terminate();
    } else if (options.leaveReason !== undefined && this.#ws.readyState === this.#ws.OPEN) {
      this.#send(leave(options.leaveReason));
      setTimeout(() => this.#ws.close(), this.#host.timings.leaveCloseDelayMs).unref();
    } else {
      this.#ws.close();
    }
    this.#peer?.close();
    this.#host.closed(this, options.dropped === true);
  }

  // ---- the agent ----

  #onReliableOpen = (): void => {
    if (this.#agentStarted || !this.#agent) return;
    this.#agentStarted = true;
    this.#setAgentState('listening');
    scenarioFor(this.dial.scenario)
      .run(this, this.#host.timings)
      .catch((error: unknown) => {
        if (this.#ended || (error instanceof DOMException && error.name === 'AbortError')) return;
        process.stderr.write(`voice-agent-emulator: agent ${this.dial.scenario}: ${String(error)}\n`);
      });
  };

  #sinceJoin(): number {
    return Math.max(0, Math.round(performance.now() - this.#joinedAt));
  }

  #setAgentState(state: AgentState): void {
    const agent = this.#agent;
    if (!agent || agent.state === state || this.#ended) return;
    agent.state = state;
    agent.version++;
    this.#send(participantUpdate([agentInfo(agent)]));
  }

  #publishTranscript(options: { segmentId: string; trackSid: string; text: string; final: boolean }): void {
    for (const packet of transcriptionPackets({
      streamId: id('TS'),
      segmentId: options.segmentId,
      trackSid: options.trackSid,
      senderIdentity: AGENT_IDENTITY,
      text: options.text,
      final: options.final,
      timestampMs: Date.now(),
    })) {
      this.#peer?.sendData(packet.toBinary());
    }
  }

  async say(text: string): Promise<void> {
    this.signal.throwIfAborted();
    await this.#sayUnguarded(text);
    this.signal.throwIfAborted();
  }

  async #sayUnguarded(text: string): Promise<void> {
    const agent = this.#agent;
    const peer = this.#peer;
    if (!agent || !peer) return;
    const samples = await speech(text);
    const segmentId = id('SG');
    const words = growingPrefixes(text);
    const durationMs = (samples.length / 48_000) * 1000;
    const startTimeMs = this.#sinceJoin();
    let shown = 0;
    this.#setAgentState('speaking');
    const completed = await peer.play(samples, (playedMs) => {
      // The line appears word by word as it is heard; the last word comes with the final segment.
      const due = Math.min(words.length - 1, Math.floor((playedMs / durationMs) * words.length) + 1);
      if (due > shown) {
        shown = due;
        this.#publishTranscript({ segmentId, trackSid: agent.trackSid, text: words[due - 1]!, final: false });
      }
    });
    const spoken = completed ? text : (words[shown - 1] ?? '');
    if (spoken) {
      this.#publishTranscript({ segmentId, trackSid: agent.trackSid, text: spoken, final: true });
      this.#host.control.addTranscript(this.dial.dialId, { text: spoken, speaker: 'AI', startTimeMs, endTimeMs: this.#sinceJoin() });
    }
    this.#setAgentState('listening');
  }

  async think(): Promise<void> {
    this.#setAgentState('thinking');
    await delay(this.#host.timings.thinkMs, this.signal);
  }

  listen(options: { timeoutMs?: number; silenceMs?: number } = {}): Promise<ListenResult> {
    this.signal.throwIfAborted();
    this.#setAgentState('listening');
    const startedAt = performance.now();
    this.#turns.reset(startedAt);
    return new Promise<ListenResult>((resolve, reject) => {
      let segmentId: string | undefined;
      let turnStartMs = 0;
      const settle = (result: ListenResult | Error) => {
        clearInterval(timer);
        this.#micListener = undefined;
        this.signal.removeEventListener('abort', onAbort);
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      const turnEnded = (durationMs: number): void => {
        const text = `(caller spoke, ${(durationMs / 1000).toFixed(1)} s)`;
        if (segmentId && this.#micTrackSid) this.#publishTranscript({ segmentId, trackSid: this.#micTrackSid, text, final: true });
        this.#host.control.addTranscript(this.dial.dialId, {
          text,
          speaker: 'HUMAN',
          startTimeMs: turnStartMs,
          endTimeMs: turnStartMs + Math.round(durationMs),
        });
        settle({ kind: 'turn', durationMs });
      };
      const onAbort = () => settle(this.signal.reason instanceof Error ? this.signal.reason : new Error('aborted'));
      this.#micListener = (started) => {
        if (!started) return;
        segmentId = id('SG');
        turnStartMs = this.#sinceJoin();
        if (this.#micTrackSid) this.#publishTranscript({ segmentId, trackSid: this.#micTrackSid, text: '(caller speaking…)', final: false });
      };
      const timer = setInterval(() => {
        const now = performance.now();
        const ended = this.#turns.tick(now);
        if (ended !== undefined) return turnEnded(ended);
        if (options.timeoutMs !== undefined && now - startedAt >= options.timeoutMs) {
          const cut = this.#turns.cut(now);
          return cut !== undefined ? turnEnded(cut) : settle({ kind: 'timeout' });
        }
        if (options.silenceMs !== undefined) {
          const silentMs = this.#turns.silentForMs(now);
          if (silentMs >= options.silenceMs) settle({ kind: 'silence', silentMs });
        }
      }, 50);
      this.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  #micListener: ((started: boolean) => void) | undefined;

  #onMicFrame = (peak: number): void => {
    if (!this.#micListener) return; // nobody listens while the agent talks
    const started = this.#turns.frame(this.#micMuted ? 0 : peak, performance.now()) === 'started';
    this.#micListener(started);
  };

  hangup(systemResultType: SystemResultType, aiResult?: Record<string, unknown>): void {
    if (this.#ended) return;
    if (aiResult) this.#host.control.setAiResult(this.dial.dialId, aiResult);
    const control = this.#host.control;
    const dialId = this.dial.dialId;
    this.#finish({ leaveReason: DisconnectReason.ROOM_DELETED });
    control.end(dialId, { status: 'completed', systemResultType });
  }

  drop(): void {
    this.#finish({ dropped: true });
  }
}
