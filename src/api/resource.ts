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
