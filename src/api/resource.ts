// What every resource of `VoiceAgentApi` calls: one request through `requestService` with the
// answer's shape checked (an object, an array, a page, or bytes), and the path helpers. Outside
// the dial calls the service's error body is kept as the error's `cause` (`{ body }`) for the
// caller to inspect, never folded into the message.
import { requestService } from './request.js';
import { invalidResponse } from './service-error.js';
import type { CallOptions, ServiceTransport } from './transport.js';
import type { ListOptions, Page } from './types/pagination.js';

/** Per call: an AbortSignal (and, for a dial create, an idempotency key). */
export type RequestOptions = CallOptions;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Query = Record<string, string | number | boolean | null | undefined>;

export interface ResourceRequest {
  query?: Query;
  body?: unknown;
  form?: FormData;
  /** What the answer must be: an object (default), an array, or bytes (`ArrayBuffer`). */
  shape?: 'object' | 'array' | 'binary';
}

/** An id as one path segment: encoded, and never empty (`/agents/` would name the listing). */
export function segment(value: string): string {
  if (typeof value !== 'string' || value === '') throw new TypeError('an id must be a non-empty string');
  return encodeURIComponent(value);
}

/** The path with ids replaced, so messages do not grow with (or leak) ids. */
function describe(path: string): string {
  return path.replace(
    /\/(agents|versioned_prompts|extractors|phone_numbers|phone_number_pools|tasks|functions|batch_dial_jobs|eval_configs|eval_runs|eval_results|records)\/(?!search$|purchase$)[^/]+/g,
    '/$1/:id',
  );
}

/** A group of calls on one resource (`api.agents`, `api.voices`, …), over the shared `ResourceClient`. */
export abstract class Resource {
  protected readonly client: ResourceClient;

  constructor(client: ResourceClient) {
    this.client = client;
  }
}

/** The calls of every resource but the dials, over one transport. */
export class ResourceClient {
  readonly #transport: ServiceTransport;

  constructor(transport: ServiceTransport) {
    this.#transport = transport;
  }

  /** One call whose answer has `request.shape`. */
  async call<T>(method: Method, path: string, request: ResourceRequest, options: RequestOptions = {}): Promise<T> {
    const what = `${method} ${describe(path)}`;
    const withBody =
      request.form === undefined && (request.body !== undefined || method === 'POST' || method === 'PUT');
    const value = await requestService(this.#transport, {
      method,
      path,
      what,
      query: request.query,
      body: withBody ? (request.body ?? {}) : undefined,
      form: request.form,
      binary: request.shape === 'binary',
      keepErrorBody: true,
      ...options,
    });
    if (request.shape === 'binary') return value as T;
    const fits =
      request.shape === 'array'
        ? Array.isArray(value)
        : typeof value === 'object' && value !== null && !Array.isArray(value);
    if (!fits) throw invalidResponse(what);
    return value as T;
  }

  /** A `{ data, cursor }` listing page (`cursor` null on the last). */
  async page<T>(path: string, list: ListOptions, options?: RequestOptions): Promise<Page<T>> {
    const page = await this.call<Page<T>>('GET', path, { query: { ...list } as Query }, options);
    if (!Array.isArray(page.data)) throw invalidResponse(`GET ${describe(path)}`);
    return { ...page, cursor: page.cursor ?? null };
  }
}

/** A resource whose items live at `{path}/{id}`: create, get and update them. */
export abstract class ItemResource<Item, CreateInput, UpdateInput> extends Resource {
  /** The collection's path, e.g. `/agents`. */
  protected abstract readonly path: string;

  /** `POST {path}`. */
  create(input: CreateInput, options?: RequestOptions): Promise<Item> {
    return this.client.call('POST', this.path, { body: input }, options);
  }

  /** `GET {path}/{id}`. */
  get(id: string, options?: RequestOptions): Promise<Item> {
    return this.client.call('GET', `${this.path}/${segment(id)}`, {}, options);
  }

  /** `PUT {path}/{id}`. */
  update(id: string, input: UpdateInput, options?: RequestOptions): Promise<Item> {
    return this.client.call('PUT', `${this.path}/${segment(id)}`, { body: input }, options);
  }
}

/** …listed page by page (`GET {path}` → `{ data, cursor }`). */
export abstract class ListedResource<
  Item,
  CreateInput,
  UpdateInput,
  List extends ListOptions = ListOptions,
> extends ItemResource<Item, CreateInput, UpdateInput> {
  /** `GET {path}`: one page; `paginate` walks them all. */
  list(list?: List, options?: RequestOptions): Promise<Page<Item>> {
    return this.client.page(this.path, list ?? {}, options);
  }
}

/** …and deleted (`DELETE {path}/{id}` answers the deleted item). */
export abstract class CrudResource<
  Item,
  CreateInput,
  UpdateInput,
  List extends ListOptions = ListOptions,
> extends ListedResource<Item, CreateInput, UpdateInput, List> {
  /** `DELETE {path}/{id}`: irreversible; answers the deleted item. */
  delete(id: string, options?: RequestOptions): Promise<Item> {
    return this.client.call('DELETE', `${this.path}/${segment(id)}`, {}, options);
  }
}

/** `/agents/{agentId}/{part}`. */
export function partPath(agentId: string, part: string): string {
  return `/agents/${segment(agentId)}/${part}`;
}

/** A part of an agent at `/agents/{agentId}/{part}/{id}`: create, get and update it. */
export abstract class AgentPartResource<Item, CreateInput, UpdateInput> extends Resource {
  /** The part's path segment, e.g. `extractors`. */
  protected abstract readonly part: string;

  /** `POST /agents/{agentId}/{part}`. */
  create(agentId: string, input: CreateInput, options?: RequestOptions): Promise<Item> {
    return this.client.call('POST', partPath(agentId, this.part), { body: input }, options);
  }

  /** `GET /agents/{agentId}/{part}/{id}`. */
  get(agentId: string, id: string, options?: RequestOptions): Promise<Item> {
    return this.client.call('GET', `${partPath(agentId, this.part)}/${segment(id)}`, {}, options);
  }

  /** `PUT /agents/{agentId}/{part}/{id}`. */
  update(agentId: string, id: string, input: UpdateInput, options?: RequestOptions): Promise<Item> {
    return this.client.call('PUT', `${partPath(agentId, this.part)}/${segment(id)}`, { body: input }, options);
  }
}
