// The keypad, the session's side: digits sent over the call's media connection, one DTMF tone
// each (LiveKit `publishDtmf`, as the service's own client does), `call-dtmf` per digit sent.
import { isUpPhase, type ActiveCall } from '../../call/active-call.js';
import { CallError } from '../../call/errors.js';
import { CallDtmfEvent } from '../../call/events.js';
import type { FeatureContext, SessionFeature } from '../../call/session-feature.js';
import { isDtmfDigits } from '../../wire/dtmf.js';

export class KeypadFeature implements SessionFeature {
  readonly #context: FeatureContext;
  /** Per call: digits go out one after another, in the order asked, across `sendDigits` calls. */
  readonly #queues = new WeakMap<ActiveCall, Promise<void>>();

  constructor(context: FeatureContext) {
    this.#context = context;
  }

  async sendDigits(digits: string): Promise<void> {
    if (typeof digits !== 'string' || !isDtmfDigits(digits)) {
      throw new RangeError(
        `sendDigits: ${JSON.stringify(String(digits))} is not keypad digits (only 0-9, * and #; nothing was sent)`,
      );
    }
    const call = this.#context.call;
    const media = call?.media;
    if (!call || !media || !isUpPhase(call)) {
      throw new CallError('media_failed', 'sendDigits: there is no call to send digits to (nothing was sent)');
    }
    const send = async (): Promise<void> => {
      for (const digit of digits) {
        if (!this.#context.isLive(call)) return;
        await media.sendDtmf(digit);
        this.#context.emit(new CallDtmfEvent({ digit }));
      }
    };
    const queue = this.#queues.get(call) ?? Promise.resolve();
    const sent = queue.then(send, send);
    this.#queues.set(
      call,
      sent.catch(() => undefined),
    );
    await sent;
  }

  /** Digits still queued for a call that let go of its media are dropped with it. */
  released(call: ActiveCall): void {
    this.#queues.delete(call);
  }
}

/** Its chunk's factory (features/registry.ts). */
export const makeFeature = (context: FeatureContext): KeypadFeature => new KeypadFeature(context);
