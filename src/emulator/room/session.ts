// One caller in one dial's room: the signal connection (requests handled strictly in order), the
// peer connection(s) (one on the v1 signal path, publisher + subscriber on v0), the agent
// participant, and every way the session can end.
import type { JoinRequest, ParticipantInfo, SignalResponse } from '@livekit/protocol';
import { SignalRequest, SignalTarget, TrackInfo, TrackSource, TrackType } from '@livekit/protocol';
import type { WebSocket } from 'ws';
import type { DialEnd, DialSession, MediaControl, SystemResultType } from '../seam.js';
import { ALL_LINES, LINES, scenarioFor } from '../agent/scenarios.js';
import { speech } from '../agent/voice.js';
import { AgentParticipant, newId, type AgentSessionPort } from './agent-participant.js';
import type { RoomTimings } from './timings.js';
import { IgnoredPacketLog } from './ignored-packet-log.js';
import { Peer, type Transport } from './media/peer.js';
import { readCallerPacket } from './protocol/data-packets.js';
import { startQualityReports } from './quality-reports.js';
import {
  DisconnectReason,
  answer,
  joinResponse,
  leave,
  legacyPong,
  offer,
  parseCandidateInit,
  participantUpdate,
  pong,
  trackPublished,
  trickle,
} from './protocol/responses.js';

export interface SessionHost {
  control: MediaControl;
  timings: RoomTimings;
  /** The addresses the room listens on: ICE candidates are exchanged on these only. */
  addresses(): readonly string[];
  /**
   * The session ended; the room is free again. `dropped`: the connection dropped without a goodbye,
   * `for good` (refuse the room from now on) or `once` (take the caller's rejoin as the same dial).
   */
  closed(session: Session, dropped: Dropped | undefined): void;
  /** Work still finishing after `closed` (the goodbye leaving, then the peer closing); awaited on shutdown. */
  lingering: Set<Promise<void>>;
  /** One line for the emulator's log (how a caller's connection ended, say). */
  log(line: string): void;
}

/**
 * `away`: the caller's page went away without a leave (WebSocket closed 1001, "going away"); its next
 * page may rejoin. `lost`: its signal connection dropped without a close frame (1006); it may come
 * back until the room's departure timeout ends the dial.
 */
export type Dropped = 'for good' | 'once' | 'away' | 'lost';

/**
 * The LiveKit signal path the caller came in on: `v1` (`/rtc/v1`, one peer connection, the offer
 * with the join) or `v0` (`/rtc`, a publisher and a subscriber connection; the room offers the
 * subscriber connection after the JoinResponse).
 */
export type SignalPath = 'v0' | 'v1';

/**
 * Milliseconds since the epoch, monotonic within a process: a join time that a room process started
 * again after a crash still reads on the same clock (a plain `performance.now()` restarts at 0 there).
 */
export const wallClock = (): number => performance.timeOrigin + performance.now();

/** A session that takes over a dial whose connection dropped (emu-blip, a page gone, a room process crash). */
export interface Rejoin {
  /** The first session's join time: the dial transcript's clock goes on from there. */
  joinedAt: number;
  /** The caller comes back after its page went away (a `persist` page): the agent carries on. */
  away?: true;
}

/**
 * The most signal requests one socket may have waiting (they are handled one at a time). A
 * LiveKit client has a few in flight (an offer, its trickled candidates, a ping); a socket past
 * this sends faster than the room answers, so it is closed (1008) instead of queueing without
 * bound in the process every call shares.
 */
export const MAX_QUEUED_SIGNAL_REQUESTS = 256;

const SIGNAL_TARGETS: Readonly<Record<Transport, SignalTarget>> = {
  publisher: SignalTarget.PUBLISHER,
  subscriber: SignalTarget.SUBSCRIBER,
};

export class Session {
  readonly dial: DialSession;
  readonly #ws: WebSocket;
  readonly #join: JoinRequest;
  readonly #path: SignalPath;
  readonly #host: SessionHost;
  readonly #identity: string;
  readonly #agent: AgentParticipant | undefined;
  readonly #rejoin: Rejoin | undefined;
  readonly #ignoredPackets: IgnoredPacketLog;
  #peer: Peer | undefined;
  #chain: Promise<void> = Promise.resolve();
  /** Requests enqueued and not yet handled. */
  #queued = 0;
  #joinedAt = 0;
  #micTrackSid: string | undefined;
  #micMuted = false;
  #ended = false;
  #peerLostTimer: NodeJS.Timeout | undefined;
  /** The agent left (emu-agent-leaves): the dial is over, the caller stays until it leaves. */
  #agentGone = false;
  #unsubscribe: () => void = () => {};
  #stopQualityReports: () => void = () => {};

  constructor(
    ws: WebSocket,
    join: JoinRequest,
    path: SignalPath,
    identity: string,
    dial: DialSession,
    host: SessionHost,
    rejoin?: Rejoin,
  ) {
    this.#ws = ws;
    this.#rejoin = rejoin;
    this.#join = join;
    this.#path = path;
    this.#identity = identity;
    this.dial = dial;
    this.#host = host;
    this.#ignoredPackets = new IgnoredPacketLog(
      (line) => process.stderr.write(`voice-agent-emulator: room ${dial.roomName}: ${line}\n`),
      host.timings.ignoredPacketLogMs,
    );
    if (scenarioFor(dial.scenario).agentJoins) {
      this.#agent = new AgentParticipant(this.#agentPort());
      if (dial.aiPaused) this.#agent.pause(true);
      // A rejoin after the transfer finds the person, not the agent.
      if (dial.transferred) this.#agent.transfer();
    }
  }

  /** Accepts the join: JoinResponse, the answer to the offer that came with it, the agent. */
  start(): void {
    this.#ws.on('message', this.#onMessage);
    this.#ws.on('close', this.#onClose);
    this.#ws.on('error', this.#onSocketError);
    this.#unsubscribe = this.#host.control.onEnded(this.#onDialEnded);
    this.#enqueue(async () => {
      if (this.#agent) {
        // Warm the voice cache.
        for (const line of [...ALL_LINES, ...(scenarioFor(this.dial.scenario).ownLines ?? [])]) void speech(line);
      }
      const agent = this.#agent?.description;
      this.#peer = await Peer.create(
        {
          agent: agent && { participantSid: agent.sid, trackSid: agent.trackSid },
          connections: this.#path === 'v0' ? 'dual' : 'single',
          addresses: this.#host.addresses(),
        },
        {
          localCandidate: (candidate, transport) => this.#send(trickle(candidate, SIGNAL_TARGETS[transport])),
          micFrame: (peak) => this.#agent?.micFrame(peak),
          reliableOpen: () => this.#agent?.start(),
          data: (bytes) => this.#onData(bytes),
          connectionLost: () => this.#peerLost(),
        },
      );
      if (this.#ended) return this.#peer.close();
      const callerSid = newId('PA');
      this.#send(
        joinResponse({
          roomSid: newId('RM'),
          roomName: this.dial.roomName,
          human: { sid: callerSid, identity: this.#identity, joinedAtMs: Date.now() },
          agent,
          subscriberPrimary: this.#path === 'v0',
        }),
      );
      this.#stopQualityReports = startQualityReports({
        intervalMs: this.#host.timings.qualityIntervalMs,
        scenario: this.dial.scenario,
        callerSid,
        agentSid: agent?.sid,
        send: (response) => this.#send(response),
      });
      const publisherOffer = this.#join.publisherOffer;
      if (publisherOffer) await this.#answer(publisherOffer.sdp, publisherOffer.id);
      if (this.#path === 'v0') {
        // As a LiveKit server does for a subscriber-primary client: the room's offer follows the join.
        const local = await this.#peer.offer();
        this.#send(offer(local));
      }
      this.#joinedAt = this.#rejoin?.joinedAt ?? wallClock();
      // Harmless on a rejoin: the dial is in progress already.
      this.#host.control.joined(this.dial.dialId);
    });
  }

  /** The caller's participant identity (from its token). */
  get identity(): string {
    return this.#identity;
  }

  /**
   * A new connection with this caller's identity takes the room over, as on a LiveKit server: this
   * one is told DUPLICATE_IDENTITY and let go, the dial goes on. Returns what the newcomer carries
   * on (the transcript clock), or nothing when this one had not finished joining.
   */
  replace(): Rejoin | undefined {
    const joinedAt = this.#joinedAt;
    this.#finish({ leaveReason: DisconnectReason.DUPLICATE_IDENTITY });
    return joinedAt > 0 ? { joinedAt } : undefined;
  }

  /** When the caller first joined this dial's room (`wallClock()`, so it holds in a restarted room process), once joined. */
  get joinedAt(): number {
    return this.#joinedAt;
  }

  /** `pauseAI`: the agent goes silent at once, or comes back. */
  pauseAgent(paused: boolean): void {
    if (!this.#ended) this.#agent?.pause(paused);
  }

  /** `hangupCall` with a `transferNumber`: the agent's part ends and the person takes the call. */
  transferAgent(): void {
    if (!this.#ended) this.#agent?.transfer();
  }

  /** The server is closing: tell the caller and let go. */
  shutdown(): void {
    this.#finish({ leaveReason: DisconnectReason.SERVER_SHUTDOWN });
  }

  #agentPort(): AgentSessionPort {
    return {
      dialId: this.dial.dialId,
      scenario: this.dial.scenario,
      control: this.#host.control,
      timings: this.#host.timings,
      rejoined: this.#rejoin !== undefined,
      returned: this.#rejoin?.away === true,
      peer: () => this.#peer,
      sinceJoin: () => Math.max(0, Math.round(wallClock() - this.#joinedAt)),
      micTrackSid: () => this.#micTrackSid,
      micMuted: () => this.#micMuted,
      sendUpdate: (info: ParticipantInfo) => {
        if (!this.#ended) this.#send(participantUpdate([info]));
      },
      hangup: (systemResultType, aiResult) => this.#agentHungUp(systemResultType, aiResult),
      drop: () => this.#finish({ dropped: 'for good' }),
      blip: () => this.#finish({ dropped: 'once' }),
      left: () => this.#agentLeft(),
      shutDown: () => this.#serverShutDown(),
    };
  }

  // ---- signal requests, one at a time ----

  #enqueue(task: () => Promise<void> | void): void {
    this.#queued += 1;
    this.#chain = this.#chain
      .then(task)
      .catch((error: unknown) => {
        if (this.#ended) return;
        process.stderr.write(`voice-agent-emulator: room ${this.dial.roomName}: ${String(error)}\n`);
      })
      .finally(() => {
        this.#queued -= 1;
      });
  }

  #onMessage = (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): void => {
    if (!isBinary || this.#ws.readyState !== this.#ws.OPEN) return; // livekit-client speaks binary protobuf
    if (this.#queued >= MAX_QUEUED_SIGNAL_REQUESTS) {
      // The 'close' that follows ends the call as the caller leaving.
      this.#ws.close(1008, 'too many signal requests waiting');
      return;
    }
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
      case 'answer':
        // v0: the browser's answer to the room's subscriber offer.
        await this.#peer?.acceptAnswer(message.value.sdp);
        return;
      case 'trickle': {
        const candidate = parseCandidateInit(message.value.candidateInit);
        const transport: Transport = message.value.target === SignalTarget.SUBSCRIBER ? 'subscriber' : 'publisher';
        if (candidate) await this.#peer?.addRemoteCandidate(candidate, transport);
        return;
      }
      case 'addTrack': {
        const track = new TrackInfo({
          sid: newId('TR'),
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
        this.#callerLeft('LeaveRequest');
        return;
      default:
        // subscriptionPermission, trackSetting, syncState, …: nothing for a two-party room to do.
        return;
    }
  }

  /** A DataPacket from the caller: keypad digits go to the agent, broken packets to the (throttled) log. */
  #onData(bytes: Uint8Array): void {
    if (this.#ended) return;
    const packet = readCallerPacket(bytes);
    if (packet.kind === 'keypad') this.#agent?.keypad(packet.digit);
    else if (packet.kind === 'invalid') this.#ignoredPackets.note(packet.reason);
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

  /**
   * The signal connection closed. A browser closes it with 1001 ("going away") when its page
   * unloads: without a LeaveRequest first, the caller may come back from the site's next page
   * (`persist`), so the dial is kept and the agent waits (docs/emulator.md, "What the emulator
   * invents"). Any other close is the caller leaving.
   */
  #onClose = (code: number): void => {
    if (code === 1001) this.#callerAway();
    else if (code === 1006) this.#callerLost();
    else this.#callerLeft(`signal socket closed ${code}`);
  };

  /**
   * The signal connection dropped without a close frame (1006: a network gone, or a browser tearing
   * down a page's socket without the closing handshake). Not a leave: like a LiveKit server, the room
   * keeps the caller's place until its departure timeout, and a rejoin meanwhile takes the dial up.
   */
  #callerLost(): void {
    if (this.#ended) return;
    const { departureTimeoutMs } = this.#host.timings;
    this.#host.log(
      `media room: ${this.#identity} lost from ${this.dial.roomName} (signal socket closed 1006, no close frame); its dial waits ${departureTimeoutMs} ms for a rejoin`,
    );
    this.#finish({ dropped: 'lost' });
  }

  #callerAway(): void {
    if (this.#ended) return;
    this.#host.log(`media room: ${this.#identity} away from ${this.dial.roomName} (signal socket closed 1001)`);
    this.#finish({ dropped: 'away' });
  }

  #onSocketError = (): void => {}; // 'close' follows

  /**
   * The caller's peer connection closed. A page going away closes it and its signal socket at once,
   * and the room may hear either first: the socket's close code decides (1001: away; 1006: lost), so
   * the room waits a moment for it. A socket still open after that is a caller gone: USER_HANGUP.
   */
  #peerLost(): void {
    if (this.#ended || this.#ws.readyState !== this.#ws.OPEN || this.#peerLostTimer) return;
    const { peerLostGraceMs } = this.#host.timings;
    this.#host.log(
      `media room: ${this.#identity}'s peer connection closed; waiting ${peerLostGraceMs} ms for its signal socket`,
    );
    this.#peerLostTimer = setTimeout(() => {
      if (this.#ws.readyState === this.#ws.OPEN)
        this.#callerLeft('its peer connection closed and its signal socket stayed open');
    }, peerLostGraceMs);
    this.#peerLostTimer.unref();
  }

  /** The caller left (`leave` request, WebSocket or peer connection gone): USER_HANGUP. */
  #callerLeft(why: string): void {
    if (this.#ended) return;
    this.#host.log(`media room: ${this.#identity} left ${this.dial.roomName} (${why})`);
    this.#host.control.end(this.dial.dialId, { status: 'completed', systemResultType: 'USER_HANGUP' });
    this.#finish({});
  }

  #agentHungUp(systemResultType: SystemResultType, aiResult?: Record<string, unknown>): void {
    if (this.#ended) return;
    const { control } = this.#host;
    if (aiResult) control.setAiResult(this.dial.dialId, aiResult);
    this.#finish({
      leaveReason: DisconnectReason.ROOM_DELETED,
      then: () => control.end(this.dial.dialId, { status: 'completed', systemResultType }),
    });
  }

  /**
   * The agent left without a goodbye: the service records the dial `failed` / `FAILED` at once
   * (before the caller could leave and make it USER_HANGUP); the room stays open for the caller.
   */
  #agentLeft(): void {
    if (this.#ended || this.#agentGone) return;
    this.#agentGone = true;
    this.#host.control.end(this.dial.dialId, { status: 'failed', systemResultType: 'FAILED' });
  }

  /** The media server goes away mid-call: a LeaveRequest SERVER_SHUTDOWN, the dial `failed`. */
  #serverShutDown(): void {
    if (this.#ended) return;
    const { control } = this.#host;
    this.#finish({
      leaveReason: DisconnectReason.SERVER_SHUTDOWN,
      then: () => control.end(this.dial.dialId, { status: 'failed', systemResultType: 'FAILED' }),
    });
  }

  /** The dial ended elsewhere: a REST hang-up, or the time cap (the agent says so first). */
  #onDialEnded = (dialId: string, end: DialEnd): void => {
    if (dialId !== this.dial.dialId || this.#ended || this.#agentGone) return;
    if (end.systemResultType === 'TIMEOUT' && this.#agent) {
      void this.#timeUp(this.#agent);
      return;
    }
    this.#finish({ leaveReason: DisconnectReason.ROOM_DELETED });
  };

  async #timeUp(agent: AgentParticipant): Promise<void> {
    agent.stop();
    const line = agent.sayLastLine(LINES.timeUp).catch(() => {});
    const cap = new Promise((resolve) => setTimeout(resolve, this.#host.timings.timeUpLineMaxMs).unref());
    await Promise.race([line, cap]);
    this.#finish({ leaveReason: DisconnectReason.ROOM_DELETED });
  }

  /**
   * Ends the session. `then` runs once the caller has been told (right after the LeaveRequest is
   * sent, or at once when there is none): the room ends the dial it closes only after saying so, so
   * a caller learns how the room ended from the room itself, not from the dial's status racing it.
   */
  #finish(options: { leaveReason?: DisconnectReason; dropped?: Dropped; then?: () => void }): void {
    if (this.#ended) return;
    this.#ended = true;
    clearTimeout(this.#peerLostTimer);
    this.#stopQualityReports();
    let told = false;
    const then = () => {
      if (told) return;
      told = true;
      options.then?.();
    };
    // Nothing new goes out now (see Peer.stopSending), not even the final words of a line this cuts
    // off; what was sent already (a goodbye's final transcription) still drains before the leave.
    this.#peer?.stopSending();
    this.#agent?.stop();
    this.#ignoredPackets.close();
    this.#unsubscribe();
    this.#ws.off('message', this.#onMessage);
    this.#ws.off('close', this.#onClose);
    if (options.dropped) {
      this.#ws.terminate();
    } else if (options.leaveReason !== undefined && this.#ws.readyState === this.#ws.OPEN) {
      // What the agent sent last (a goodbye's final transcription) reaches the caller before the
      // LeaveRequest, as a real room delivers it; the peer connection closes after both.
      const peer = this.#peer;
      const leaveReason = options.leaveReason;
      const { leaveCloseDelayMs } = this.#host.timings;
      // Once handed over, the data still crosses SCTP: like a real service, which removes the room a
      // moment after the agent's last words, the LeaveRequest follows after a short pause.
      const goodbye = (peer ? peer.drained(leaveCloseDelayMs * 4) : Promise.resolve())
        .then(() => (peer ? new Promise((resolve) => setTimeout(resolve, leaveCloseDelayMs)) : undefined))
        .then(() => {
          if (this.#ws.readyState === this.#ws.OPEN) this.#send(leave(leaveReason));
          then();
          return new Promise<void>((resolve) => setTimeout(resolve, leaveCloseDelayMs));
        })
        .finally(() => {
          then();
          this.#ws.close();
          peer?.close();
          this.#host.lingering.delete(goodbye);
        });
      this.#host.lingering.add(goodbye);
      this.#host.closed(this, options.dropped);
      return;
    } else {
      this.#ws.close();
    }
    then();
    this.#peer?.close();
    this.#host.closed(this, options.dropped);
  }
}
