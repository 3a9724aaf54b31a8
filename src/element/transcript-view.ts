// The transcript log of the in-call card (call chunk): the newest lines (TranscriptFollow keeps
// the window and the scrolling), a marker line where the call was put on hold and resumed, and
// the agent's line a hold cut off. CallView renders it when `transcript` is not `off`.
import { html, nothing, type TemplateResult } from 'lit';
import { guard } from 'lit/directives/guard.js';
import { ifDefined } from 'lit/directives/if-defined.js';
import { repeat } from 'lit/directives/repeat.js';
import type { CallSessionLike, TranscriptEntry } from '../call/types.js';
import { isPersonEntry } from '../features/transfer/transfer-view.js';
import { arrowDownIcon } from './call-icons.js';
import type { VoiceAgentCallStrings } from './strings.js';
import type { TranscriptFollow } from './transcript-follow.js';

/** A hold marker in the transcript: the `mark`th hold change of the call, a hold or a resume. */
interface HoldMark {
  mark: number;
  held: boolean;
}

export class TranscriptView {
  readonly #session: () => CallSessionLike | null;
  readonly #follow: TranscriptFollow;
  /**
   * Where this call was put on hold and resumed, by how many transcript entries came before: a
   * marker line in the transcript at each. While held the transcript goes on showing what the
   * service transcribes (the visitor's words are still heard and recorded); the markers say which
   * of it the paused agent did not answer.
   */
  #holdMarks: Array<{ at: number; held: boolean }> = [];
  /** The agent's line a hold cut off mid-sentence: shown ending in "…", interrupted, not finished. */
  readonly #cutOff = new Set<string>();

  constructor(session: () => CallSessionLike | null, follow: TranscriptFollow) {
    this.#session = session;
    this.#follow = follow;
  }

  /** A new call: no markers, nothing cut off. */
  reset(): void {
    this.#holdMarks = [];
    this.#cutOff.clear();
  }

  /** A hold began or ended: a marker where the transcript stands; a hold cuts off the agent mid-line. */
  holdChanged(held: boolean, entries: TranscriptEntry[]): void {
    const last = entries[entries.length - 1];
    // Cut off: the agent was speaking and its line stops mid-sentence (a line that ends its sentence
    // was whole in the transcript, even if its audio still played).
    if (held && last?.speaker === 'AI' && this.#session()?.agentSpeaking && !/[.!?…。؟!?]["'”’)]*\s*$/u.test(last.text))
      this.#cutOff.add(last.id);
    this.#holdMarks.push({ at: entries.length, held });
    this.#follow.linesArrived();
  }

  render(s: VoiceAgentCallStrings, entries: TranscriptEntry[]): TemplateResult {
    // An interim line is hidden from assistive tech and keyed apart from its final version, so
    // the log announces each line once, when it is final. Only the newest lines are in the DOM.
    const follow = this.#follow;
    const first = Math.min(follow.firstShown, entries.length);
    // Each entry's place in the whole transcript (hold markers come between them in what is shown).
    const positions = new Map(entries.map((entry, index) => [entry, index]));
    const items = this.#withHoldMarks(entries, first);
    return html`<div class="transcript-wrap">
      <div
        class="transcript"
        part="transcript"
        role="log"
        aria-live="polite"
        aria-relevant="additions"
        aria-label=${s.transcriptLabel}
        tabindex="0"
        @scroll=${follow.onScroll}
      >
        ${
          first > 0
            ? html`<button class="pill earlier" part="earlier-button" type="button" @click=${follow.onEarlier}>
              ${s.showEarlier}
            </button>`
            : nothing
        }
        ${repeat(
          items,
          (item) => ('mark' in item ? `hold:${item.mark}` : `${item.id}:${item.final ? 'final' : 'interim'}`),
          (item, index) => {
            // A hold marker: hidden from assistive tech, since the status line already announces it.
            if ('mark' in item)
              return html`<div class="hold-mark" part="hold-mark" aria-hidden="true">
                <span>${item.held ? s.statusOnHold : s.holdResumed}</span>
              </div>`;
            const entry = item;
            // Talk to a person (src/features/transfer): the other side's lines after the transfer are the person's.
            const person = isPersonEntry(this.#session(), positions.get(entry) ?? 0, entry);
            const speaker = entry.speaker === 'AI' ? (person ? s.speakerPerson : s.speakerAI) : s.speakerHuman;
            const cutOff = this.#cutOff.has(entry.id);
            const who = entry.speaker === 'AI' ? 'ai' : 'human';
            // The same side's next line in a row: its bubble joins the one above. A class, not a
            // sibling selector (.entry.ai + .entry.ai): with one, each line added or removed
            // restyled every line in the log (issue 42), here only the line whose neighbour changed.
            const previous = items[index - 1];
            const joined =
              previous !== undefined && !('mark' in previous) && (previous.speaker === 'AI') === (who === 'ai');
            // An entry whose text did not change is not touched: only the changed line re-renders.
            return guard([entry.text, speaker, cutOff, joined], () => {
              // No whitespace around the text: bubbles keep the speaker's line breaks (pre-wrap).
              return html`<div
                class="entry ${who} ${entry.final ? '' : 'interim'} ${person ? 'person' : ''} ${joined ? 'joined' : ''}"
                part="entry entry-${who}${entry.final ? '' : ' entry-interim'}${person ? ' entry-person' : ''}"
                aria-hidden=${ifDefined(entry.final ? undefined : 'true')}
              ><span class="sr-only">${speaker}: </span>${entry.text}${cutOff ? '\u2026' : ''}</div>`;
            });
          },
        )}
      </div>
      ${entries.length === 0 ? html`<div class="empty" aria-hidden="true">${s.transcriptEmpty}</div>` : nothing}
      ${
        follow.showJump
          ? html`<button class="pill jump" part="jump-button" type="button" @click=${follow.onJump}>
            ${arrowDownIcon}${s.jumpToLatest}
          </button>`
          : nothing
      }
    </div>`;
  }

  /** The shown entries (from `first`) with this call's hold markers between them where they fell. */
  #withHoldMarks(entries: TranscriptEntry[], first: number): Array<TranscriptEntry | HoldMark> {
    const items: Array<TranscriptEntry | HoldMark> = entries.slice(first);
    // From the last marker back, so each insertion leaves the earlier positions as they were.
    for (let mark = this.#holdMarks.length - 1; mark >= 0; mark--) {
      const { at, held } = this.#holdMarks[mark] as { at: number; held: boolean };
      if (at >= first) items.splice(at - first, 0, { mark, held });
    }
    return items;
  }
}
