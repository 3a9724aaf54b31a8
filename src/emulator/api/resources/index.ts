// Every resource route, dials included, over the one store.
import type { Store } from '../store.js';
import { agentRoutes } from './agents.js';
import { catalogRoutes } from './catalog.js';
import { dialingRoutes } from './dialing.js';
import { dialRoutes } from './dials.js';
import { evalRoutes } from './evals.js';
import { phoneNumberRoutes } from './phone-numbers.js';
import type { ResourceRoute } from './route.js';
import { voicelabRoutes } from './voicelab.js';

export type { ResourceRequest, ResourceRoute } from './route.js';

export function resourceRoutes(store: Store): ResourceRoute[] {
  return [
    ...dialRoutes(store),
    ...agentRoutes(store),
    ...catalogRoutes(store),
    ...phoneNumberRoutes(store),
    ...dialingRoutes(store),
    ...evalRoutes(store),
    ...voicelabRoutes(store),
  ];
}
