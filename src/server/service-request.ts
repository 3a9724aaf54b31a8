// One request to the calling service, shared by the dial client and `VoiceAgentApi`: the API
// key, a timeout per call (reading the body included), the caller's AbortSignal, and a
// `ServiceError` for every failure. Messages are written here: an upstream body or a fetch
// error's text never becomes part of one.
import { joinChunks } from './exchange.js';
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
export async function readCappedBody(
  body: BodyChunks | null,
  declaredLength: string | null,
  limit: number,
  what: string,
  status: number,
): Promise<Uint8Array> {
  const tooLarge = () =>
    new ServiceError('invalid_response', `the service's answer to ${what} is larger than ${limit} bytes`, { status });
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
  return joinChunks(chunks, size);
}

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

/**
 * One call's clock and cancellation: it stops the call when the time is up or the caller's signal
 * fires. undici reads it as its signal (`aborted`, `reason`, one `abort` listener added and
 * removed); a fetch gets an AbortController it aborts. The timer and the caller's signal call its
 * methods, so a call makes no closure, EventTarget or Event of its own (they were a third of a
 * call's CPU here).
 */
class CallControl {
  aborted = false;
  readonly reason = undefined;
  timedOut = false;
  readonly #caller: AbortSignal | undefined;
  #listener: (() => void) | null = null;
  #controller: AbortController | null = null;

  constructor(caller: AbortSignal | undefined) {
    this.#caller = caller;
  }

  /** Called by the timer. */
  static timeUp(control: CallControl): void {
    control.timedOut = true;
    control.#stop();
  }

  /** The caller's signal fired. */
  callerAborted(): void {
    this.#stop();
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    this.#listener = listener;
  }

  removeEventListener(): void {
    this.#listener = null;
  }

  /** For a fetch: a signal aborted with a TimeoutError, or the caller's reason. */
  fetchSignal(): AbortSignal {
    this.#controller = new AbortController();
    return this.#controller.signal;
  }

  #stop(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.#controller?.abort(this.timedOut ? new DOMException('timed out', 'TimeoutError') : this.#caller?.reason);
    const listener = this.#listener;
    this.#listener = null;
    listener?.();
  }
}

/**
 * The calls following each caller's signal. A signal gets one listener of its own, however many
 * calls it sees (the Node adapter hands one per connection to the requests on it); a call joins
 * and leaves the set, which costs far less than adding and removing an EventTarget listener.
 */
const following = new WeakMap<AbortSignal, Set<CallControl>>();

function follow(signal: AbortSignal, control: CallControl): void {
  let calls = following.get(signal);
  if (calls === undefined) {
    const created = new Set<CallControl>();
    calls = created;
    following.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        for (const call of created) call.callerAborted();
      },
      { once: true },
    );
  }
  calls.add(control);
}

interface UndiciCall {
  method: string;
  headers: Record<string, string>;
  body: string | null;
  signal: CallControl;
}

interface UndiciAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Uint8Array> & { text(): Promise<string> };
}

/** The part of undici's API used here (undici is loaded by name at run time, see `loadUndici`). */
interface Undici {
  Agent: new (options: { keepAliveTimeout: number; connections: number }) => {
    request(options: UndiciCall & { origin: string; path: string }): Promise<UndiciAnswer>;
  };
  request(url: string, options: UndiciCall & { dispatcher: object }): Promise<UndiciAnswer>;
}

interface FastPath {
  request: Undici['request'];
  /** One keep-alive dispatcher shared by every call to the service. */
  dispatcher: InstanceType<Undici['Agent']>;
}

/**
 * A path `new URL` leaves as it is: `/`-separated segments of characters it never encodes and
 * well-formed escapes, no `.`/`..` segment (also escaped) and no query. For such a path the call
 * goes to the dispatcher with origin and path apart, and neither undici nor this module parses a
 * URL per call; any other path is given to undici's `request` as a whole URL, as before.
 */
const PLAIN_PATH = /^(?:\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})*)+$/;
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?:\/|$)/i;
/** A base URL → its origin and path when it is written as URL writes it (else null); one entry per base. */
const bases = new Map<string, { origin: string; path: string } | null>();

function splitBase(baseUrl: string): { origin: string; path: string } | null {
  let known = bases.get(baseUrl);
  if (known === undefined) {
    known = null;
    try {
      const url = new URL(baseUrl);
      const path = url.pathname === '/' ? '' : url.pathname;
      const plain =
        (url.protocol === 'http:' || url.protocol === 'https:') &&
        !url.username &&
        !url.password &&
        !url.search &&
        !url.hash;
      if (plain && url.origin + path === baseUrl) known = { origin: url.origin, path };
    } catch {
      // Left to undici, which reports it as before.
    }
    if (bases.size >= 64) bases.clear();
    bases.set(baseUrl, known);
  }
  return known;
}

const NATIVE_FETCH = globalThis.fetch;
// The package name sits in a variable so that bundlers for runtimes without Node's `net` (Workers)
// leave undici out: there `fetch` does the calls.
const UNDICI = 'undici';
let fastPath: FastPath | null | undefined;
let loadingFastPath: Promise<FastPath | null> | undefined;

/**
 * On Node, calls go through undici's `request` on one keep-alive Agent: under load, fetch's own
 * work per call (Request/Response objects, web streams, an AbortSignal per call) cost the
 * companion about three times the CPU of the call itself. Elsewhere, or if undici cannot load: null.
 */
function loadUndici(): Promise<FastPath | null> {
  const onNode =
    typeof (globalThis as { process?: { versions?: { node?: unknown } } }).process?.versions?.node === 'string';
  loadingFastPath ??= !onNode
    ? Promise.resolve(null)
    : (import(/* @vite-ignore */ UNDICI) as Promise<Undici>).then(
        (undici) => ({
          request: undici.request,
          dispatcher: new undici.Agent({ keepAliveTimeout: 10_000, connections: 256 }),
        }),
        () => null,
      );
  return loadingFastPath.then((loaded) => (fastPath = loaded));
}
// Started when this module loads, so the first call rarely waits for it.
void loadUndici();

/** The answer's parsed JSON (null for an empty body), or its bytes when `binary`. */
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
  const fast =
    useUndici && transport.fetch === NATIVE_FETCH && globalThis.fetch === NATIVE_FETCH
      ? fastPath === undefined
        ? await loadUndici()
        : fastPath
      : null;
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
      const base = url === transport.baseUrl + request.path ? splitBase(transport.baseUrl) : null;
      const path = base ? base.path + request.path : '';
      const response =
        base && PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path)
          ? await fast.dispatcher.request({
              origin: base.origin,
              path,
              method: request.method,
              headers,
              body: body as string | null,
              signal: control,
            })
          : await fast.request(url, {
              method: request.method,
              headers,
              body: body as string | null,
              signal: control,
              dispatcher: fast.dispatcher,
            });
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
        STATUS_CODES[answer.status] ?? 'server_error',
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
    if (signal) following.get(signal)?.delete(control);
  }
}
