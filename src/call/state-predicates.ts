// What a public call state means, as two predicates: used by the element's idle entry and the
// call chunk alike, so this module imports nothing at runtime (like event-names.ts; the transition
// table in states.ts would take the error classes into the idle entry).
import type { CallState } from './types.js';

/** States with no call up: before the first call and after the last one ended. */
const RESTING_STATES: readonly CallState[] = ['idle', 'ended'];
/** States in which the call's media is up: the keypad, the hold and the call timer act. */
const UP_STATES: readonly CallState[] = ['in-call', 'reconnecting'];

/** No call is up (`idle`, `ended`): a call may start, the panel may close. */
export function isResting(state: CallState): boolean {
  return RESTING_STATES.includes(state);
}

/** The call's media is up (`in-call`, `reconnecting`). */
export function isUp(state: CallState): boolean {
  return UP_STATES.includes(state);
}
