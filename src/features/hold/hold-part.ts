// The hold toggle (`controls` has `hold`), in a chunk of its own (element/feature-parts.ts)
// fetched only for an element that shows it. One name, "Hold", and `aria-pressed` while held (the
// WAI-ARIA toggle pattern): not "Resume" as well, which a screen reader would say with "pressed".
// The icon shows what a press does. The status line, the announcement and the transcript's
// markers say a hold whoever asked for it (the page too): they are the call view's.
import { html, nothing, svg, type TemplateResult } from 'lit';
import { isUp } from '../../call/state-predicates.js';
import type { CallState } from '../../call/types.js';
import { shownControls, type CallPart, type PartContext } from '../../element/call-part.js';
import { icon } from '../../element/icons.js';
import type { VoiceAgentCallStrings } from '../../element/strings.js';

const holdIcon = icon(svg`<path d="M9 5v14"/><path d="M15 5v14"/>`);
const resumeIcon = icon(svg`<path d="m7 4 13 8-13 8z"/>`);

export class HoldPart implements CallPart {
  readonly #context: PartContext;

  constructor(context: PartContext) {
    this.#context = context;
  }

  buttons(s: VoiceAgentCallStrings, state: CallState): TemplateResult | typeof nothing {
    const { host } = this.#context;
    const session = this.#context.session();
    // A person (after a transfer) is no AI to pause.
    if (!shownControls(host.controls).has('hold') || !session?.canHold || !session.setHeld) return nothing;
    if (session.transferState === 'connected') return nothing;
    const held = host.held;
    return html`<button
      class="control tool hold"
      part="hold-button"
      type="button"
      aria-pressed=${held ? 'true' : 'false'}
      aria-disabled=${isUp(state) ? nothing : 'true'}
      title=${s.hold}
      @click=${this.#onClick}
    >
      ${held ? resumeIcon : holdIcon}<span class="tool-label">${s.hold}</span>
    </button>`;
  }

  readonly #onClick = (): void => {
    const session = this.#context.session();
    if (!session || !isUp(session.state)) return;
    this.#context.clearNotice();
    this.#context.host.setHeld(!this.#context.host.held).catch(() => undefined);
  };
}

export const makePart = (context: PartContext): CallPart => new HoldPart(context);
