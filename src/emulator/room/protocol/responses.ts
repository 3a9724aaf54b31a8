// Pure builders of the SignalResponse messages the loopback room sends (binary protobuf on the
// WebSocket). Built from the exact @livekit/protocol copy livekit-client uses.
import {
  DisconnectReason,
  JoinResponse,
  LeaveRequest,
  LeaveRequest_Action,
  ParticipantInfo,
  ParticipantInfo_Kind,
  ParticipantInfo_State,
  ParticipantPermission,
  ParticipantUpdate,
  Pong,
  Room,
  ServerInfo,
  ServerInfo_Edition,
  SessionDescription,
  SignalResponse,
  SignalTarget,
  TrackInfo,
  TrackPublishedResponse,
  TrackSource,
  TrackType,
  TrickleRequest,
} from '@livekit/protocol';

/** Reported as the server version; livekit-client refuses a server with none. */
export const SERVER_VERSION = '1.9.0-voice-agent-emulator';
export const PING_INTERVAL_SECONDS = 5;
export const PING_TIMEOUT_SECONDS = 15;

/** `idle`: paused (`pauseAI`), LiveKit's own state for an agent that neither listens nor speaks. */
export type AgentState = 'initializing' | 'idle' | 'listening' | 'thinking' | 'speaking';

export interface AgentDescription {
  sid: string;
  identity: string;
  name: string;
  /** The agent's audio track sid, `TR_…`; the client maps the incoming stream by it. */
  trackSid: string;
  state: AgentState;
  /** Must grow with every update the client sees. */
  version: number;
  joinedAtMs: number;
}

export interface HumanDescription {
  sid: string;
  identity: string;
  joinedAtMs: number;
}

/** `left`: the agent is gone (state DISCONNECTED); livekit-client removes it from the room. */
export function agentInfo(agent: AgentDescription, options: { left?: boolean } = {}): ParticipantInfo {
  return new ParticipantInfo({
    sid: agent.sid,
    identity: agent.identity,
    name: agent.name,
    state: options.left ? ParticipantInfo_State.DISCONNECTED : ParticipantInfo_State.ACTIVE,
    kind: ParticipantInfo_Kind.AGENT,
    version: agent.version,
    joinedAt: BigInt(Math.floor(agent.joinedAtMs / 1000)),
    joinedAtMs: BigInt(agent.joinedAtMs),
    isPublisher: true,
    permission: new ParticipantPermission({ canPublish: true, canSubscribe: true, canPublishData: true, agent: true }),
    attributes: { 'lk.agent.state': agent.state },
    tracks: [
      new TrackInfo({
        sid: agent.trackSid,
        type: TrackType.AUDIO,
        source: TrackSource.MICROPHONE,
        name: 'agent-voice',
        mimeType: 'audio/opus',
      }),
    ],
  });
}

export function humanInfo(human: HumanDescription): ParticipantInfo {
  return new ParticipantInfo({
    sid: human.sid,
    identity: human.identity,
    state: ParticipantInfo_State.ACTIVE,
    kind: ParticipantInfo_Kind.STANDARD,
    version: 1,
    joinedAt: BigInt(Math.floor(human.joinedAtMs / 1000)),
    joinedAtMs: BigInt(human.joinedAtMs),
    permission: new ParticipantPermission({ canPublish: true, canSubscribe: true, canPublishData: true }),
  });
}

export function joinResponse(options: {
  roomSid: string;
  roomName: string;
  human: HumanDescription;
  agent?: AgentDescription;
  /**
   * v0: the subscriber connection is the primary one (as a LiveKit server tells a client that may
   * subscribe): the room offers it right after the join. v1 has one connection: false.
   */
  subscriberPrimary?: boolean;
}): SignalResponse {
  return new SignalResponse({
    message: {
      case: 'join',
      value: new JoinResponse({
        room: new Room({
          sid: options.roomSid,
          name: options.roomName,
          maxParticipants: 2,
          numParticipants: options.agent ? 2 : 1,
        }),
        participant: humanInfo(options.human),
        otherParticipants: options.agent ? [agentInfo(options.agent)] : [],
        serverVersion: SERVER_VERSION,
        serverInfo: new ServerInfo({ edition: ServerInfo_Edition.Standard, version: SERVER_VERSION, protocol: 16 }),
        iceServers: [],
        subscriberPrimary: options.subscriberPrimary ?? false,
        pingInterval: PING_INTERVAL_SECONDS,
        pingTimeout: PING_TIMEOUT_SECONDS,
      }),
    },
  });
}

export function answer(options: { sdp: string; id: number; midToTrackId: Record<string, string> }): SignalResponse {
  return new SignalResponse({
    message: {
      case: 'answer',
      value: new SessionDescription({
        type: 'answer',
        sdp: options.sdp,
        id: options.id,
        midToTrackId: options.midToTrackId,
      }),
    },
  });
}

/** v0: the room's offer on the subscriber connection (the agent's voice by mid, and its data channels). */
export function offer(options: { sdp: string; id: number; midToTrackId: Record<string, string> }): SignalResponse {
  return new SignalResponse({
    message: {
      case: 'offer',
      value: new SessionDescription({
        type: 'offer',
        sdp: options.sdp,
        id: options.id,
        midToTrackId: options.midToTrackId,
      }),
    },
  });
}

export interface CandidateInit {
  candidate: string;
  sdpMid?: string | null;
  sdpMLineIndex?: number | null;
}

/** A room ICE candidate for the caller's publisher connection (v1's only one) or its subscriber connection (v0). */
export function trickle(candidate: CandidateInit, target: SignalTarget = SignalTarget.PUBLISHER): SignalResponse {
  return new SignalResponse({
    message: {
      case: 'trickle',
      value: new TrickleRequest({ candidateInit: JSON.stringify(candidate), target }),
    },
  });
}

export function trackPublished(options: { cid: string; track: TrackInfo }): SignalResponse {
  return new SignalResponse({
    message: { case: 'trackPublished', value: new TrackPublishedResponse({ cid: options.cid, track: options.track }) },
  });
}

export function pong(lastPingTimestamp: bigint, nowMs: number): SignalResponse {
  return new SignalResponse({
    message: { case: 'pongResp', value: new Pong({ lastPingTimestamp, timestamp: BigInt(nowMs) }) },
  });
}

export function legacyPong(timestamp: bigint): SignalResponse {
  return new SignalResponse({ message: { case: 'pong', value: timestamp } });
}

export function participantUpdate(participants: ParticipantInfo[]): SignalResponse {
  return new SignalResponse({ message: { case: 'update', value: new ParticipantUpdate({ participants }) } });
}

/** The only way the room ends a session: without it the client keeps trying to resume. */
export function leave(reason: DisconnectReason): SignalResponse {
  return new SignalResponse({
    message: {
      case: 'leave',
      value: new LeaveRequest({ action: LeaveRequest_Action.DISCONNECT, reason, canReconnect: false }),
    },
  });
}

/** The client's ICE candidates are JSON in `TrickleRequest.candidateInit`. */
export function parseCandidateInit(json: string): CandidateInit | undefined {
  try {
    const value: unknown = JSON.parse(json);
    if (typeof value !== 'object' || value === null) return undefined;
    const { candidate, sdpMid, sdpMLineIndex } = value as Record<string, unknown>;
    if (typeof candidate !== 'string') return undefined;
    return {
      candidate,
      sdpMid: typeof sdpMid === 'string' ? sdpMid : null,
      sdpMLineIndex: typeof sdpMLineIndex === 'number' ? sdpMLineIndex : null,
    };
  } catch {
    return undefined;
  }
}

/**
 * The room's addresses only: a candidate is kept when it is a UDP candidate on one of `addresses`
 * (the addresses the room listens on; 127.0.0.1 by default), or empty (end of candidates).
 * Everything else (other interfaces, ::1, mDNS names, TCP) is dropped, both directions: a client on
 * this machine reaches the room on those addresses and no other.
 */
export function isCandidateOn(candidate: string, addresses: readonly string[]): boolean {
  if (candidate === '') return true;
  const parts = candidate.replace(/^candidate:/, '').split(' ');
  // foundation component protocol priority address port typ type …
  return parts[2]?.toLowerCase() === 'udp' && addresses.includes(parts[4] ?? '');
}

export { DisconnectReason };
