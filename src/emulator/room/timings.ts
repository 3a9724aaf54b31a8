// The room's timings, in a module of their own so that the public types of
// `voice-agent-call/emulator` do not reach the native WebRTC module's types.
import type { ScenarioTimings } from '../agent/scenarios.js';
import type { TurnOptions } from '../agent/turn-detector.js';

export interface AgentTimings extends ScenarioTimings {
  turn: TurnOptions;
  /** `thinking` before a reply. */
  thinkMs: number;
}

export interface RoomTimings extends AgentTimings {
  /** After a LeaveRequest, the WebSocket closes this much later (the client reads it first). */
  leaveCloseDelayMs: number;
  /** The most the agent talks after the time cap before the room closes. */
  timeUpLineMaxMs: number;
  /** emu-drop: how long after the drop the dial ends `failed`. */
  dropGraceMs: number;
  /** emu-blip: how long the room waits for the caller's rejoin before the dial ends `failed`. */
  rejoinGraceMs: number;
  /** The shortest time between two stderr lines about one caller's ignored data packets. */
  ignoredPacketLogMs: number;
  /** How often the room sends each caller the connection-quality update (LiveKit's 5 s). */
  qualityIntervalMs: number;
  /**
   * A caller's peer connection closed while its signal socket is still open: how long the room
   * waits for that socket's close (1001, a page going away, keeps the dial) before taking the
   * caller as gone (USER_HANGUP).
   */
  peerLostGraceMs: number;
  /**
   * A caller whose signal connection dropped without a close frame (1006) keeps its place this long
   * (LiveKit's `departure_timeout`, 20 s by default); a rejoin meanwhile takes the dial up, else the
   * dial ends `completed` / `USER_HANGUP`.
   */
  departureTimeoutMs: number;
}

/** emu-drop's default `dropGraceMs`. */
export const DEFAULT_DROP_GRACE_MS = 2000;
/** emu-blip's default `rejoinGraceMs`, also how long a call a media room crash dropped waits for its caller. */
export const DEFAULT_REJOIN_GRACE_MS = 10_000;
