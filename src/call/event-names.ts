// The names of a call's events, declared once: `CALL_EVENTS` names each event `CallSession`
// dispatches and says whether the element re-dispatches it; `CallSessionEventMap` (types.ts) gives
// its detail, and the compiler holds the two to the same names. The event classes (events.ts),
// `CallSession`'s listener typing, the element's re-dispatch, the React and Vue wrappers and the
// manifest derive from them; test/node/call-events.test.ts fails when the element's `@fires` tags
// drift. Names only: code the element's idle entry loads may import this without the event classes.
import type { CallEventMap } from './types.js';

/**
 * Every event of a call: `public` ones `CallSession` dispatches and the element re-dispatches to the
 * page, `internal` ones reach only the element's UI, `element` ones only the element fires (its
 * consent gate and rating; they reach the page like the public ones).
 */
export const CALL_EVENTS = {
  'call-state': 'public',
  'call-connected': 'public',
  'call-resumed': 'public',
  'call-transcript': 'public',
  'call-mute': 'public',
  'call-hold': 'public',
  'call-dtmf': 'public',
  'call-device': 'public',
  'call-quality': 'public',
  'call-progress': 'public',
  'call-transfer': 'public',
  'call-error': 'public',
  'call-ended': 'public',
  'agent-speaking': 'internal',
  'audio-blocked': 'internal',
  'call-consent': 'element',
  'call-feedback': 'element',
} as const satisfies Record<keyof CallEventMap, 'public' | 'internal' | 'element'>;

export type CallEventName = keyof typeof CALL_EVENTS;
/** The events a page can listen to on the element: the session's public ones and the element's own. */
export type PublicCallEventName = {
  [K in CallEventName]: (typeof CALL_EVENTS)[K] extends 'public' | 'element' ? K : never;
}[CallEventName];
/** The events a `CallSession` dispatches. */
export type SessionEventName = {
  [K in CallEventName]: (typeof CALL_EVENTS)[K] extends 'element' ? never : K;
}[CallEventName];

export function isCallEvent(name: string): name is CallEventName {
  return Object.hasOwn(CALL_EVENTS, name);
}

export function isPublicCallEvent(name: string): name is PublicCallEventName {
  return isCallEvent(name) && CALL_EVENTS[name] !== 'internal';
}

export function isSessionEvent(name: string): name is SessionEventName {
  return isCallEvent(name) && CALL_EVENTS[name] !== 'element';
}

/** Every event name, in declaration order (the order the docs list them). */
export const CALL_EVENT_NAMES: readonly CallEventName[] = Object.keys(CALL_EVENTS).filter(isCallEvent);
export const PUBLIC_CALL_EVENTS: readonly PublicCallEventName[] = CALL_EVENT_NAMES.filter(isPublicCallEvent);
export const SESSION_EVENT_NAMES: readonly SessionEventName[] = CALL_EVENT_NAMES.filter(isSessionEvent);
