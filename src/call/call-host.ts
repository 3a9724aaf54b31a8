// What the session's own modules (the setup pipeline, the media and service signals, the
// transcript feed) may ask of `CallSession`. The session hands features the same object typed
// as the narrower `FeatureContext` (session-feature.ts).
import type { ActiveCall } from './active-call.js';
import type { EndDetail, Ending } from './endings.js';
import type { FeatureContext, SessionFeature } from './session-feature.js';
import type { CallPhase } from './states.js';
import type { TranscriptFeed, FeedHost } from './transcript-feed.js';

export interface CallHost extends FeatureContext, FeedHost {
  /** Every feature, in the order the session wired them; the setup calls their hooks. */
  readonly features: readonly SessionFeature[];
  readonly feed: TranscriptFeed;
  end(call: ActiveCall, ending: Ending, detail?: EndDetail): Promise<void>;
  /** Moves the call to `phase` (checked against the transition table, announced). */
  enter(call: ActiveCall, phase: CallPhase): void;
  /** `in-call` once the room is connected and the agent is in it, whichever came last. */
  maybeConnected(call: ActiveCall): void;
  setAgentSpeaking(speaking: boolean): void;
}
