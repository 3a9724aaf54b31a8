// The call chunk, loaded by the element on intent, in idle time or on the click (call-loader.ts):
// the call logic, the in-call UI and styles, and the English strings the idle card does not show.
import { CallSession } from '../call/call-session.js';
import { preloadFeature } from '../call/optional-features.js';
import * as publicEvents from '../call/public-events.js';
import { FEATURE_ROWS, isAsked, type SessionFeatureName } from '../features/registry.js';
import { shownControls } from './call-part.js';
import { loadPart, type FeaturePartName } from './feature-parts.js';
import { preconnect } from './preconnect.js';

export { CallSession };
export { CallView } from './call-view.js';
export { en } from './strings.js';
export { sessionOptions, transcriptOf } from './session-options.js';
export { takeOver } from './take-over.js';

/** The public part, for `loadCallApi()`. */
export const api = { CallSession, ...publicEvents };

// Loaded on intent (or the click): warm the connection to each companion on another origin the
// page's widgets call, and fetch the optional features their attributes ask for (features/registry.ts:
// the view part and the session side of each), beside this chunk's own imports (those in the
// document itself; not inside other components' shadow roots).
for (const element of document.querySelectorAll('voice-agent-call')) {
  preconnect(element.getAttribute('endpoint'));
  const controls = shownControls(element.controls);
  for (const [name, row] of FEATURE_ROWS) {
    if (!isAsked(name, element, controls)) continue;
    if (row.part) void loadPart(name as FeaturePartName);
    if (row.session) preloadFeature(name as SessionFeatureName);
  }
}
