// `api.versionedPrompts`: an agent's prompts, /agents/{agentId}/versioned_prompts.
import { Resource, segment, type RequestOptions } from '../resource.js';
import type { ListOptions, Page } from '../types/pagination.js';
import type {
  CreateVersionedPromptInput,
  UpdateVersionedPromptInput,
  VersionedPrompt,
} from '../types/versioned-prompts.js';

const prompts = (agentId: string) => `/agents/${segment(agentId)}/versioned_prompts`;

export class VersionedPromptsResource extends Resource {
  /** `GET /agents/{agentId}/versioned_prompts`. */
  list(agentId: string, list: ListOptions = {}, options?: RequestOptions): Promise<Page<VersionedPrompt>> {
    return this.client.page(prompts(agentId), list, options);
  }

  /** `POST /agents/{agentId}/versioned_prompts`: `STANDARD` with a `prompt`, or `CUSTOM_FLOW` with a `flowDefinition`. */
  create(agentId: string, input: CreateVersionedPromptInput, options?: RequestOptions): Promise<VersionedPrompt> {
    return this.client.call('POST', prompts(agentId), { body: input }, options);
  }

  /** `GET /agents/{agentId}/versioned_prompts/{id}`. */
  get(agentId: string, promptId: string, options?: RequestOptions): Promise<VersionedPrompt> {
    return this.client.call('GET', `${prompts(agentId)}/${segment(promptId)}`, {}, options);
  }

  /** `PUT /agents/{agentId}/versioned_prompts/{id}`. */
  update(
    agentId: string,
    promptId: string,
    input: UpdateVersionedPromptInput,
    options?: RequestOptions,
  ): Promise<VersionedPrompt> {
    return this.client.call('PUT', `${prompts(agentId)}/${segment(promptId)}`, { body: input }, options);
  }
}
