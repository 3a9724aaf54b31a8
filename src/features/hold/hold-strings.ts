// Hold: the strings the element shows for it, and their English (strings.ts spreads them into its
// language; the Arabic is hold-strings-ar.ts, in the Arabic chunk). The status line, the
// transcript's markers and the refusal's notice are the call view's: they say a hold whoever
// asked for it (the page too), so these stay with the call chunk, as transfer's do.

export interface HoldStrings {
  /** The hold toggle (`controls="hold"`), held or not: `aria-pressed="true"` says the call is on hold. */
  hold: string;
  /** @deprecated Not shown: the hold toggle keeps one name, `hold`, and says its state with `aria-pressed`. */
  resume: string;
  /** The status line while the call is on hold, and the transcript's marker where a hold began. */
  statusOnHold: string;
  /** The transcript's marker where a hold ended (the agent listens again). */
  holdResumed: string;
  /** Shown when the hold did not take. */
  holdFailed: string;
}

export const holdEn: HoldStrings = {
  hold: 'Hold',
  resume: 'Resume',
  statusOnHold: 'On hold',
  holdResumed: 'Resumed',
  holdFailed: 'The call could not be put on hold or resumed. Please try again.',
};
