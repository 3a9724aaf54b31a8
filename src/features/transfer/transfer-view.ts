// Talk to a person, the element's side (call chunk): the `transfer-button` ("Talk to a person")
// for the controls row, the status line while and after the call goes to a person, and who a
// transcript entry is from. The in-call controls and the call view call these.
import { html, svg, type TemplateResult } from 'lit';
import type { CallSessionLike, TranscriptEntry } from '../../call/types.js';
import type { TransferStrings } from './transfer-strings.js';

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

/**
 * The button, while the call's companion offers a transfer and none was asked yet (`canTransfer`),
 * or while one is under way (`aria-disabled`); nothing otherwise.
 */
export function transferButton(
  session: CallSessionLike | null,
  s: TransferStrings,
  inactive: 'true' | undefined,
  onClick: () => void,
): TemplateResult | null {
  if (!session?.requestTransfer) return null;
  const asking = session.transferState === 'requested';
  if (!session.canTransfer && !asking) return null;
  return html`<button
    class="control transfer"
    part="transfer-button"
    type="button"
    aria-disabled=${asking || inactive ? 'true' : 'false'}
    @click=${onClick}
  >
    ${personIcon}<span>${s.talkToPerson}</span>
  </button>`;
}

/** The status line for the call's transfer, or null when none is asked or it failed (the call is with the agent). */
export function transferStatus(session: CallSessionLike | null, s: TransferStrings): string | null {
  const state = session?.transferState;
  if (state === 'requested') return s.statusTransferring;
  if (state === 'connected') return s.statusWithPerson;
  return null;
}

/** The entry at `index` is the person's: the other side's, from the first entry after the call went to a person. */
export function isPersonEntry(session: CallSessionLike | null, index: number, entry: TranscriptEntry): boolean {
  const from = session?.personFromEntry;
  return from !== null && from !== undefined && entry.speaker === 'AI' && index >= from;
}
