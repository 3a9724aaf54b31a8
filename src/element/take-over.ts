// Taking up a live call without a click (call chunk): the one another element of the endpoint
// left in this task (a framework's re-mount: call-controller.ts parks it), or with `persist` the one
// this tab's earlier page left (src/features/persist keeps its record; the session rejoins it).
import { isResting } from '../call/state-predicates.js';
import type { CallSessionLike } from '../call/types.js';
import { takeParkedSession } from './call-controller.js';
import { storedResume } from './call-loader.js';
import { sessionOptions } from './session-options.js';

/** What an element gives: its attributes, its place, and its session (made, or bound to an adopted one). */
interface TakingElement extends HTMLElement {
  readonly endpoint?: string | undefined;
  readonly persist: boolean;
  readonly state: string;
  readonly shadowRoot: ShadowRoot | null;
  readonly debug: boolean;
}

/** Adopts a parked call, or with `persist` resumes a stored one; does nothing when neither is there. */
export function takeOver(
  element: TakingElement,
  session: (adopted?: CallSessionLike) => CallSessionLike,
  consentAt?: string,
): void {
  const left = element.state === 'idle' ? takeParkedSession(element.endpoint ?? '', element.parentNode) : null;
  if (left) {
    session(left);
    return;
  }
  if (!element.persist || !element.isConnected || !storedResume()) return;
  const own = session();
  if (!isResting(own.state)) return;
  own.configure(sessionOptions(element, consentAt));
  // A persist chunk that failed to load leaves the call to the companion's grace, as no record would.
  void own.resume?.().catch(() => undefined);
}
