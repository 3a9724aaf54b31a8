// Abuse: a seeded fuzzer of malformed requests, and a burst of concurrent creates.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { body, createDial, present, makeCompanion, ORIGIN, prng } from './companion-support.js';

const METHODS = [
  'POST',
  'POST',
  'POST',
  'POST',
  'GET',
  'GET',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'HEAD',
  'PROPFIND',
  'TRACE2',
  'post',
];
const PATHS = [
  '/dials',
  '/dials/',
  '//dials',
  '/dials/../x',
  '/dials/%2e%2e/token',
  '/dials/%2e%2e%2f%2e%2e/hangup',
  '/dials/..%2Fadmin',
  '/dials/%00',
  '/dials/%ZZ/token',
  '/dials/\u00e9\u00e8/hangup',
  '/dials/\ud83d\ude00',
  '/dials/dial-1',
  '/dials/dial-1/token',
  '/dials/dial-1/hangup',
  '/dials/dial-1/token/extra',
  '/dials/' + 'a'.repeat(300),
  '/DIALS',
  '/dials?x=1&y=%',
  '/dials#frag',
  '/%2fdials',
  '/dials;jsessionid=1',
];
const BODIES: (() => string)[] = [
  () => '',
  () => '{',
  () => '{"agent":',
  () => 'null',
  () => '[]',
  () => '"str"',
  () => '12',
  () => '{"agent":5}',
  () => '{"agent":"nope"}',
  () => '{"agent":"default","inputs":"x"}',
  () => '{"agent":"default","inputs":{"name":7}}',
  () => '{"agent":"default","inputs":{"name":"' + 'x'.repeat(600) + '"}}',
  () => '{"__proto__":{"polluted":1}}',
  () => '{"inputs":{"__proto__":{"name":"x"},"constructor":"y"}}',
  () => '{"handle":123}',
  () => '{"handle":"a.b"}',
  () => '\ufeff{}',
  () => '{"agent":"\u0000\ud800"}',
  () => 'x'.repeat(40_000),
  () => '{"a":' + '['.repeat(5000) + ']'.repeat(5000) + '}',
];
const HEADER_SETS: (() => Record<string, string>)[] = [
  () => ({}),
  () => ({ 'content-type': 'application/json' }),
  () => ({ 'content-type': 'text/plain' }),
  () => ({ 'content-type': 'application/json; charset=utf-8', 'idempotency-key': 'ok-key-123' }),
  () => ({ 'idempotency-key': 'bad key with spaces' }),
  () => ({ 'idempotency-key': 'x'.repeat(400) }),
  () => ({ authorization: 'Bearer ' }),
  () => ({ authorization: 'Bearer a.b' }),
  () => ({ authorization: 'Basic Zm9vOmJhcg==' }),
  () => ({ authorization: 'Bearer ' + 'A'.repeat(3000) + '.' + 'B'.repeat(43) }),
  () => ({ origin: 'https://evil.example' }),
  () => ({ origin: ORIGIN, 'access-control-request-method': 'POST' }),
  () => ({ origin: 'null' }),
  () => ({ 'content-length': '999999999', 'content-type': 'application/json' }),
  () => ({ 'x-forwarded-for': ', , ,' }),
];

test('2,000+ seeded malformed requests: no crash, no 5xx, every answer JSON with no-store', async () => {
  const { handler, service } = makeCompanion({ rateLimit: { perAddress: 1000, total: 1000 } });
  const real = await createDial(handler);
  const random = prng(20261122);
  const pick = <T>(items: readonly T[]): T => present(items[Math.floor(random() * items.length)]);
  const statuses = new Map<number, number>();
  const REQUESTS = 2400;
  for (let i = 0; i < REQUESTS; i++) {
    const method = pick(METHODS);
    let path = pick(PATHS).replace('dial-1', random() < 0.5 ? real.dialId : 'dial-1');
    if (random() < 0.1) path = '/prefix' + path;
    const headers = { ...pick(HEADER_SETS)(), ...(random() < 0.3 ? pick(HEADER_SETS)() : {}) };
    if (random() < 0.15) headers.authorization = `Bearer ${real.handle}`;
    const withBody = !['GET', 'HEAD'].includes(method.toUpperCase());
    let request: Request;
    try {
      request = new Request('https://site.example' + path, {
        method,
        headers,
        ...(withBody ? { body: pick(BODIES)() } : {}),
      });
    } catch {
      continue; // A request fetch itself refuses to build cannot reach a handler either.
    }
    const response = await handler(request, { clientAddress: `10.0.${i % 7}.1` });
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    assert.equal(response.headers.get('cache-control'), 'no-store', `${method} ${path}`);
    assert.ok(response.status < 500, `${method} ${path} → ${response.status}`);
    if (response.status !== 204) {
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/, `${method} ${path}`);
      const answer = await body(response);
      if (response.status >= 400) assert.equal(typeof (answer.error as { code?: unknown }).code, 'string');
    }
  }
  const answered = [...statuses.values()].reduce((sum, count) => sum + count, 0);
  assert.ok(answered >= 2000, `only ${answered} requests were sent`);
  // Every malformed input failed before the service: only the real dial's reads/token/hangups reach it
  // (and the GraphQL step of its token requests, authorised by that dial's token).
  // A create that passed fetched its own dial's media credentials once (REST token, GraphQL), nothing more.
  const fetchedOnCreate = new Map<string, number>();
  for (const call of service.calls.slice(1)) {
    const dialId =
      call.path === '/query'
        ? /^Bearer token-for-(.+)$/.exec(call.headers.get('authorization') ?? '')?.[1]
        : /^\/dials\/([^/]+)/.exec(call.path)?.[1];
    if (dialId !== undefined && dialId !== real.dialId && service.dials.has(dialId)) {
      fetchedOnCreate.set(`${call.path} ${dialId}`, (fetchedOnCreate.get(`${call.path} ${dialId}`) ?? 0) + 1);
      assert.ok(call.path === '/query' || call.path === `/dials/${dialId}/token`, call.path);
      continue;
    }
    assert.ok(dialId === real.dialId || call.path === '/dials', call.path);
  }
  for (const [what, count] of fetchedOnCreate) assert.equal(count, 1, what);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('300 concurrent creates from one address: exactly the configured number succeed, the rest 429', async () => {
  const { handler, service } = makeCompanion({ rateLimit: { perAddress: 7, total: 1000 } });
  const responses = await Promise.all(
    Array.from({ length: 300 }, () =>
      handler(
        new Request('https://site.example/dials', {
          method: 'POST',
          body: '{}',
          headers: { 'content-type': 'application/json' },
        }),
        { clientAddress: '198.51.100.23' },
      ),
    ),
  );
  const counts = { ok: 0, limited: 0 };
  for (const response of responses) {
    if (response.status === 200) counts.ok++;
    else if (response.status === 429) {
      counts.limited++;
      assert.ok(Number(response.headers.get('retry-after')) >= 1);
    }
  }
  assert.deepEqual(counts, { ok: 7, limited: 293 });
  assert.equal(service.callsTo('POST', /^\/dials$/).length, 7);
});
