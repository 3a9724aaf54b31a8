// What the session's own modules (the setup pipeline, the media and service signals, the
// transcript feed) may ask of `CallSession`, and `sessionHost`, which makes it from the session's
// inside. The session hands features the same object typed as the narrower `FeatureContext`
// (session-feature.ts).
import { isOver, startTimer, type ActiveCall } from './active-call.js';
import type { EndDetail, Ending } from './endings.js';
import type { FeatureContext, SessionFeature } from './session-feature.js';
import type { CallPhase } from './states.js';
import type { TranscriptFeed, FeedHost } from './transcript-feed.js';
import { CallErrorEvent } from './events.js';
import type { CallSessionOptions } from './types.js';

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
  /** Settles once the optional features the options ask for have loaded (or failed to). */
  featuresLoaded(): Promise<void>;
}

/** What the session hands `sessionHost`: its state, read each time it is asked, and its own steps. */
export interface SessionInside extends Pick<
  CallHost,
  'emit' | 'end' | 'enter' | 'maybeConnected' | 'setAgentSpeaking' | 'featuresLoaded'
> {
  call(): ActiveCall | null;
  options(): CallSessionOptions;
  muted(): boolean;
  connectedAt(): number | null;
  features(): readonly SessionFeature[];
  feed(): TranscriptFeed;
}

/** The session's `CallHost`: what its own modules and (as a `FeatureContext`) its features see of it. */
export function sessionHost(inside: SessionInside): CallHost {
  const isCurrentAndLive = (call: ActiveCall) => inside.call() === call && !isOver(call);
  return {
    get call() {
      return inside.call();
    },
    get options() {
      return inside.options();
    },
    get muted() {
      return inside.muted();
    },
    get connectedAt() {
      return inside.connectedAt();
    },
    get features() {
      return inside.features();
    },
    get feed() {
      return inside.feed();
    },
    isLive: isCurrentAndLive,
    emit: inside.emit,
    recoverable: (code, message) => inside.emit(new CallErrorEvent({ code, message, recoverable: true })),
    end: inside.end,
    enter: inside.enter,
    startTimer: (call, ms, run) => startTimer(call, ms, run, () => isCurrentAndLive(call)),
    maybeConnected: inside.maybeConnected,
    setAgentSpeaking: inside.setAgentSpeaking,
    featuresLoaded: inside.featuresLoaded,
  };
}
