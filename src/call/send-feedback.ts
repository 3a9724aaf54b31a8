// The rating after a call, the session's side (`CallSession.sendFeedback`): the companion's
// `POST {endpoint}/dials/:id/feedback`, authorised by the ended dial's handle. (The rating's view is
// src/features/feedback, a chunk of its own.)
import type { ActiveCall } from './active-call.js';
import { CompanionError } from './errors.js';
import type { CallRating } from './types.js';

/** Rejects with a `CompanionError`: `duplicate_request` (409) when rated already, `invalid_request` when no dial ended. */
export async function sendFeedback(
  call: ActiveCall | null,
  feedback: { rating: CallRating; comment?: string },
): Promise<void> {
  if (!call?.dial || call.phase !== 'ended')
    throw new CompanionError('invalid_request', 'there is no ended call with a dial to rate');
  await call.companion.feedback(call.dial, feedback, new AbortController().signal);
}
