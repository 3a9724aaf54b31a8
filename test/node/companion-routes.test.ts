// routes.ts on its own: which route a path names, with and without a base path, and the dial id in it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HttpError } from '../../src/server/errors.js';
import { allowOf, dialIdOf, matchRoute } from '../../src/server/routes.js';

/** The route's name and raw id, or null. */
const match = (pathname: string, basePath: string | null = null) => {
  const route = matchRoute(pathname, basePath);
  return route && { name: route.name, pattern: route.pattern, rawId: 'rawId' in route ? route.rawId : undefined };
};

describe('routes', () => {
  test('without a base path the tail of any path names the route, so the handler works under any prefix', () => {
    assert.deepEqual(match('/dials'), { name: 'create', pattern: 'POST /dials', rawId: undefined });
    assert.deepEqual(match('/api/voice-call/dials'), { name: 'create', pattern: 'POST /dials', rawId: undefined });
    assert.deepEqual(match('/x/dials/d-1'), { name: 'read', pattern: 'GET /dials/:id', rawId: 'd-1' });
    assert.deepEqual(match('/x/dials/d-1/token'), { name: 'token', pattern: 'POST /dials/:id/token', rawId: 'd-1' });
    assert.deepEqual(match('/dials/d-1/hangup'), { name: 'hangup', pattern: 'POST /dials/:id/hangup', rawId: 'd-1' });
    assert.deepEqual(match('/x/dials/d-1/feedback'), {
      name: 'feedback',
      pattern: 'POST /dials/:id/feedback',
      rawId: 'd-1',
    });
    for (const none of ['/', '/dial', '/dials/d-1/other', '/dials/d-1/token/x', '/tokens'])
      assert.equal(match(none), null, none);
  });

  test('with a base path only paths right under it match', () => {
    const base = '/api/voice-call';
    assert.equal(match('/api/voice-call/dials', base)?.name, 'create');
    assert.equal(match('/api/voice-call/dials/d-1', base)?.rawId, 'd-1');
    assert.equal(match('/api/voice-call/dials/d-1/token', base)?.name, 'token');
    assert.equal(match('/api/voice-call/dials/d-1/feedback', base)?.name, 'feedback');
    for (const none of [
      '/dials',
      '/other/dials',
      '/api/voice-call/x/dials',
      '/api/voice-callx/dials',
      '/api/voice-call',
    ])
      assert.equal(match(none, base), null, none);
  });

  test('a dial id is decoded and checked: anything the companion would not sign a handle for is a 404', () => {
    assert.equal(dialIdOf('d-1'), 'd-1');
    assert.equal(dialIdOf('a%3Ab'), 'a:b');
    for (const raw of ['', '%', '%E0%A4%A', '..', '-leading', 'a%2Fb', 'x'.repeat(129)]) {
      assert.throws(
        () => dialIdOf(raw),
        (error) => error instanceof HttpError && error.code === 'not_found',
        raw,
      );
    }
  });

  test("Allow lists the route's methods and OPTIONS", () => {
    const route = matchRoute('/dials/d-1', null);
    assert.ok(route);
    assert.equal(allowOf(route), 'GET, OPTIONS');
  });
});
