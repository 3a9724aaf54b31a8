// `api.agents`: /agents. `delete` is irreversible and answers the deleted agent; `voicemailConfig`,
// `ivrSilenceHangupConfiguration`, `timeoutMessage` and lifecycle overrides round-trip.
import { CrudResource } from '../resource.js';
import type { Agent, CreateAgentInput, UpdateAgentInput } from '../types/agents.js';

export class AgentsResource extends CrudResource<Agent, CreateAgentInput, UpdateAgentInput> {
  protected readonly path = '/agents';
}
