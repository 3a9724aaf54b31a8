// One request to the calling service, shared by the dial client and `VoiceAgentApi`: the API
// key, a timeout per call (reading the body included), the caller's AbortSignal, and a
// `ServiceError` for every failure. Messages are written here: an upstream body or a fetch
// error's text never becomes part of one.
import { ServiceError, type ServiceErrorCode } from './service-client.js';

export interface ServiceTransport {
  /** Without a trailing slash. */
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  fetch: typeof fetch;
  /** Longest answer read, in bytes; a longer one fails as `invalid_response`. Default 8 MiB (64 MiB for binary answers). */
  maxResponseBytes?: number;
}

export interface ServiceRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Already encoded. */
  path: string;
  /** How messages name the request, with ids left out, e.g. `POST /dials/:id/token`. */
  what: string;
  query?: Record<string, string | number | boolean | null | undefined> | undefined;
  /** Sent as JSON when defined. */
  body?: unknown;
  /** Sent as multipart (fetch writes the content type with its boundary). */
  form?: FormData | undefined;
  /** Answer the body's bytes instead of parsed JSON. */
  binary?: boolean;
  /** Keep a failed answer's parsed body as the error's `cause` (`{ body }`), for the caller to inspect. */
  keepErrorBody?: boolean;
  idempotencyKey?: string | undefined;
  signal?: AbortSignal | undefined;
}

const STATUS_CODES: Record<number, ServiceErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'unauthorized',
  404: 'not_found',
  409: 'conflict',
  422: 'unprocessable',
  429: 'rate_limited',
};

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: unknown } {
  if (text === '') return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error };
  }
}

const DEFAULT_MAX_JSON_BYTES = 8 * 1024 * 1024;
const DEFAULT_MAX_BINARY_BYTES = 64 * 1024 * 1024;

type BodyChunks = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** The chunks of a fetch body (a web stream) or a Node stream (undici); leaving the loop early cancels the body. */
async function* chunksOf(body: BodyChunks): AsyncGenerator<Uint8Array> {
  if (Symbol.asyncIterator in body) {
    yield* body as AsyncIterable<Uint8Array>;
    return;
  }
  const reader = (body as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/**
 * An answer's bytes, read up to `limit`: past it (declared in Content-Length, or streamed) the body
 * is cancelled and a ServiceError thrown, so a huge or endless answer never fills memory.
 */
export async function readCappedBody(body: BodyChunks | null, declaredLength: string | null, limit: number, what: string, status: number): Promise<Uint8Array> {
  const tooLarge = () => new ServiceError('invalid_response', `the service's answer to ${what} is larger than ${limit} bytes`, { status });
  const chunks: Uint8Array[] = [];
  let size = Number(declaredLength ?? NaN);
  if (Number.isFinite(size) && size > limit) {
    // Not read at all: a web stream is cancelled, a Node stream destroyed.
    const unread = body as { cancel?: () => Promise<void>; destroy?: () => void } | null;
    if (typeof unread?.cancel === 'function') await unread.cancel().catch(() => {});
    else unread?.destroy?.();
    throw tooLarge();
  }
  size = 0;
  if (body) {
    for await (const chunk of chunksOf(body)) {
      size += chunk.byteLength;
      if (size > limit) throw tooLarge();
      chunks.push(chunk);
    }
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** The answer's parsed JSON (null for an empty body), or its bytes when `binary`. */
export async function requestService(transport: ServiceTransport, request: ServiceRequest): Promise<unknown> {
  const { what, signal } = request;
  if (signal?.aborted) throw new ServiceError('aborted', `${what} was aborted before it was sent`, { cause: signal.reason });
  // A plain timer rather than AbortSignal.timeout: Node's is unref'd, so a process with nothing
  // else to do would exit instead of timing out.
  const timer = new AbortController();
  const clock = setTimeout(() => timer.abort(new DOMException('timed out', 'TimeoutError')), transport.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timer.signal]) : timer.signal;
  const headers: Record<string, string> = { authorization: `Bearer ${transport.apiKey}`, accept: request.binary ? '*/*' : 'application/json' };
  let body: string | FormData | null = null;
  if (request.form) {
    body = request.form;
  } else if (request.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.body);
  }
  if (request.idempotencyKey) headers['idempotency-key'] = request.idempotencyKey;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const url = transport.baseUrl + request.path + (search.size > 0 ? `?${search}` : '');
  try {
    const response = await transport.fetch(url, { method: request.method, headers, body, signal: combined, redirect: 'error' });
    const declared = response.headers.get('content-length');
    if (response.ok && request.binary) {
      const bytes = await readCappedBody(response.body, declared, transport.maxResponseBytes ?? DEFAULT_MAX_BINARY_BYTES, what, response.status);
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    }
    // Read the body under the same signal: a service that sends headers and then stalls times out too.
    const parsed = parseJson(new TextDecoder().decode(await readCappedBody(response.body, declared, transport.maxResponseBytes ?? DEFAULT_MAX_JSON_BYTES, what, response.status)));
    if (!response.ok) {
      const retryAfter = Number(response.headers.get('retry-after'));
      throw new ServiceError(STATUS_CODES[response.status] ?? 'server_error', `the service answered ${what} with HTTP ${response.status}`, {
        status: response.status,
        retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? Math.ceil(retryAfter) : null,
        ...(request.keepErrorBody ? { cause: { body: parsed.ok ? parsed.value : null } } : {}),
      });
    }
    if (!parsed.ok) {
      throw new ServiceError('invalid_response', `the service answered ${what} with a body that is not JSON`, { status: response.status, cause: parsed.error });
    }
    return parsed.value;
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    if (signal?.aborted) throw new ServiceError('aborted', `${what} was aborted`, { cause: error });
    if (timer.signal.aborted) throw new ServiceError('timeout', `the service did not answer ${what} within ${transport.timeoutMs} ms`, { cause: error });
    throw new ServiceError('network_error', `the service could not be reached for ${what}`, { cause: error });
  } finally {
    clearTimeout(clock);
  }
}
