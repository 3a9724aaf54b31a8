// Every resource route besides the dials, over one in-memory workspace.
import { agentRoutes } from './agents.js';
import { catalogRoutes } from './catalog.js';
import { dialingRoutes } from './dialing.js';
import { evalRoutes } from './evals.js';
import { phoneNumberRoutes } from './phone-numbers.js';
import type { ResourceRoute } from './route.js';
import { voicelabRoutes } from './voicelab.js';
import type { Workspace } from './workspace.js';

export { Workspace } from './workspace.js';
export type { ResourceRequest, ResourceRoute } from './route.js';

export function resourceRoutes(ws: Workspace): ResourceRoute[] {
  return [...agentRoutes(ws), ...catalogRoutes(ws), ...phoneNumberRoutes(ws), ...dialingRoutes(ws), ...evalRoutes(ws), ...voicelabRoutes(ws)];
}
