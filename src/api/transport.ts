// What every call to the service needs to know: where the service is, the API key, the time
// allowed, the fetch to use. Options as the caller writes them, and the checked transport made
// from them once per client.

export interface ServiceClientOptions {
  /** The service's API base URL, e.g. `https://api.example.com/api` or the emulator's `apiUrl`. */
  baseUrl: string;
  /** The service's GraphQL endpoint. Default: the origin of `baseUrl` + `/query`. */
  graphqlUrl?: string;
  apiKey: string;
  /** Per call, including reading the body. Default 10 000 ms. */
  timeoutMs?: number;
  /** Replaces the global fetch (tests, instrumented fetches). */
  fetch?: typeof fetch;
  /** Longest answer read from the service by the dial calls, default 2 MiB (a long call's full transcript is a few hundred KB). */
  maxResponseBytes?: number;
}

/** Per call: an AbortSignal (and, for a dial create, an idempotency key). */
export interface CallOptions {
  signal?: AbortSignal;
  /** Sent as the `Idempotency-Key` header (create only). */
  idempotencyKey?: string;
  /** W3C trace context (`traceparent`, `tracestate`) passed on to the service with the call. */
  traceContext?: TraceContext;
}

/** The W3C trace-context headers of a call (https://www.w3.org/TR/trace-context/). */
export interface TraceContext {
  traceparent?: string;
  tracestate?: string;
}

export interface ServiceTransport {
  /** Without a trailing slash. */
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  fetch: typeof fetch;
  /** Longest answer read, in bytes; a longer one fails as `invalid_response`. Default 8 MiB (64 MiB for binary answers). */
  maxResponseBytes?: number;
}

/** The dial calls' transport: the GraphQL endpoint too, and a tighter answer cap. */
export interface DialTransport extends ServiceTransport {
  graphqlUrl: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_DIAL_RESPONSE_BYTES = 2 * 1024 * 1024;

/** The GraphQL endpoint the service's browser client uses: the API's origin + `/query`. */
export function defaultGraphqlUrl(baseUrl: string): string {
  return new URL('/query', baseUrl).href;
}

/** A transport for any call; throws a TypeError naming `who` when the options cannot work. */
export function serviceTransport(options: ServiceClientOptions, who: string): ServiceTransport {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  if (!baseUrl) throw new TypeError(`${who}: baseUrl is required`);
  if (!options.apiKey) throw new TypeError(`${who}: apiKey is required`);
  return {
    baseUrl,
    apiKey: options.apiKey,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    fetch: options.fetch ?? globalThis.fetch,
  };
}

/** The dial calls' transport: `serviceTransport` plus the GraphQL endpoint and the dial answer cap. */
export function dialTransport(options: ServiceClientOptions, who: string): DialTransport {
  const transport = serviceTransport(options, who);
  let graphqlUrl: string;
  try {
    graphqlUrl = options.graphqlUrl ? new URL(options.graphqlUrl).href : defaultGraphqlUrl(transport.baseUrl);
  } catch {
    throw new TypeError(`${who}: graphqlUrl (or baseUrl) is not an absolute URL`);
  }
  return {
    ...transport,
    graphqlUrl,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_DIAL_RESPONSE_BYTES,
  };
}
