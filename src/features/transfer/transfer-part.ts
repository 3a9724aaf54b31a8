// Talk to a person's button (`controls` has `transfer`), in a chunk of its own
// (element/feature-parts.ts) with its styles, fetched only for an element that shows it. The
// status line and the person's transcript entries follow the call's transfer whoever asked for it
// (transfer-view.ts, in the call chunk).
import { html, nothing, svg, type CSSResult, type TemplateResult } from 'lit';
import { isUp } from '../../call/state-predicates.js';
import type { CallState } from '../../call/types.js';
import { shownControls, type CallPart, type PartContext } from '../../element/call-part.js';
import type { VoiceAgentCallStrings } from '../../element/strings.js';
import { transferStyles } from './transfer-styles.js';

const personIcon = html`<svg
  class="icon"
  viewBox="0 0 24 24"
  width="20"
  height="20"
  fill="none"
  stroke="currentColor"
  stroke-width="2"
  stroke-linecap="round"
  stroke-linejoin="round"
  aria-hidden="true"
>
  ${svg`<circle cx="12" cy="8" r="4"/><path d="M4 21a8 8 0 0 1 16 0"/>`}
</svg>`;

export class TransferPart implements CallPart {
  readonly #context: PartContext;

  constructor(context: PartContext) {
    this.#context = context;
  }

  /**
   * The button, while the call's companion offers a transfer and none was asked yet (`canTransfer`),
   * or while one is under way (`aria-disabled`); nothing otherwise.
   */
  buttons(s: VoiceAgentCallStrings, state: CallState): TemplateResult | typeof nothing {
    const session = this.#context.session();
    if (!shownControls(this.#context.host.controls).has('transfer') || !session?.requestTransfer) return nothing;
    const asking = session.transferState === 'requested';
    if (!session.canTransfer && !asking) return nothing;
    return html`<button
      class="control transfer"
      part="transfer-button"
      type="button"
      aria-disabled=${asking || !isUp(state) ? 'true' : 'false'}
      @click=${this.#onClick}
    >
      ${personIcon}<span>${s.talkToPerson}</span>
    </button>`;
  }

  readonly #onClick = (): void => {
    const session = this.#context.session();
    if (!session?.canTransfer || !isUp(session.state)) return;
    this.#context.clearNotice();
    this.#context.host.requestTransfer().catch(() => undefined);
  };
}

export const partStyles: CSSResult = transferStyles;
export const makePart = (context: PartContext): CallPart => new TransferPart(context);
