// The call chunk, loaded by the element on intent, in idle time or on the click (call-loader.ts):
// the call logic, the in-call UI and styles, and the English strings the idle card does not show.
import { CallSession } from '../call/call-session.js';
import * as publicEvents from '../call/public-events.js';

export { CallSession };
export { CallView } from './call-view.js';
export { en } from './strings.js';

/** The public part, for `loadCallApi()`. */
export const api = { CallSession, ...publicEvents };
