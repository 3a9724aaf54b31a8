// Talk to a person, the session's side: `requestTransfer()` asks the companion
// (`POST {endpoint}/dials/:id/transfer`) to have the service hand the live call to the business's
// own line; `call-transfer` says `requested`, then `connected` once the service accepted, or
// `failed` with a recoverable `call-error` `transfer_failed` (the call stays with the agent). One
// transfer per call, and only where the companion offers it (its create answered `transfer: true`).
import { isOver, isUpPhase, type ActiveCall } from '../../call/active-call.js';
import { CallError } from '../../call/errors.js';
import { CallTransferEvent } from '../../call/events.js';
import type { FeatureContext, SessionFeature } from '../../call/session-feature.js';
import type { TransferState } from '../../call/types.js';

export class TransferFeature implements SessionFeature {
  readonly #context: FeatureContext;
  #state: TransferState = 'none';
  /** The transcript's length when the call went to a person. */
  #personFrom: number | null = null;

  constructor(context: FeatureContext) {
    this.#context = context;
  }

  get state(): TransferState {
    return this.#state;
  }

  get personFromEntry(): number | null {
    return this.#personFrom;
  }

  /** The current call is up, its companion offers a transfer, and none was asked yet. */
  get canTransfer(): boolean {
    const call = this.#context.call;
    return call !== null && call.dial?.transfer === true && isUpPhase(call) && this.#state === 'none';
  }

  async requestTransfer(): Promise<void> {
    const call = this.#context.call;
    const dial = call?.dial;
    if (!call || !dial || !isUpPhase(call))
      throw new CallError(
        'transfer_failed',
        'requestTransfer: there is no call to hand to a person (nothing was asked)',
      );
    if (dial.transfer !== true)
      throw new CallError(
        'transfer_failed',
        'requestTransfer: the companion does not offer talking to a person for this call (no transfer number is configured)',
      );
    if (this.#state !== 'none')
      throw new CallError(
        'transfer_failed',
        `requestTransfer: a transfer was already asked for in this call (${this.#state})`,
      );
    this.#set('requested');
    try {
      await call.companion.transfer(dial, call.controller.signal);
    } catch (error) {
      if (this.#context.call !== call || isOver(call)) return;
      const message = `the call could not be handed to a person; it stays with the agent (${error instanceof Error ? error.message : String(error)})`;
      this.#set('failed');
      this.#context.recoverable('transfer_failed', message);
      throw new CallError('transfer_failed', message, { cause: error });
    }
    if (!this.#context.isLive(call)) return;
    this.#personFrom = call.transcript.entries.length;
    this.#set('connected');
  }

  /** Each call starts with the agent. */
  started(_call: ActiveCall): void {
    this.#state = 'none';
    this.#personFrom = null;
  }

  #set(state: Exclude<TransferState, 'none'>): void {
    this.#state = state;
    this.#context.emit(new CallTransferEvent({ state }));
  }
}

/** Its chunk's factory (features/registry.ts). */
export const makeFeature = (context: FeatureContext): TransferFeature => new TransferFeature(context);
