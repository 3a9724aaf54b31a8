// `api.models`: the AI models a prompt can use.
import { Resource, type RequestOptions } from '../resource.js';
import type { AIModel } from '../types/models.js';
import type { ListOptions, Page } from '../types/pagination.js';

export class ModelsResource extends Resource {
  /** `GET /models`. */
  list(list: ListOptions = {}, options?: RequestOptions): Promise<Page<AIModel>> {
    return this.client.page('/models', list, options);
  }
}
