// Public types of a call, as fixed by the contract (CONTRACT.md §1).

export type CallState = 'idle' | 'starting' | 'connecting' | 'in-call' | 'reconnecting' | 'ending' | 'ended';

export type Speaker = 'AI' | 'HUMAN';

export interface TranscriptEntry {
  /** Stable: an interim entry keeps its id when it is updated and when it becomes final. */
  id: string;
  speaker: Speaker;
  text: string;
  final: boolean;
  startTimeMs?: number;
  endTimeMs?: number;
}

export type EndReason =
  | 'user-hangup'
  | 'agent-hangup'
  | 'timeout'
  | 'silence'
  | 'transferred'
  | 'busy'
  | 'cancelled'
  | 'failed'
  | 'network-lost'
  | 'agent-unavailable'
  | 'microphone-denied'
  | 'microphone-unavailable'
  | 'setup-failed'
  | 'element-removed'
  | 'page-unload';

export interface CallErrorInfo {
  code: string;
  message: string;
}

export interface CallResult {
  dialId: string | null;
  reason: EndReason;
  status?: string;
  systemResultType?: string | null;
  durationSeconds?: number | null;
  aiDurationSeconds?: number | null;
  startedAt?: string | null;
  endedAt?: string | null;
  transcript: TranscriptEntry[];
  aiResult?: Record<string, unknown> | null;
  error?: CallErrorInfo;
}

export type TranscriptMode = 'live' | 'poll' | 'off';

/** Options of one `CallSession`; every timer is configurable so tests can shorten it. */
export interface CallSessionOptions {
  /** Base URL of the companion endpoint, e.g. `/api/voice-call`. */
  endpoint: string;
  agent?: string;
  inputs?: Record<string, string>;
  transcript?: TranscriptMode;
  /** No agent in the room within this time → `agent-unavailable` (default 15000). */
  agentTimeoutMs?: number;
  /** No live transcript segment within this time after connecting → polling (default 4000). */
  liveTranscriptGraceMs?: number;
  /** Poll interval of `GET {endpoint}/dials/:id` (default 2000). */
  pollIntervalMs?: number;
  /** How long to read the final dial record after the media ends (default 5000). */
  resultTimeoutMs?: number;
  /** Timeout of one companion request (default 10000). */
  requestTimeoutMs?: number;
  /** Where the agent's audio element lives (the element passes its shadow root). */
  audioContainer?: Node;
}

/** Events `CallSession` emits (an `EventTarget`); the element re-dispatches them on itself. */
export interface CallSessionEventMap {
  'call-state': { state: CallState; previous: CallState };
  'call-connected': { dialId: string };
  'call-transcript': { entries: TranscriptEntry[]; changed: TranscriptEntry };
  'call-mute': { muted: boolean };
  'call-error': { code: string; message: string; recoverable: boolean };
  'call-ended': CallResult;
  /** Not a public element event: the agent is speaking or not (lk.agent.state or audio level). */
  'agent-speaking': { speaking: boolean };
  /** Not a public element event: the browser blocked audio playback; `unlockAudio()` fixes it. */
  'audio-blocked': { blocked: boolean };
}
