// Issue 41, finding 4: a rating body refused as invalid does not spend the dial's per-dial budget,
// so a handle holder's malformed ratings cannot lock their own call out of its token route.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bearer, createDial, expectError, makeCompanion, post } from './companion-support.js';

describe("bad rating bodies and the dial's per-dial budget", () => {
  test('62 malformed ratings are each a 400 and leave the token route and the one rating untouched', async () => {
    const { handler } = makeCompanion({ rateLimit: { perDial: 5 } });
    const { dialId, handle } = await createDial(handler);
    const malformed = ['{"rating":', '{"rating":"meh"}', '[]', '{"rating":"up","stars":5}'];
    for (let i = 0; i < 62; i++) {
      const response = await handler(
        post(`/dials/${dialId}/feedback`, malformed[i % malformed.length], bearer(handle)),
      );
      await expectError(response, 400, 'invalid_request');
    }
    // The budget is five: all of it is still there for the calls the dial needs.
    for (let i = 0; i < 4; i++) {
      const token = await handler(post(`/dials/${dialId}/token`, undefined, bearer(handle)));
      assert.equal(token.status, 200, `token request ${i + 1}`);
    }
    assert.equal((await handler(post(`/dials/${dialId}/feedback`, { rating: 'up' }, bearer(handle)))).status, 200);
    // A valid rating does count: the sixth call for this dial is over the limit.
    await expectError(await handler(post(`/dials/${dialId}/token`, undefined, bearer(handle))), 429, 'rate_limited');
  });
});
