// `api.extractors`: an agent's extractors, /agents/{agentId}/extractors; the JSON schema travels as text.
import { AgentPartResource, partPath, type RequestOptions } from '../resource.js';
import type { CreateExtractorInput, Extractor, ExtractorList, UpdateExtractorInput } from '../types/extractors.js';

export class ExtractorsResource extends AgentPartResource<Extractor, CreateExtractorInput, UpdateExtractorInput> {
  protected readonly part = 'extractors';

  /** `GET /agents/{agentId}/extractors`: `{ extractors }`, not paginated. */
  list(agentId: string, options?: RequestOptions): Promise<ExtractorList> {
    return this.client.call('GET', partPath(agentId, this.part), {}, options);
  }
}
