// Request bodies, read within bounds, for the REST half and the GraphQL endpoint alike. A body
// over the limit is refused early: a declared `Content-Length` past the drain bound is not read
// at all, and reading stops at that bound. Only a body a little too large is read to its end (and
// thrown away), so that its client reads the answer rather than a reset.
import type { IncomingMessage } from 'node:http';

/** Beyond this, a body is not even drained: its connection is closed after the answer. */
export const DRAIN_LIMIT_BYTES = 1024 * 1024;

export interface CappedBody {
  /** The body, or null when it was larger than `keepBytes`. */
  body: Buffer | null;
  /** false when reading stopped before the body's end: answer with `Connection: close`. */
  drained: boolean;
}

/** Reads `request`'s body, keeping at most `keepBytes` and reading at most `drainBytes` (default: 1 MiB more). */
export function readCappedBody(
  request: IncomingMessage,
  keepBytes: number,
  drainBytes = keepBytes + DRAIN_LIMIT_BYTES,
): Promise<CappedBody> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > drainBytes) return Promise.resolve({ body: null, drained: false });
  if (request.readableEnded) return Promise.resolve({ body: Buffer.alloc(0), drained: true });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (outcome: CappedBody | Error) => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('close', onClose);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    // Not `for await`: leaving that loop early destroys the socket, and the answer with it.
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > drainBytes) {
        request.pause();
        settle({ body: null, drained: false });
      } else if (size <= keepBytes) chunks.push(chunk);
    };
    const onEnd = () => settle({ body: size > keepBytes ? null : Buffer.concat(chunks), drained: true });
    const onError = (error: Error) => settle(error);
    const onClose = () => settle(new Error('the connection closed while the body was read'));
    request.on('data', onData);
    request.once('end', onEnd);
    request.once('error', onError);
    request.once('close', onClose);
  });
}
