// `api.agents`: /agents.
import { Resource, segment, type RequestOptions } from '../resource.js';
import type { Agent, CreateAgentInput, UpdateAgentInput } from '../types/agents.js';
import type { ListOptions, Page } from '../types/pagination.js';

export class AgentsResource extends Resource {
  /** `GET /agents`. */
  list(list: ListOptions = {}, options?: RequestOptions): Promise<Page<Agent>> {
    return this.client.page('/agents', list, options);
  }

  /** `POST /agents`. */
  create(input: CreateAgentInput, options?: RequestOptions): Promise<Agent> {
    return this.client.call('POST', '/agents', { body: input }, options);
  }

  /** `GET /agents/{id}`. */
  get(agentId: string, options?: RequestOptions): Promise<Agent> {
    return this.client.call('GET', `/agents/${segment(agentId)}`, {}, options);
  }

  /** `PUT /agents/{id}`. */
  update(agentId: string, input: UpdateAgentInput, options?: RequestOptions): Promise<Agent> {
    return this.client.call('PUT', `/agents/${segment(agentId)}`, { body: input }, options);
  }

  /** `DELETE /agents/{id}`: irreversible; answers the deleted agent. */
  delete(agentId: string, options?: RequestOptions): Promise<Agent> {
    return this.client.call('DELETE', `/agents/${segment(agentId)}`, {}, options);
  }
}
