// The call's state machine: every allowed transition is in this table, and nothing else happens.
import { IllegalTransitionError } from './errors.js';
import type { CallState } from './types.js';

// The public states' predicates (no call up, media up) are in state-predicates.ts, with no imports,
// so the idle entry can use them without this table.
export { isResting, isUp } from './state-predicates.js';

/** From each state, the states a call may move to. */
export const TRANSITIONS: Readonly<Record<CallState, readonly CallState[]>> = Object.freeze({
  idle: ['starting'],
  starting: ['connecting', 'ending'],
  connecting: ['in-call', 'ending'],
  'in-call': ['reconnecting', 'ending'],
  reconnecting: ['in-call', 'ending'],
  ending: ['ended'],
  ended: ['starting'],
});

/** States in which a call exists that has not begun to end. */
export const LIVE_STATES: readonly CallState[] = ['starting', 'connecting', 'in-call', 'reconnecting'];

export function canTransition(from: CallState, to: CallState): boolean {
  return TRANSITIONS[from].includes(to);
}

/** Returns `to`, or throws `IllegalTransitionError` when the table does not allow `from -> to`. */
export function transition(from: CallState, to: CallState): CallState {
  if (!canTransition(from, to)) throw new IllegalTransitionError(from, to);
  return to;
}

export function isLive(state: CallState): boolean {
  return LIVE_STATES.includes(state);
}

/**
 * Where one call is: the public states from `starting` on, with `ending` in two steps: `ending`
 * (hanging up, the room still up) and `released` (microphone, audio and room let go; the dial's
 * record is being read). `CallSession.state` is `stateOf` its call's phase, `idle` before the first.
 */
export type CallPhase = Exclude<CallState, 'idle'> | 'released';

export function stateOf(phase: CallPhase): CallState {
  return phase === 'released' ? 'ending' : phase;
}

/** The call has begun to end: no step of it runs any more. */
export function isEnding(phase: CallPhase): boolean {
  return phase === 'ending' || isReleased(phase);
}

/** The call let go of its microphone, audio element and room. */
export function isReleased(phase: CallPhase): boolean {
  return phase === 'released' || phase === 'ended';
}
