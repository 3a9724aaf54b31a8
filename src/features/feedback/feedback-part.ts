// The rating after a call (the `feedback` attribute), in the ended card, in a chunk of its own
// (element/feature-parts.ts) fetched only for an element with `feedback`:
// "How was this call?" with thumbs up and down, then an optional comment with "Send" and "Skip",
// then thanks. Fires `call-feedback` once per call; with `feedback="server"` the session also posts
// it to the companion (`POST {endpoint}/dials/:id/feedback`, authorised by the dial's handle), so
// the site knows the rating came from the visitor who made that dial.
import { html, nothing, svg, type CSSResult, type ReactiveControllerHost, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { createCallEvent, type CallStateEvent } from '../../call/events.js';
import type {
  CallFeedbackDetail,
  CallRating,
  CallSessionEventMap,
  CallSessionLike,
  CallState,
} from '../../call/types.js';
import type { CallPart, PartContext } from '../../element/call-part.js';
import { icon } from '../../element/icons.js';
import type { VoiceAgentCallStrings } from '../../element/strings.js';
import { feedbackEn, type FeedbackStrings } from './feedback-strings.js';
import { MAX_FEEDBACK_COMMENT } from '../../wire/companion.js';
import { feedbackStyles } from './feedback-styles.js';

export { feedbackStyles };

// The thumbs are this chunk's: only the rating shows them.
const thumbUpIcon = icon(
  svg`<path d="M7 10v12"/><path d="M15 5.9 14 10h5.8a2 2 0 0 1 2 2.3l-1.4 8A2 2 0 0 1 18.4 22H4a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2h2.8a2 2 0 0 0 1.8-1.1L12 2a3.1 3.1 0 0 1 3 3.9z"/>`,
);
const thumbDownIcon = icon(
  svg`<path d="M17 14V2"/><path d="M9 18.1 10 14H4.2a2 2 0 0 1-2-2.3l1.4-8A2 2 0 0 1 5.6 2H20a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2h-2.8a2 2 0 0 0-1.8 1.1L12 22a3.1 3.1 0 0 1-3-3.9z"/>`,
);

/** Longest comment, in characters (the companion refuses longer ones): the wire contract's limit. */
export { MAX_FEEDBACK_COMMENT };

type Step = { name: 'ask' } | { name: 'comment'; rating: CallRating } | { name: 'done' };

export interface FeedbackHost extends ReactiveControllerHost, HTMLElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
  /** The `feedback` attribute: on unless unset or `false`; `server` also posts the rating. */
  readonly feedback?: string | boolean | null;
}

/** The rating's strings: its English (this chunk's), under the shown language's and the page's. */
function ownStrings(s: Partial<FeedbackStrings>): FeedbackStrings {
  return { ...feedbackEn, ...s };
}

export class FeedbackPrompt implements CallPart {
  readonly place = 'ended';
  private readonly _host: FeedbackHost;
  private readonly _session: () => CallSessionLike | null;
  /** Where the rating of the last call is; reset when a call starts. */
  private _step: Step = { name: 'ask' };
  private _comment = '';

  constructor(host: FeedbackHost, session: () => CallSessionLike | null) {
    this._host = host;
    this._session = session;
  }

  onSessionEvent(type: keyof CallSessionEventMap, event: Event): void {
    if (type === 'call-state' && (event as CallStateEvent).detail.state === 'starting') this.reset();
  }

  body(s: VoiceAgentCallStrings): TemplateResult | typeof nothing {
    return this.render(s);
  }

  announce(s: VoiceAgentCallStrings, state: CallState, line: string): string | null {
    return state === 'ended' ? this.announcement(s, line) : null;
  }

  /** A new call: ask again once it has ended. */
  reset(): void {
    this._step = { name: 'ask' };
    this._comment = '';
  }

  /** The ended card asks: the element has `feedback` and the call connected and has a dial. */
  shown(): boolean {
    const session = this._session();
    return (
      this._host.feedback != null &&
      this._host.feedback !== false &&
      session?.state === 'ended' &&
      session.connectedAt !== null &&
      session.dialId !== null
    );
  }

  /**
   * What the live region says after the call: the summary and the question (unchanged while the
   * comment is open, so nothing is read twice; the focused comment's label speaks for itself),
   * then the thanks alone.
   */
  announcement(strings: VoiceAgentCallStrings, summary: string): string {
    if (!this.shown()) return summary;
    const s = ownStrings(strings);
    return this._step.name === 'done' ? s.feedbackThanks : `${summary}. ${s.feedbackQuestion}`;
  }

  private _rate(rating: CallRating): void {
    this._step = { name: 'comment', rating };
    this._host.requestUpdate();
    void this._host.updateComplete.then(() => this._focus('[part~="feedback-comment"]'));
  }

  private readonly _onUp = (): void => this._rate('up');
  private readonly _onDown = (): void => this._rate('down');

  private readonly _onInput = (event: Event): void => {
    this._comment = (event.target as HTMLTextAreaElement).value;
  };

  /** Ctrl/Cmd+Enter in the comment sends it (Enter alone is a new line). */
  private readonly _onCommentKeydown = (event: KeyboardEvent): void => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      this._finish(true);
    }
  };

  private readonly _onSend = (): void => this._finish(true);
  private readonly _onSkip = (): void => this._finish(false);

  private _finish(withComment: boolean): void {
    const session = this._session();
    const step = this._step;
    const dialId = session?.dialId;
    if (step.name !== 'comment' || !session || !dialId) return;
    const comment = withComment ? this._comment.trim().slice(0, MAX_FEEDBACK_COMMENT) : '';
    const detail: CallFeedbackDetail = { dialId, rating: step.rating };
    if (comment) detail.comment = comment;
    this._step = { name: 'done' };
    this._comment = '';
    this._host.dispatchEvent(createCallEvent('call-feedback', detail));
    if (this._host.feedback === 'server' && session.sendFeedback) {
      const sent: { rating: CallRating; comment?: string } = { rating: detail.rating };
      if (comment) sent.comment = comment;
      // The page has the event either way; a refused post (already rated, offline) changes nothing the visitor can do.
      session.sendFeedback(sent).catch(() => undefined);
    }
    this._host.requestUpdate();
    void this._host.updateComplete.then(() => this._focus('[part~="call-button"]'));
  }

  private _focus(selector: string): void {
    this._host.renderRoot.querySelector<HTMLElement>(selector)?.focus();
  }

  /** The rating's step, below the ended summary. */
  render(strings: VoiceAgentCallStrings): TemplateResult | typeof nothing {
    if (!this.shown()) return nothing;
    const s = ownStrings(strings);
    const step = this._step;
    if (step.name === 'done') return html`<p class="feedback feedback-thanks" part="feedback">${s.feedbackThanks}</p>`;
    const chosen = step.name === 'comment' ? step.rating : null;
    return html`<div class="feedback" part="feedback" role="group" aria-labelledby="feedback-question">
      <div class="feedback-ask">
        <p class="feedback-question" id="feedback-question" tabindex="-1" data-focus-first>${s.feedbackQuestion}</p>
        <button
          class="thumb"
          part="feedback-up"
          type="button"
          aria-label=${s.feedbackUp}
          aria-pressed=${chosen === 'up' ? 'true' : 'false'}
          @click=${this._onUp}
        >
          ${thumbUpIcon}
        </button>
        <button
          class="thumb"
          part="feedback-down"
          type="button"
          aria-label=${s.feedbackDown}
          aria-pressed=${chosen === 'down' ? 'true' : 'false'}
          @click=${this._onDown}
        >
          ${thumbDownIcon}
        </button>
      </div>
      ${
        chosen
          ? html`<label class="feedback-label" for="feedback-comment">${s.feedbackCommentLabel}</label>
            <textarea
              id="feedback-comment"
              part="feedback-comment"
              rows="2"
              maxlength=${MAX_FEEDBACK_COMMENT}
              .value=${live(this._comment)}
              @input=${this._onInput}
              @keydown=${this._onCommentKeydown}
            ></textarea>
            <div class="feedback-actions">
              <button class="pill secondary" part="feedback-skip" type="button" @click=${this._onSkip}>
                ${s.feedbackSkip}
              </button>
              <button class="pill" part="feedback-send" type="button" @click=${this._onSend}>${s.feedbackSend}</button>
            </div>`
          : nothing
      }
    </div>`;
  }
}

export const partStyles: CSSResult = feedbackStyles;
export const makePart = (context: PartContext): CallPart => new FeedbackPrompt(context.host, () => context.session());
