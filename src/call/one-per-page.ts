// Whether a call may start here, before anything is spent (no microphone prompt, no dial): the
// browser can hold a call (capabilities.ts), and, for sessions with `onePerPage`, no other call of
// the page is live (between its start and its end): at most one.
import { missingCapabilities } from './capabilities.js';
import type { EndDetail, Ending } from './endings.js';

const liveSessions = new Set<object>();

/** Another session of the page than `session` has a live call. */
export const otherCallLive = (session: object): boolean => [...liveSessions].some((live) => live !== session);

export const claimPage = (session: object): void => void liveSessions.add(session);

export const releasePage = (session: object): void => void liveSessions.delete(session);

/** How a call that may not start ends at once, or null when it may start. */
export function startRefusal(session: object, onePerPage: boolean): { ending: Ending; detail: EndDetail } | null {
  const missing = missingCapabilities();
  if (missing.length === 0 && !(onePerPage && otherCallLive(session))) return null;
  if (missing.length === 0) {
    const message =
      'another call is in progress on this page (one live call per page): hang that one up before starting this one';
    return { ending: 'call-in-progress', detail: { message } };
  }
  const message = `this browser cannot place voice calls: it lacks ${missing.join(', ')}`;
  return { ending: 'unsupported-browser', detail: { message, missing } };
}
