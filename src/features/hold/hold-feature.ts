// Hold, the session's side: the AI paused (`true`) or resumed through the service's `pauseAI`,
// `call-hold` at once, reverted when the service refuses. A hold belongs to its dial: it ends
// with the call.
import { isOver, isUpPhase, type ActiveCall } from '../../call/active-call.js';
import { CallError } from '../../call/errors.js';
import { CallHoldEvent } from '../../call/events.js';
import type { FeatureContext, SessionFeature } from '../../call/session-feature.js';

export class HoldFeature implements SessionFeature {
  readonly #context: FeatureContext;
  #held = false;

  constructor(context: FeatureContext) {
    this.#context = context;
  }

  get held(): boolean {
    return this.#held;
  }

  /** The current call is up and has the service's session, through which `pauseAI` goes. */
  get canHold(): boolean {
    const call = this.#context.call;
    return call !== null && call.service !== null && isUpPhase(call);
  }

  async setHeld(held: boolean): Promise<void> {
    if (held === this.#held) return;
    const call = this.#context.call;
    const service = call?.service;
    if (!call || !service || !this.canHold) {
      throw new CallError('hold_failed', 'setHeld: there is no call with the service session to hold');
    }
    this.#set(held);
    try {
      await service.pauseAI(held);
    } catch (error) {
      if (this.#context.call !== call || isOver(call)) return;
      const message = `the service did not ${held ? 'pause' : 'resume'} the agent (${error instanceof Error ? error.message : String(error)})`;
      if (this.#held === held) this.#set(!held);
      this.#context.recoverable('hold_failed', message);
      throw new CallError('hold_failed', message, { cause: error });
    }
  }

  /** The service's pause belongs to the dial that is over. */
  ended(_call: ActiveCall): void {
    if (this.#held) this.#set(false);
  }

  #set(held: boolean): void {
    this.#held = held;
    this.#context.emit(new CallHoldEvent({ held }));
  }
}

/** Its chunk's factory (features/registry.ts). */
export const makeFeature = (context: FeatureContext): HoldFeature => new HoldFeature(context);
