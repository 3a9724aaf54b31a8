// `api.versionedPrompts`: an agent's prompts, /agents/{agentId}/versioned_prompts: `STANDARD` with
// a `prompt`, or `CUSTOM_FLOW` with a `flowDefinition`.
import { AgentPartResource, partPath, type RequestOptions } from '../resource.js';
import type { ListOptions, Page } from '../types/pagination.js';
import type {
  CreateVersionedPromptInput,
  UpdateVersionedPromptInput,
  VersionedPrompt,
} from '../types/versioned-prompts.js';

export class VersionedPromptsResource extends AgentPartResource<
  VersionedPrompt,
  CreateVersionedPromptInput,
  UpdateVersionedPromptInput
> {
  protected readonly part = 'versioned_prompts';

  /** `GET /agents/{agentId}/versioned_prompts`. */
  list(agentId: string, list: ListOptions = {}, options?: RequestOptions): Promise<Page<VersionedPrompt>> {
    return this.client.page(partPath(agentId, this.part), list, options);
  }
}
