// Mute, the session's side: the visitor's microphone off or on, in the current call (its track
// and the media connection) or, set between calls, for the next one. A mute belongs to its call:
// "Call again" must not start muted with nothing saying so (with an agent that hangs up after
// silence, the next call would end "after silence"), so a call that ends muted is unmuted
// (`call-mute`) before `ended`. A mute set between calls still carries into the next one.
import type { ActiveCall } from '../../call/active-call.js';
import { CallMuteEvent } from '../../call/events.js';
import type { FeatureContext, SessionFeature } from '../../call/session-feature.js';
import { isReleased } from '../../call/states.js';
import type { VoiceLevels } from '../../call/types.js';

export class MuteFeature implements SessionFeature {
  readonly #context: Pick<FeatureContext, 'call' | 'emit'>;
  #muted = false;

  constructor(context: Pick<FeatureContext, 'call' | 'emit'>) {
    this.#context = context;
  }

  get muted(): boolean {
    return this.#muted;
  }

  /** `levels` as the call's meters show them: a muted visitor's at 0. */
  heard(levels: VoiceLevels): VoiceLevels {
    return this.#muted ? { agent: levels.agent, visitor: 0 } : levels;
  }

  setMuted(muted: boolean): void {
    if (muted === this.#muted) return;
    this.#muted = muted;
    const call = this.#context.call;
    if (call && !isReleased(call.phase)) {
      if (call.mic) call.mic.enabled = !muted;
      call.media?.setMuted(muted).catch(() => undefined);
    }
    this.#context.emit(new CallMuteEvent({ muted }));
  }

  /** The call let go of its microphone already: only the state and its event. */
  ended(_call: ActiveCall): void {
    if (!this.#muted) return;
    this.#muted = false;
    this.#context.emit(new CallMuteEvent({ muted: false }));
  }
}
