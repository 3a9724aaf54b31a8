// Public types of a call (README: "Types"). A change here is a change to the public API.
import type { CallCapability } from './capabilities.js';
import type { CallErrorCode } from './error-codes.js';
import type { OptionalFeatureName } from '../features/registry.js';

export type CallState = 'idle' | 'starting' | 'connecting' | 'in-call' | 'reconnecting' | 'ending' | 'ended';

export type Speaker = 'AI' | 'HUMAN';

/** Talk to a person, in the current call: not asked, asked for, handed over, or refused. */
export type TransferState = 'none' | 'requested' | 'connected' | 'failed';

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
  | 'page-unload'
  /** Another tab of this site took the call up (a duplicated tab with `persist`): this one let go, hanging nothing up. */
  | 'moved'
  /** The browser lacks something a call needs (`CallErrorInfo.missing` says what): no microphone prompt, no dial. */
  | 'unsupported-browser';

/**
 * A line of the service's live transcript that is not speech: a function result, an IVR line or a
 * node transition (`watchLiveTranscriptEvents` roles other than AI and HUMAN). Not shown, kept in
 * the result.
 */
export interface NonSpeechLine {
  role: 'FUNCTION_RESULT' | 'IVR' | 'NODE_TRANSITION';
  text: string;
  startTimeMs?: number;
  endTimeMs?: number;
  functionCalls?: { name: string; arguments: string }[];
}

export interface CallErrorInfo {
  /** What failed (README "Error codes"). */
  code: CallErrorCode;
  message: string;
  /** With `unsupported_browser`: what the browser lacks. */
  missing?: CallCapability[];
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
  /** The service's non-speech transcript lines, in arrival order; present only when some arrived. */
  nonSpeechLines?: NonSpeechLine[];
  /**
   * When the visitor agreed to the element's consent gate (ISO 8601; an earlier agreement the page
   * or storage remembered), on the element's `call-ended` only when the element has a `consent`.
   * `CallSession` never sets it.
   */
  consentAt?: string;
  /** The call's own timings and link figures (see `CallMetrics`); absent for a call that never started its setup. */
  metrics?: CallMetrics;
}

/** How good the visitor's connection is, as LiveKit grades it (`lost`: no media is getting through). */
export type ConnectionQualityLevel = 'excellent' | 'good' | 'poor' | 'lost';

/** `call-quality`: the connection's grade and, where the peer connection's stats know them yet, its figures. */
export interface CallQuality {
  quality: ConnectionQualityLevel;
  /** Round-trip time to the media server, in ms. */
  rttMs?: number;
  /** Jitter of the agent's audio as received, in ms. */
  jitterMs?: number;
  /** Fraction (0…1) of the agent's audio packets lost so far. */
  packetLoss?: number;
}

/**
 * A stage of a call's setup, in order: the `microphone` granted, the `dial` made (and its media
 * credentials), the `media` room joined, the `agent` in the room, the agent's `firstAudio`.
 */
export type CallStage = 'microphone' | 'dial' | 'media' | 'agent' | 'firstAudio';

/** When a stage began (ms from the click) and how long it took. */
export interface StageTiming {
  startMs: number;
  durationMs: number;
}

/** `call-progress`: a stage of the setup is done; `ms` is how long it took, `startMs` when it began (from the click). */
export interface CallProgress {
  stage: CallStage;
  ms: number;
  startMs: number;
}

/** `call-ended.detail.metrics`: how long the visitor waited, stage by stage, and how the link held up. */
export interface CallMetrics {
  /** From the click to the agent's first audio; absent when the agent never spoke. */
  timeToFirstAudioMs?: number;
  /** The stages the call went through. */
  stages: Partial<Record<CallStage, StageTiming>>;
  /** How many times the media connection dropped and came back (or tried to). */
  reconnects: number;
  /** Averages over the call's stats samples; absent when none was taken. */
  rttMs?: number;
  jitterMs?: number;
  packetLoss?: number;
}

export type TranscriptMode = 'live' | 'poll' | 'off';

/** How loud each side of the call is right now, 0 (silent) to 1, from its audio track. */
export interface VoiceLevels {
  agent: number;
  visitor: number;
}

/** Options of one `CallSession`; every timer is configurable so tests can shorten it. */
export interface CallSessionOptions {
  /** Base URL of the companion endpoint, e.g. `/api/voice-call`. */
  endpoint: string;
  /**
   * `server`: send each call's `metrics` once to the companion (`POST {endpoint}/dials/:id/metrics`,
   * by beacon when the page is leaving), for the site's own real-user monitoring.
   */
  metrics?: 'server' | 'off';
  agent?: string;
  inputs?: Record<string, string>;
  transcript?: TranscriptMode;
  /**
   * No agent on the call (in the room, and not `initializing`) within this time of the room being
   * up → `agent-unavailable` (default 15000).
   */
  agentTimeoutMs?: number;
  /**
   * Joining the media room (signal connection, then the peer connection) may take at most this
   * long each, else `setup-failed` / `media_failed` (default 15000, livekit-client's own).
   */
  mediaConnectTimeoutMs?: number;
  /** No live transcript segment within this time after connecting → polling (default 4000). */
  liveTranscriptGraceMs?: number;
  /** Poll interval of `GET {endpoint}/dials/:id` (default 2000). */
  pollIntervalMs?: number;
  /** How long to read the final dial record after the media ends (default 5000). */
  resultTimeoutMs?: number;
  /** Timeout of one companion request (default 10000). */
  requestTimeoutMs?: number;
  /**
   * How many times the media connection retries after a network drop before the call ends as
   * `network-lost` (default: LiveKit's own policy, 10 attempts over about 40 s).
   */
  maxReconnectAttempts?: number;
  /** Where the agent's audio element lives (the element passes its shadow root). */
  audioContainer?: Node;
  /**
   * livekit-client's own console logs, at its `debug` level (default false: off, since it logs
   * expected ends of a call, such as a hang-up or a drop, as warnings and errors).
   */
  debug?: boolean;
  /**
   * Keep the microphone and speaker the visitor chose in `localStorage` (key
   * `voice-agent-call:devices`) and use them in later calls (default false: nothing is stored).
   */
  rememberDevices?: boolean;
  /**
   * One live call per page: while another session with this option has a live call (from
   * `starting` to its end), `start()` refuses at once, before the microphone prompt and any dial
   * (`setup-failed`, `call-error` `call_in_progress`). The element sets it on its sessions; default
   * false, so a page that drives sessions itself may hold several calls.
   */
  onePerPage?: boolean;
  /**
   * Calls survive the page: when the page goes away mid-call (a link followed, a reload), the call
   * leaves the room without hanging up, tells the companion (`POST {endpoint}/dials/:id/leave`) and
   * keeps what it needs in the tab's `sessionStorage`; `resume()` on the next page takes it up
   * again. Default false: the page going away hangs up.
   */
  persist?: boolean;
  /**
   * Optional features to load with the session, each a chunk of its own: `hold`, `keypad`,
   * `transfer` (the element sets those its `controls` names). Without it a feature loads on the
   * first use of its method (`setHeld`, `sendDigits`, `requestTransfer`); until then its getters
   * read as not in use (`held`, `canHold`, `canTransfer` false, `transferState` `none`). Another
   * name throws a `RangeError`.
   */
  features?: readonly OptionalFeature[];
  /**
   * When the visitor agreed to a consent gate before this call (ISO 8601; the element sets it): a
   * call that survives the page keeps it, so the next page's `call-ended` says it too.
   */
  consentAt?: string;
}

/** An optional feature of `CallSession` that comes in a chunk of its own (`features`): a control of the registry (features/registry.ts) with a session side. */
export type OptionalFeature = OptionalFeatureName;

/** A microphone (`audioinput`) or a speaker (`audiooutput`) the call now uses. */
export interface CallDevice {
  kind: 'audioinput' | 'audiooutput';
  /** The browser's id of the device (`''`: the browser's default). */
  deviceId: string;
  /** Its name as the browser gives it (`''` when the browser gives none). */
  label: string;
  /** The device in use went away (unplugged, Bluetooth dropped) and the call moved to the default one. */
  fallback: boolean;
}

/**
 * The detail of each event `CallSession` emits (an `EventTarget`); event-names.ts lists which of
 * them the element re-dispatches on itself.
 */
export interface CallSessionEventMap {
  'call-state': { state: CallState; previous: CallState };
  'call-connected': { dialId: string };
  /**
   * A call taken over from an earlier page of the site (`persist`) is up again, instead of a second
   * `call-connected`: the dial, and how long the visitor was away (from the earlier page leaving).
   */
  'call-resumed': { dialId: string; awaySeconds: number };
  'call-transcript': { entries: TranscriptEntry[]; changed: TranscriptEntry };
  'call-mute': { muted: boolean };
  /** The AI was paused (`held`) or resumed, through the service's `pauseAI`. */
  'call-hold': { held: boolean };
  /** One keypad digit (DTMF) was sent. */
  'call-dtmf': { digit: string };
  /** The call moved to another microphone or speaker. */
  'call-device': CallDevice;
  /** The connection's quality changed (fired on a change of grade, not on every sample). */
  'call-quality': CallQuality;
  /** A stage of the call's setup is done. */
  'call-progress': CallProgress;
  /** Talk to a person: asked for, handed over (the service accepted), or refused (the call stays with the agent). */
  'call-transfer': { state: 'requested' | 'connected' | 'failed' };
  'call-error': CallErrorInfo & { recoverable: boolean };
  'call-ended': CallResult;
  /** Not a public element event: the agent is speaking or not (lk.agent.state or audio level). */
  'agent-speaking': { speaking: boolean };
  /** Not a public element event: the browser blocked audio playback; `unlockAudio()` fixes it. */
  'audio-blocked': { blocked: boolean };
}

/** The visitor's answer to the consent gate (the element's `consent`): agreed or cancelled, and when (ISO 8601). */
export interface CallConsentDetail {
  accepted: boolean;
  at: string;
}

/** A rating after the call (the element's `feedback`). */
export type CallRating = 'up' | 'down';

/** The visitor's rating of a call: thumbs up or down, and an optional comment (at most 500 characters). */
export interface CallFeedbackDetail {
  dialId: string;
  rating: CallRating;
  comment?: string;
}

/**
 * The detail of each event only the element fires, never a `CallSession`: the consent gate and
 * the rating are the element's UI (a page that drives `CallSession` itself asks for consent its
 * own way; see the README).
 */
export interface ElementEventMap {
  'call-consent': CallConsentDetail;
  'call-feedback': CallFeedbackDetail;
}

/** Every event of a call, the session's and the element's own. */
export type CallEventMap = CallSessionEventMap & ElementEventMap;

/**
 * What the element needs from a call session. `CallSession` implements it; it is an
 * `EventTarget` that dispatches the events of `CallSessionEventMap` as typed `Event` subclasses
 * carrying `detail` (see events.ts), each only on a real change.
 */
export interface CallSessionLike extends EventTarget {
  readonly state: CallState;
  readonly dialId: string | null;
  readonly muted: boolean;
  /** A copy, in order; interim entries updated in place. */
  readonly transcript: TranscriptEntry[];
  /** `Date.now()` when the call reached `in-call` the first time (for the call timer), else null. */
  readonly connectedAt: number | null;
  readonly agentSpeaking: boolean;
  /**
   * How loud the agent and the visitor are now (0…1), while the media is up; zeros otherwise, and
   * 0 for a muted visitor. Cheap: read it once per animation frame (the element's voice presence
   * does). Optional for other implementations: without it the element shows no levels.
   */
  readonly audioLevels?: VoiceLevels;
  /** The browser blocked playback of the agent's audio; call `unlockAudio()` from a click. */
  readonly audioBlocked: boolean;
  /** The result of the last ended call, or null. */
  readonly result: CallResult | null;
  /** Starts a call (from `idle` or `ended`); resolves once the call is in `in-call` or ended. Never rejects. */
  start(): Promise<void>;
  /** The visitor hangs up; resolves once the call has ended. Never rejects. */
  hangup(): Promise<void>;
  /** Mutes the current call, or the next one when set between calls; a call that ends muted is unmuted (`call-mute`) before `ended`. */
  setMuted(muted: boolean): void;
  unlockAudio(): Promise<void>;
  /**
   * Takes up the call an earlier page of the site left (`persist`), when one is stored for this
   * endpoint in this tab: rejoins its dial without a click. Resolves true when a call was taken up
   * (it fires `call-resumed` once up again), false when there was none. Optional for other implementations.
   */
  resume?(): Promise<boolean>;
  /** True while a call taken over from an earlier page is getting back (the card says "Reconnecting…"). */
  readonly resuming?: boolean;
  /** When the visitor agreed to the consent gate, for a call taken over from an earlier page. */
  readonly resumedConsentAt?: string;
  /** A resumed call waits for a tap: the browser refused the microphone without a gesture. */
  readonly resumeNeedsTap?: boolean;
  /** From the tap (a click): asks for the microphone again and continues the resumed call. */
  continueResume?(): void;
  /** Ends the call without waiting (element removed, page hidden for good): hangs up the dial, beacon for page-unload. */
  abandon(reason: 'element-removed' | 'page-unload'): void;
  /** Options can change between calls (e.g. attributes). */
  configure(options: Partial<CallSessionOptions>): void;
  // The in-call controls: optional for other implementations (the element hides what is missing).
  /** The AI is paused (on hold). */
  readonly held?: boolean;
  /** The current call can be held: it is up and the companion gave a service session (`pauseAI`). */
  readonly canHold?: boolean;
  /** Pauses or resumes the AI; rejects (after reverting and a recoverable `call-error`) when the service refused. */
  setHeld?(held: boolean): Promise<void>;
  /** Sends keypad digits (`0`-`9`, `*`, `#`) one DTMF tone each; rejects anything else, sending nothing. */
  sendDigits?(digits: string): Promise<void>;
  /** The microphone in use (or chosen for the next call); null: the browser's default. */
  readonly microphoneId?: string | null;
  /** The speaker in use (or chosen for the next call); null: the browser's default. */
  readonly speakerId?: string | null;
  setMicrophone?(deviceId: string): Promise<void>;
  setSpeaker?(deviceId: string): Promise<void>;
  /** Where talking to a person stands in this call: not asked (`none`), `requested`, `connected`, or `failed`. */
  readonly transferState?: TransferState;
  /** The current call is up, its companion offers a transfer, and none was asked yet. */
  readonly canTransfer?: boolean;
  /**
   * The index in `transcript` of the first entry after the call went to a person (the entries
   * of the call's other side from there on are the person's), or null.
   */
  readonly personFromEntry?: number | null;
  /** Asks the companion to hand the call to a person; rejects (after a recoverable `call-error` `transfer_failed`) when refused. */
  requestTransfer?(): Promise<void>;
  /**
   * Sends the visitor's rating of the last ended call to the companion (the element's
   * `feedback="server"`). Optional for other implementations: without it nothing is sent.
   */
  sendFeedback?(feedback: { rating: CallRating; comment?: string }): Promise<void>;
}
