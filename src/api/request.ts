// One request to the calling service, shared by every call of the client (the companion's dial
// calls and each resource): the API key, a timeout per call (reading the body included), the
// caller's AbortSignal, and a `ServiceError` for every failure. Messages are written here: an
// upstream body or a fetch error's text never becomes part of one. Web APIs only; on Node the
// calls go through undici (undici.ts).
import { readCappedBody, type BodyChunks } from './body.js';
import { CallControl, follow, unfollow } from './call-control.js';
import { SERVICE_ERROR_OF_STATUS, ServiceError } from './service-error.js';
import type { ServiceTransport, TraceContext } from './transport.js';
import { fastPathNow, isNativeFetch, loadUndici, sendWithUndici, type UndiciAnswer } from './undici.js';

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
  /** W3C trace context of the caller's span, sent as `traceparent` (and `tracestate`). */
  traceContext?: TraceContext | undefined;
  signal?: AbortSignal | undefined;
}

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

/** What `requestService` reads from an answer, whichever client fetched it. */
interface UpstreamAnswer {
  status: number;
  /** fetch's Headers, or undici's header object (lower-case names). */
  headers: Headers | UndiciAnswer['headers'];
  /** The body as chunks (a web stream from fetch, a Node stream from undici). */
  body: BodyChunks | null;
}

function headerOf(answer: UpstreamAnswer, name: string): string | null {
  const { headers } = answer;
  // Any fetch's Headers (a fetch passed in may not be the global one's); undici's record holds only strings.
  if (typeof headers.get === 'function') return (headers as Headers).get(name);
  const value = (headers as UndiciAnswer['headers'])[name];
  return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
}

export async function requestService(transport: ServiceTransport, request: ServiceRequest): Promise<unknown> {
  const { what, signal } = request;
  if (signal?.aborted)
    throw new ServiceError('aborted', `${what} was aborted before it was sent`, { cause: signal.reason });
  const headers: Record<string, string> = {
    authorization: `Bearer ${transport.apiKey}`,
    accept: request.binary ? '*/*' : 'application/json',
  };
  let body: string | FormData | null = null;
  if (request.form) {
    body = request.form;
  } else if (request.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.body);
  }
  if (request.idempotencyKey) headers['idempotency-key'] = request.idempotencyKey;
  if (request.traceContext?.traceparent) {
    headers.traceparent = request.traceContext.traceparent;
    if (request.traceContext.tracestate) headers.tracestate = request.traceContext.tracestate;
  }
  let url = transport.baseUrl + request.path;
  if (request.query) {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(request.query)) {
      if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
    }
    if (search.size > 0) url += `?${search}`;
  }
  const useUndici = typeof body !== 'object' || body === null;
  // Loading undici happens once per process, before the first call's clock starts: on a busy
  // machine the import alone can take longer than a short upstream timeout.
  const known = fastPathNow();
  const fast = useUndici && isNativeFetch(transport.fetch) ? (known === undefined ? await loadUndici() : known) : null;
  // A plain timer rather than AbortSignal.timeout: Node's is unref'd, so a process with nothing
  // else to do would exit instead of timing out.
  const control = new CallControl(signal);
  const clock = setTimeout(CallControl.timeUp, transport.timeoutMs, control);
  if (signal) follow(signal, control);
  try {
    // A fetch the caller passed (or a patched global one) is always used as given.
    if (control.aborted || signal?.aborted) throw new DOMException('cancelled before it was sent', 'AbortError');
    let answer: UpstreamAnswer;
    /** undici's whole-text read can stand in for the capped loop over chunks. */
    let bounded = false;
    if (fast) {
      const response = await sendWithUndici(
        fast,
        url,
        transport.baseUrl,
        request.path,
        request.method,
        headers,
        body as string | null,
        control,
      );
      answer = { status: response.statusCode, headers: response.headers, body: response.body };
      // undici ends a body at its Content-Length (more is a protocol error), so a declared length
      // within the cap bounds the read: one read of the whole text instead of a loop over chunks.
      const declared = Number(headerOf(answer, 'content-length') ?? NaN);
      bounded =
        !request.binary &&
        Number.isInteger(declared) &&
        declared >= 0 &&
        declared <= (transport.maxResponseBytes ?? DEFAULT_MAX_JSON_BYTES);
    } else {
      const response = await transport.fetch(url, {
        method: request.method,
        headers,
        body,
        signal: control.fetchSignal(),
        redirect: 'error',
      });
      answer = { status: response.status, headers: response.headers, body: response.body };
    }
    const ok = answer.status >= 200 && answer.status < 300;
    const declared = headerOf(answer, 'content-length');
    if (ok && request.binary) {
      const bytes = await readCappedBody(
        answer.body,
        declared,
        transport.maxResponseBytes ?? DEFAULT_MAX_BINARY_BYTES,
        what,
        answer.status,
      );
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    }
    // Read the body under the same timer: a service that sends headers and then stalls times out too.
    const text = bounded
      ? await (answer.body as UndiciAnswer['body']).text()
      : new TextDecoder().decode(
          await readCappedBody(
            answer.body,
            declared,
            transport.maxResponseBytes ?? DEFAULT_MAX_JSON_BYTES,
            what,
            answer.status,
          ),
        );
    const parsed = parseJson(text);
    if (!ok) {
      const retryAfter = Number(headerOf(answer, 'retry-after'));
      throw new ServiceError(
        SERVICE_ERROR_OF_STATUS[answer.status] ?? 'server_error',
        `the service answered ${what} with HTTP ${answer.status}`,
        {
          status: answer.status,
          retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? Math.ceil(retryAfter) : null,
          ...(request.keepErrorBody ? { cause: { body: parsed.ok ? parsed.value : null } } : {}),
        },
      );
    }
    if (!parsed.ok) {
      throw new ServiceError('invalid_response', `the service answered ${what} with a body that is not JSON`, {
        status: answer.status,
        cause: parsed.error,
      });
    }
    return parsed.value;
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    if (signal?.aborted) throw new ServiceError('aborted', `${what} was aborted`, { cause: error });
    if (control.timedOut)
      throw new ServiceError('timeout', `the service did not answer ${what} within ${transport.timeoutMs} ms`, {
        cause: error,
      });
    throw new ServiceError('network_error', `the service could not be reached for ${what}`, { cause: error });
  } finally {
    clearTimeout(clock);
    if (signal) unfollow(signal, control);
  }
}
