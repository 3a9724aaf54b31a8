// Every resource route besides the dials, over one in-memory workspace.
import type { DialLookup } from '../dial-input.js';
import { agentRoutes, agentWithOverrides } from './agents.js';
import { catalogRoutes } from './catalog.js';
import { dialingRoutes } from './dialing.js';
import { evalRoutes } from './evals.js';
import { phoneNumberRoutes } from './phone-numbers.js';
import type { ResourceRoute } from './route.js';
import { voicelabRoutes } from './voicelab.js';
import type { Workspace } from './workspace.js';

export { Workspace } from './workspace.js';
export type { ResourceRequest, ResourceRoute } from './route.js';

/** What `POST /dials` checks its ids against, and its agent with `agentOverrides` applied. */
export function dialLookup(ws: Workspace): DialLookup {
  return {
    agentForDial(id, overrides) {
      const agent = ws.agentForDial(id);
      return agent && overrides ? agentWithOverrides(ws, agent, overrides) : agent;
    },
    hasPhoneNumber: (id) => ws.phoneNumbers.has(id),
    hasPhoneNumberPool: (id) => ws.pools.has(id),
    hasVoice: (id) => ws.voices.has(id),
    hasPrompt: (agentId, promptId) => ws.prompts.get(agentId)?.has(promptId) ?? false,
    hasExtractor: (agentId, extractorId) => ws.extractors.get(agentId)?.has(extractorId) ?? false,
  };
}

export function resourceRoutes(ws: Workspace): ResourceRoute[] {
  return [
    ...agentRoutes(ws),
    ...catalogRoutes(ws),
    ...phoneNumberRoutes(ws),
    ...dialingRoutes(ws),
    ...evalRoutes(ws),
    ...voicelabRoutes(ws),
  ];
}
