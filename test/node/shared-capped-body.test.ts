// The one capped-body reader the companion and the emulator share (src/shared/capped-body.ts):
// a Fetch body and a Node request stream, each kept within the cap; the verdict "too large" as
// soon as the cap is crossed; a Node body past it drained to its end or to the drain bound.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { declaredOver, readNodeBody, readWebBody } from '../../src/shared/capped-body.js';

const bytes = (size: number, fill = 0x61) => new Uint8Array(size).fill(fill);

/** A request stream: a PassThrough with the headers the reader looks at. */
function request(headers: Record<string, string> = {}) {
  return Object.assign(new PassThrough(), { headers });
}

function webBody(chunks: Uint8Array[]): {
  body: ReadableStream<Uint8Array>;
  cancelled: () => boolean;
  pulled: () => number;
} {
  let cancelled = false;
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[pulled++];
      if (chunk) controller.enqueue(chunk);
      else controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  return { body, cancelled: () => cancelled, pulled: () => pulled };
}

describe('readWebBody (a Fetch body)', () => {
  test('a body within the cap comes back whole, its chunks joined; no body is empty', async () => {
    const { body } = webBody([bytes(3, 1), bytes(2, 2)]);
    assert.deepEqual([...((await readWebBody(body, 5)) ?? [])], [1, 1, 1, 2, 2]);
    assert.equal((await readWebBody(null, 5))?.byteLength, 0);
  });

  test('past the cap: null, and the stream is cancelled rather than read to its end', async () => {
    const { body, cancelled, pulled } = webBody([bytes(4), bytes(4), bytes(4), bytes(4)]);
    assert.equal(await readWebBody(body, 6), null);
    assert.equal(cancelled(), true);
    assert.ok(pulled() < 4, `${pulled()} chunks were pulled`);
  });
});

describe('readNodeBody (a Node request)', () => {
  test('a body within the cap comes back whole, and the request was drained', async () => {
    const req = request();
    const read = readNodeBody(req, 10);
    req.write(bytes(4, 1));
    req.end(bytes(6, 2));
    assert.deepEqual([...((await read.body) ?? [])], [1, 1, 1, 1, 2, 2, 2, 2, 2, 2]);
    assert.equal(await read.drained, true);
    assert.equal(read.unread, false);
  });

  test('past the cap the verdict comes at once; the rest is drained to its end', async () => {
    const req = request();
    const read = readNodeBody(req, 8);
    req.write(bytes(6));
    req.write(bytes(6));
    assert.equal(await read.body, null, 'known before the body ended');
    let drained: boolean | undefined;
    void read.drained.then((value) => (drained = value));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(drained, undefined, 'still draining');
    req.end(bytes(6));
    assert.equal(await read.drained, true);
  });

  test('past the drain bound reading stops: the request is paused and drained is false', async () => {
    const req = request();
    const read = readNodeBody(req, 4, 10);
    req.write(bytes(8));
    req.write(bytes(8));
    assert.equal(await read.body, null);
    assert.equal(await read.drained, false);
    assert.equal(req.isPaused(), true);
  });

  test('a declared length past the drain bound is not read at all', async () => {
    const req = request({ 'content-length': String(64 * 1024 * 1024) });
    const read = readNodeBody(req, 1024);
    assert.equal(read.unread, true);
    assert.equal(await read.body, null);
    assert.equal(await read.drained, false);
    assert.equal(req.listenerCount('data'), 0, 'no reading began');
  });

  test('a connection that closes before the body ended rejects the body, and drained is false', async () => {
    const req = request();
    const read = readNodeBody(req, 1024);
    req.write(bytes(10));
    req.destroy();
    await assert.rejects(read.body, /closed/);
    assert.equal(await read.drained, false);
  });

  test('a drain-only read (nothing kept) whose connection closes leaves no unhandled rejection', async () => {
    const req = request();
    const read = readNodeBody(req, 0, 1024);
    req.destroy();
    assert.equal(await read.drained, false);
  });
});

test('declaredOver: only a readable Content-Length past the limit', () => {
  assert.equal(declaredOver('11', 10), true);
  assert.equal(declaredOver('10', 10), false);
  for (const absent of [null, undefined, '', 'ten']) assert.equal(declaredOver(absent, 10), false, String(absent));
});
