// `POST /dials/:id/feedback` through the handler: the dial's handle required, one rating per dial
// (409 after it), bodies checked before anything counts, the `onFeedback` hook called once, and
// without a hook a log line that never holds the comment. Across instances through Redis in
// companion-redis.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CompanionFeedback } from '../../src/server/config.js';
import { bearer, body, createDial, expectError, makeCompanion, post } from './companion-support.js';

const COMMENT = 'The agent-SECRET-COMMENT-9151 understood me';

describe('POST /dials/:id/feedback', () => {
  test('the hook gets the rating once, with the dial, the trimmed comment and the time; a second rating is a 409', async () => {
    const received: CompanionFeedback[] = [];
    const { handler, clock, logs } = makeCompanion({ onFeedback: (feedback) => void received.push(feedback) });
    const { dialId, handle } = await createDial(handler);
    const first = await handler(
      post(`/dials/${dialId}/feedback`, { rating: 'up', comment: `  ${COMMENT} ` }, bearer(handle)),
    );
    assert.equal(first.status, 200);
    assert.deepEqual(await body(first), { success: true });
    assert.deepEqual(received, [{ dialId, rating: 'up', comment: COMMENT, at: new Date(clock.now).toISOString() }]);

    const second = await handler(post(`/dials/${dialId}/feedback`, { rating: 'down' }, bearer(handle)));
    await expectError(second, 409, 'duplicate_request');
    assert.equal(received.length, 1, 'the hook is not called again');
    const line = logs.find((entry) => entry.route === 'POST /dials/:id/feedback' && entry.status === 409);
    assert.equal(line?.dialId, dialId);

    // Another dial has its own rating.
    const other = await createDial(handler);
    const rated = await handler(post(`/dials/${other.dialId}/feedback`, { rating: 'down' }, bearer(other.handle)));
    assert.equal(rated.status, 200);
    assert.deepEqual(received[1], { dialId: other.dialId, rating: 'down', at: new Date(clock.now).toISOString() });
  });

  test("the dial's handle is required: none, a malformed one or another dial's is a 401, and counts for nothing", async () => {
    const received: CompanionFeedback[] = [];
    const { handler } = makeCompanion({ onFeedback: (feedback) => void received.push(feedback) });
    const { dialId, handle } = await createDial(handler);
    const other = await createDial(handler);
    await expectError(await handler(post(`/dials/${dialId}/feedback`, { rating: 'up' })), 401, 'invalid_handle');
    await expectError(
      await handler(post(`/dials/${dialId}/feedback`, { rating: 'up' }, bearer('not-a-handle'))),
      401,
      'invalid_handle',
    );
    await expectError(
      await handler(post(`/dials/${dialId}/feedback`, { rating: 'up' }, bearer(other.handle))),
      401,
      'invalid_handle',
    );
    // A handle in the body (as a beacon hang-up may send it) is not accepted here.
    await expectError(
      await handler(post(`/dials/${dialId}/feedback`, { rating: 'up', handle })),
      401,
      'invalid_handle',
    );
    assert.equal(received.length, 0);
    assert.equal((await handler(post(`/dials/${dialId}/feedback`, { rating: 'up' }, bearer(handle)))).status, 200);
  });

  test('bad bodies are a 400 and use up nothing: JSON only, rating up or down, a comment string of at most 500 characters, no other field', async () => {
    const received: CompanionFeedback[] = [];
    const { handler } = makeCompanion({ onFeedback: (feedback) => void received.push(feedback) });
    const { dialId, handle } = await createDial(handler);
    const send = (payload: unknown, headers: Record<string, string> = {}) =>
      handler(post(`/dials/${dialId}/feedback`, payload, { ...bearer(handle), ...headers }));
    const bad: Array<[string, unknown, Record<string, string>?]> = [
      ['no body', undefined],
      ['not JSON', '{"rating":', {}],
      ['form-encoded', 'rating=up', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['text/plain JSON', '{"rating":"up"}', { 'content-type': 'text/plain' }],
      ['an array', ['up']],
      ['no rating', { comment: 'hi' }],
      ['another rating', { rating: 'meh' }],
      ['a numeric rating', { rating: 1 }],
      ['an unknown field', { rating: 'up', stars: 5 }],
      ['a comment that is not a string', { rating: 'up', comment: 42 }],
      ['a comment of 501 characters', { rating: 'up', comment: 'x'.repeat(501) }],
    ];
    for (const [what, payload, headers] of bad) {
      const response = await send(payload, headers);
      assert.equal(response.status, 400, what);
      await expectError(response, 400, 'invalid_request');
    }
    assert.equal(received.length, 0, 'no bad body reached the hook');
    const ok = await send({ rating: 'down', comment: 'y'.repeat(500) });
    assert.equal(ok.status, 200, 'a bad body did not use up the rating; 500 characters are fine');
    assert.equal(received[0]?.comment?.length, 500);
  });

  test('without a hook the rating is logged, never its comment', async () => {
    const { handler, logs } = makeCompanion();
    const { dialId, handle } = await createDial(handler);
    const response = await handler(
      post(`/dials/${dialId}/feedback`, { rating: 'down', comment: COMMENT }, bearer(handle)),
    );
    assert.equal(response.status, 200);
    const line = logs.find((entry) => entry.rating !== undefined);
    assert.deepEqual(
      line && { dialId: line.dialId, rating: line.rating, commented: line.commented, level: line.level },
      { dialId, rating: 'down', commented: true, level: 'info' },
    );
    assert.ok(!JSON.stringify(logs).includes('SECRET-COMMENT'), 'no log line holds the comment');
    assert.ok(!JSON.stringify(logs).includes(handle), 'no log line holds the handle');
  });

  test('a hook that throws answers a bare 500 (logged with a reason); the dial counts as rated', async () => {
    let calls = 0;
    const { handler, logs } = makeCompanion({
      onFeedback: async () => {
        calls += 1;
        throw new Error(`database down: ${COMMENT}`);
      },
    });
    const { dialId, handle } = await createDial(handler);
    const response = await handler(post(`/dials/${dialId}/feedback`, { rating: 'up' }, bearer(handle)));
    await expectError(response, 500, 'internal_error');
    assert.equal(calls, 1);
    const line = logs.find((entry) => entry.route === 'POST /dials/:id/feedback');
    assert.match(line?.reason ?? '', /onFeedback hook failed \(Error\)/);
    assert.ok(!JSON.stringify(logs).includes('SECRET-COMMENT'), "the hook's error message is not logged");
    await expectError(
      await handler(post(`/dials/${dialId}/feedback`, { rating: 'up' }, bearer(handle))),
      409,
      'duplicate_request',
    );
  });

  test('a shared store that cannot answer is a 429 with Retry-After, not a 409: nothing says the dial was rated', async () => {
    const received: CompanionFeedback[] = [];
    const { handler } = makeCompanion({
      onFeedback: (feedback) => void received.push(feedback),
      rateLimiters: {
        feedbackPerDial: { take: async () => ({ allowed: false, retryAfterSeconds: 10, storeUnreachable: true }) },
      },
    });
    const { dialId, handle } = await createDial(handler);
    const response = await handler(post(`/dials/${dialId}/feedback`, { rating: 'up' }, bearer(handle)));
    assert.equal(response.headers.get('retry-after'), '10');
    await expectError(response, 429, 'rate_limited');
    assert.equal(received.length, 0);
  });

  test('only POST (and a CORS preflight); onFeedback must be a function', async () => {
    const { handler } = makeCompanion();
    const { dialId, handle } = await createDial(handler);
    const read = await handler(
      new Request(`https://site.example/api/voice-call/dials/${dialId}/feedback`, { headers: bearer(handle) }),
    );
    await expectError(read, 405, 'method_not_allowed');
    assert.equal(read.headers.get('allow'), 'POST, OPTIONS');
    const preflight = await handler(
      new Request(`https://site.example/api/voice-call/dials/${dialId}/feedback`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://shop.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      }),
    );
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-methods'), 'POST, OPTIONS');
    assert.throws(() => makeCompanion({ onFeedback: 'log' as unknown as () => void }), /onFeedback must be a function/);
  });
});
