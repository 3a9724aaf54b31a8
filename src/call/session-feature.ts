// A feature of a call (devices, hold, keypad, screen wake, …) as the session sees it: hooks the
// session calls at each step of every call, in the order the features were wired, and a narrow
// context to act through. Like livekit-client's `Room` with its managers: each is wired once,
// and the session's public methods for it are one-line delegations.
import type { ActiveCall } from './active-call.js';
import type { EndDetail, Ending } from './endings.js';
import type { CallErrorCode } from './error-codes.js';
import type { CallSessionOptions } from './types.js';

/** What a feature may see and do: never more than this. */
export interface FeatureContext {
  /** The session's current call (the last one started), or null before the first. */
  readonly call: ActiveCall | null;
  /** The session's options as they are now (the page may change them between calls). */
  readonly options: Readonly<CallSessionOptions>;
  /** The visitor muted the microphone. */
  readonly muted: boolean;
  /** `call` is the current call and has not begun to end. */
  isLive(call: ActiveCall): boolean;
  /** Dispatches one of the session's events (events.ts). */
  emit(event: Event): void;
  /** A `call-error` the call survives (`recoverable: true`). */
  recoverable(code: CallErrorCode, message: string): void;
  /** Ends the call, as a row of `ENDINGS` says. */
  end(call: ActiveCall, ending: Ending, detail?: EndDetail): void;
}

/** Every hook is optional; each runs for the current call only. */
export interface SessionFeature {
  /** The call's setup begins (after `call-state` `starting`, so a listener of it may still configure the session). */
  started?(call: ActiveCall): void;
  /** The call has its microphone (`call.mic`), before the dial is made. */
  microphoneOpened?(call: ActiveCall): void;
  /** The call entered `connecting`: the dial exists and the room is being joined. */
  connecting?(call: ActiveCall): void;
  /** The call is in the room (`call.media`); awaited, feature after feature, before the agent's wait begins. */
  joined?(call: ActiveCall): Promise<void> | void;
  /** The agent is on the call (in the room and ready); may come before `joined`. */
  agentJoined?(call: ActiveCall): void;
  /** The agent started (`true`) or stopped speaking. */
  agentSpeaking?(call: ActiveCall, speaking: boolean): void;
  /** The media connection dropped and is being restored. */
  reconnecting?(call: ActiveCall): void;
  /** The call let go of its microphone, audio and room: remove whatever the feature added. */
  released?(call: ActiveCall): void;
  /** The call is about to be `ended`: undo what belonged to it (its events fire before `call-ended`). */
  ended?(call: ActiveCall): void;
}
