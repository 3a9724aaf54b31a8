// Talk to a person, what the call view shows of it whoever asked for it (call chunk): the status
// line while and after the call goes to a person, and who a transcript entry is from. The
// `transfer-button` is its part's (transfer-part.ts, a chunk of its own).
import type { CallSessionLike, TranscriptEntry } from '../../call/types.js';
import type { TransferStrings } from './transfer-strings.js';

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
