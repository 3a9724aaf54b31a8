// `api.extractors`: an agent's extractors, /agents/{agentId}/extractors.
import { Resource, segment, type RequestOptions } from '../resource.js';
import type { CreateExtractorInput, Extractor, ExtractorList, UpdateExtractorInput } from '../types/extractors.js';

const extractors = (agentId: string) => `/agents/${segment(agentId)}/extractors`;

export class ExtractorsResource extends Resource {
  /** `GET /agents/{agentId}/extractors`: `{ extractors }`, not paginated. */
  list(agentId: string, options?: RequestOptions): Promise<ExtractorList> {
    return this.client.call('GET', extractors(agentId), {}, options);
  }

  /** `POST /agents/{agentId}/extractors`; the JSON schema travels as text. */
  create(agentId: string, input: CreateExtractorInput, options?: RequestOptions): Promise<Extractor> {
    return this.client.call('POST', extractors(agentId), { body: input }, options);
  }

  /** `GET /agents/{agentId}/extractors/{id}`. */
  get(agentId: string, extractorId: string, options?: RequestOptions): Promise<Extractor> {
    return this.client.call('GET', `${extractors(agentId)}/${segment(extractorId)}`, {}, options);
  }

  /** `PUT /agents/{agentId}/extractors/{id}`. */
  update(
    agentId: string,
    extractorId: string,
    input: UpdateExtractorInput,
    options?: RequestOptions,
  ): Promise<Extractor> {
    return this.client.call('PUT', `${extractors(agentId)}/${segment(extractorId)}`, { body: input }, options);
  }
}
