// `api.functions`: /functions, the functions agents call during a dial.
import { Resource, segment, type RequestOptions } from '../resource.js';
import type {
  CreateFunctionInput,
  FunctionDefinition,
  ListFunctionsOptions,
  UpdateFunctionInput,
} from '../types/functions.js';
import type { Page } from '../types/pagination.js';

export class FunctionsResource extends Resource {
  /** `GET /functions?displayName=&limit=&cursor=`: `displayName` is an exact match. */
  list(list: ListFunctionsOptions = {}, options?: RequestOptions): Promise<Page<FunctionDefinition>> {
    return this.client.page('/functions', list, options);
  }

  /** `POST /functions`. */
  create(input: CreateFunctionInput, options?: RequestOptions): Promise<FunctionDefinition> {
    return this.client.call('POST', '/functions', { body: input }, options);
  }

  /** `GET /functions/{id}`. */
  get(functionId: string, options?: RequestOptions): Promise<FunctionDefinition> {
    return this.client.call('GET', `/functions/${segment(functionId)}`, {}, options);
  }

  /** `PUT /functions/{id}`. */
  update(functionId: string, input: UpdateFunctionInput, options?: RequestOptions): Promise<FunctionDefinition> {
    return this.client.call('PUT', `/functions/${segment(functionId)}`, { body: input }, options);
  }

  /** `DELETE /functions/{id}`: also unlinks it from every agent; answers the deleted function. */
  delete(functionId: string, options?: RequestOptions): Promise<FunctionDefinition> {
    return this.client.call('DELETE', `/functions/${segment(functionId)}`, {}, options);
  }
}
