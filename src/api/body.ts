// Reading an answer's body with a cap, from a fetch (web stream) or undici (Node stream) alike: a
// huge or endless answer never fills memory. Web APIs only.
import { ServiceError } from './service-error.js';

export type BodyChunks = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

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

/** `chunks` as one array of `size` bytes (their total length). */
export function joinChunks(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
