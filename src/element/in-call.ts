// The call chunk, loaded by the element on intent, in idle time or on the click (call-loader.ts):
// the call logic, the in-call UI and styles, and the English strings the idle card does not show.
import { CallSession } from '../call/call-session.js';
import { missingCapabilities } from '../call/capabilities.js';
import { CompanionClient } from '../call/companion-client.js';
import { askMicrophonePermission } from '../call/microphone-permission.js';
import { preloadFeature, wantedFeatures } from '../call/optional-features.js';
import * as publicEvents from '../call/public-events.js';
import { loadPart, wantedParts } from './feature-parts.js';
import { preconnect } from '../call/preconnect.js';
import { idle } from './render-moments.js';
import { sessionOptions } from './session-options.js';

export { CallSession };
export { CallView } from './call-view.js';
export { en } from './strings.js';
export { sessionOptions, transcriptOf } from './session-options.js';
export { takeOver } from './take-over.js';

/**
 * The element's work ahead of a click, once this chunk is in (on intent or in idle time): the
 * microphone's permission asked now, so the click knows at once whether the dial may go beside the
 * microphone's request, and `task` (the element's call view) in the main thread's next idle moment.
 */
export function ahead(task: () => void): void {
  askMicrophonePermission();
  void idle().then(task);
}

/** The public part, for `loadCallApi()`. */
export const api = { CallSession, ...publicEvents };

// Loaded on intent (or the click): warm the connection to each companion on another origin the
// page's widgets call, ask each companion for the service's GraphQL URL (`GET /service`: the call
// opens that socket beside its create), and fetch the optional features their attributes ask for
// (features/registry.ts: the view part and the session side of each), beside this chunk's own
// imports (those in the document itself; not inside other components' shadow roots).
for (const element of document.querySelectorAll('voice-agent-call')) {
  const endpoint = element.getAttribute('endpoint');
  preconnect(endpoint);
  // Not from a browser that cannot call: nothing reaches the companion from it.
  if (endpoint && missingCapabilities().length === 0) void new CompanionClient(endpoint).serviceUrl();
  for (const name of wantedParts(element)) void loadPart(name);
  for (const name of wantedFeatures(sessionOptions(element))) preloadFeature(name);
}
