// Calls that survive the page (`persist`), the view's side: the notice of a call taken up from an
// earlier page whose microphone the browser asks for again, with the tap that continues it (asks
// for the microphone inside the tap). In a chunk of its own (element/feature-parts.ts) fetched only
// for an element with `persist`, with its strings' English and its styles: no other call shows it.
import { css, html, nothing, type CSSResult, type TemplateResult } from 'lit';
import type { CallPart, PartContext } from '../../element/call-part.js';
import type { VoiceAgentCallStrings } from '../../element/strings.js';
import { persistEn, type PersistStrings } from './persist-strings.js';

/** Its strings: their English (this chunk's), under the shown language's and the page's. */
function ownStrings(s: Partial<PersistStrings>): PersistStrings {
  return { ...persistEn, ...s };
}

export class ResumeNotice implements CallPart {
  /** Above the other notices, as the first thing to do on this page. */
  readonly place = 'first';
  readonly #context: PartContext;

  constructor(context: PartContext) {
    this.#context = context;
  }

  body(s: VoiceAgentCallStrings): TemplateResult | typeof nothing {
    // CallView asks for `first` bodies only while a call is set up or up.
    if (!this.#context.session()?.resumeNeedsTap) return nothing;
    const own = ownStrings(s);
    return html`<div class="notice stacked" part="resume-notice">
      <p>${own.resumeMicrophoneHint}</p>
      <button class="pill" part="resume-button" type="button" data-primary @click=${this.#onClick}>
        ${own.resumeContinue}
      </button>
    </div>`;
  }

  readonly #onClick = (): void => {
    this.#context.session()?.continueResume?.();
    this.#context.invalidate();
  };
}

/** A longer line and a longer button: one above the other. */
export const partStyles: CSSResult = css`
  .notice.stacked {
    flex-direction: column;
    align-items: stretch;
  }

  .notice.stacked .pill {
    justify-content: center;
  }
`;

export const makePart = (context: PartContext): CallPart => new ResumeNotice(context);
