// Request bodies read within a cap, for the companion and the emulator alike (as Hono's
// `body-limit`): one cap, one verdict. A body is kept up to `keepBytes`; past it the answer is
// "too large" (`null`), known as soon as the byte that crosses the cap arrives. A Node request is
// then read on and thrown away up to `drainBytes`, so its client reads the 413 rather than a
// reset; a declared `Content-Length` past `drainBytes` is not read at all, and reading stops at
// that bound (the connection then closes, lingering: see `lingerClose`). Each server words its
// own 413: the companion's `{ error: { code, message } }`, the emulator's copy of the service's.
// Web APIs only.

/** Beyond the cap, a body is read on (and dropped) this far at most before its connection is let go. */
export const DRAIN_LIMIT_BYTES = 1024 * 1024;

/**
 * A connection let go with its body unread is closed lingering, as nginx's `lingering_close` does:
 * the answer and a FIN go out, then what the client still sends is read and dropped, for this
 * long at most…
 */
export const LINGER_MS = 2000;
/** …and this much at most, before the socket is closed. */
export const LINGER_BYTES = 16 * 1024 * 1024;

/** A `Content-Length` that says the body is past `limit` (absent or unreadable says nothing). */
export function declaredOver(contentLength: string | null | undefined, limit: number): boolean {
  const declared = Number(contentLength ?? NaN);
  return Number.isFinite(declared) && declared > limit;
}

/** The one cap: chunks kept while the total stays within `keepBytes`. */
class Cap {
  readonly #keepBytes: number;
  readonly #chunks: Uint8Array[] = [];
  size = 0;

  constructor(keepBytes: number) {
    this.#keepBytes = keepBytes;
  }

  /** Adds a chunk; false once the body is larger than the cap (nothing more is kept). */
  add(chunk: Uint8Array): boolean {
    this.size += chunk.byteLength;
    if (this.size > this.#keepBytes) {
      this.#chunks.length = 0;
      return false;
    }
    this.#chunks.push(chunk);
    return true;
  }

  get over(): boolean {
    return this.size > this.#keepBytes;
  }

  /** The kept chunks as one array. */
  bytes(): Uint8Array {
    if (this.#chunks.length === 1 && this.#chunks[0]) return this.#chunks[0];
    const bytes = new Uint8Array(this.size);
    let offset = 0;
    for (const chunk of this.#chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return bytes;
  }
}

/** A Fetch body read up to `keepBytes`: its bytes (empty when there is none), or null past the cap (the stream is cancelled). */
export async function readWebBody(
  body: ReadableStream<Uint8Array> | null,
  keepBytes: number,
): Promise<Uint8Array | null> {
  const cap = new Cap(keepBytes);
  if (!body) return cap.bytes();
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return cap.bytes();
    if (!cap.add(value)) {
      await reader.cancel().catch(() => {});
      return null;
    }
  }
}

/** What the Node reader needs of a request: node:http's `IncomingMessage` is one. */
export interface NodeBodyStream {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly readableEnded: boolean;
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  once(event: 'end' | 'close', listener: () => void): unknown;
  once(event: 'error', listener: (error: Error) => void): unknown;
  off(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  off(event: 'end' | 'close', listener: () => void): unknown;
  off(event: 'error', listener: (error: Error) => void): unknown;
  pause(): unknown;
}

/** A Node request body being read within its cap. */
export interface CappedRead {
  /** The declared length is past the drain bound: nothing is read; close the connection after the answer. */
  readonly unread: boolean;
  /**
   * The body, or null once it is larger than `keepBytes`: settles as soon as that is known, while
   * the rest may still be draining. Rejects when the connection closes before.
   */
  readonly body: Promise<Uint8Array | null>;
  /**
   * Settles when reading stops: true at the body's end (the connection can serve another request),
   * false when it was not read to its end (declared or streamed past the drain bound, or closed).
   * Never rejects.
   */
  readonly drained: Promise<boolean>;
}

/**
 * Reads `request`'s body, keeping at most `keepBytes` and reading at most `drainBytes` (default:
 * `DRAIN_LIMIT_BYTES` more). Past the drain bound the request is paused: the caller closes the
 * connection (`Connection: close` on an answer not yet sent, or the socket itself).
 */
export function readNodeBody(
  request: NodeBodyStream,
  keepBytes: number,
  drainBytes = keepBytes + DRAIN_LIMIT_BYTES,
): CappedRead {
  const contentLength = request.headers['content-length'];
  if (declaredOver(typeof contentLength === 'string' ? contentLength : undefined, drainBytes))
    return { unread: true, body: Promise.resolve(null), drained: Promise.resolve(false) };
  if (request.readableEnded)
    return { unread: false, body: Promise.resolve(new Uint8Array(0)), drained: Promise.resolve(true) };
  const cap = new Cap(keepBytes);
  let settleBody: (body: Uint8Array | null) => void = () => undefined;
  let failBody: (error: Error) => void = () => undefined;
  let settleDrained: (drained: boolean) => void = () => undefined;
  const body = new Promise<Uint8Array | null>((resolve, reject) => {
    settleBody = resolve;
    failBody = reject;
  });
  const drained = new Promise<boolean>((resolve) => (settleDrained = resolve));
  // A caller that only drains (it keeps nothing) need not await the body: its rejection is not unhandled.
  body.catch(() => undefined);
  let known = false;
  const verdict = (value: Uint8Array | null) => {
    if (known) return;
    known = true;
    settleBody(value);
  };
  const stop = (read: boolean) => {
    request.off('data', onData);
    request.off('end', onEnd);
    request.off('error', onError);
    request.off('close', onClose);
    settleDrained(read);
  };
  // Not `for await`: leaving that loop early destroys the socket, and the answer with it.
  const onData = (chunk: Uint8Array) => {
    if (!cap.add(chunk)) verdict(null);
    if (cap.size > drainBytes) {
      request.pause();
      stop(false);
    }
  };
  const onEnd = () => {
    verdict(cap.over ? null : cap.bytes());
    stop(true);
  };
  const onError = (error: Error) => {
    if (!known) {
      known = true;
      failBody(error);
    }
    stop(false);
  };
  const onClose = () => onError(new Error('the connection closed while the body was read'));
  request.on('data', onData);
  request.once('end', onEnd);
  request.once('error', onError);
  request.once('close', onClose);
  return { unread: false, body, drained };
}

/** What lingering needs of a Node request: node:http's `IncomingMessage` is one. */
export interface LingeringRequest {
  readonly readableEnded: boolean;
  readonly socket: {
    destroySoon(): void;
    end(): unknown;
    destroy(): unknown;
    once(event: 'close', listener: () => void): unknown;
  };
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  once(event: 'end', listener: () => void): unknown;
  resume(): unknown;
}

/**
 * Closes `request`'s connection now, lingering: a FIN after what was written, then the rest of the
 * body is read and dropped until it ends, the client closes, or `LINGER_MS` / `LINGER_BYTES` run
 * out. Closing a socket whose unread bytes wait in the kernel resets the connection at once, and
 * a client still sending then loses an answer it had not read yet (its next write fails and its
 * socket is torn down); lingering lets it read the answer and stop.
 */
export function lingerClose(request: LingeringRequest): void {
  const { socket } = request;
  const letGo = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(letGo, LINGER_MS);
  socket.once('close', () => clearTimeout(timer));
  let dropped = 0;
  request.on('data', (chunk) => {
    dropped += chunk.byteLength;
    if (dropped > LINGER_BYTES) letGo();
  });
  socket.end();
  if (request.readableEnded) return letGo();
  request.once('end', letGo);
  request.resume();
}

/**
 * Makes `request`'s connection close after its answer, lingering; returns the header that answer
 * carries (`Connection: close`). node:http ends such a connection with the socket's `destroySoon`,
 * which closes it with whatever the client still sends unread; here that is `lingerClose` instead.
 */
export function closeLingeringAfterAnswer(request: LingeringRequest): { connection: 'close' } {
  request.socket.destroySoon = () => lingerClose(request);
  return { connection: 'close' };
}
