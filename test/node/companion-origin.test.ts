// origin.ts on its own: the origin and host a request was sent to (public origins, a trusted
// proxy's forwarded headers, the DNS-rebinding rule), the CORS allow-list and headers, preflight
// answers, and the client address as rate limits count it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fromFetchRequest } from '../../src/server/exchange.js';
import { NO_CORS, OriginPolicy, preflightAnswer } from '../../src/server/origin.js';
import { matchRoute } from '../../src/server/routes.js';

const request = (url: string, headers: Record<string, string> = {}) => fromFetchRequest(new Request(url, { headers }));

function policy(options: { allowed?: string[]; publicOrigins?: string[]; trustProxy?: boolean } = {}) {
  const publicOrigins = options.publicOrigins ?? [];
  return new OriginPolicy({
    allowedOrigins: new Set([...(options.allowed ?? []), ...publicOrigins]),
    publicOrigins,
    publicOriginOfHost: new Map(publicOrigins.map((origin) => [new URL(origin).host, origin])),
    trustProxy: options.trustProxy ?? false,
  });
}

describe('origin policy', () => {
  test('over plain http only IP literals and loopback names are served; over https any host (the certificate binds it)', () => {
    const open = policy();
    for (const [url, allowed] of [
      ['http://127.0.0.1:8787/dials', true],
      ['http://[::1]:8787/dials', true],
      ['http://localhost/dials', true],
      ['http://app.localhost/dials', true],
      ['http://192.168.1.20/dials', true],
      ['http://rebind.example/dials', false],
      ['https://shop.example/dials', true],
    ] as const) {
      assert.equal(open.requestOrigin(request(url)).hostAllowed, allowed, url);
    }
  });

  test('with a public origin, its host is served (whatever the scheme), other names are not, and its origin is the page origin', () => {
    const shop = policy({ publicOrigins: ['https://shop.example'] });
    assert.deepEqual(shop.requestOrigin(request('http://shop.example/dials')), {
      origin: 'https://shop.example',
      host: 'shop.example',
      hostAllowed: true,
    });
    assert.equal(shop.requestOrigin(request('https://other.example/dials')).hostAllowed, false);
  });

  test("a trusted proxy's last X-Forwarded-Proto/-Host hop names the origin; without trustProxy they are ignored", () => {
    const headers = { 'x-forwarded-proto': 'http, https', 'x-forwarded-host': 'evil.example, shop.example' };
    assert.equal(
      policy({ trustProxy: true }).requestOrigin(request('http://127.0.0.1/dials', headers)).origin,
      'https://shop.example',
    );
    assert.equal(policy().requestOrigin(request('http://127.0.0.1/dials', headers)).origin, 'http://127.0.0.1');
    // A forwarded host that is not a host is ignored.
    assert.equal(
      policy({ trustProxy: true }).requestOrigin(request('http://127.0.0.1/dials', { 'x-forwarded-host': 'a/b@c' }))
        .origin,
      'http://127.0.0.1',
    );
  });

  test('same-origin and origin-less requests pass; a cross-origin one only from the allow-list, which alone gets CORS headers', () => {
    const cors = policy({ allowed: ['https://partner.example'] });
    const own = cors.requestOrigin(request('http://127.0.0.1/dials'));
    const from = (origin?: string) => request('http://127.0.0.1/dials', origin ? { origin } : {});
    assert.equal(cors.originAllowed(from(), own), true);
    assert.equal(cors.originAllowed(from('http://127.0.0.1'), own), true);
    assert.equal(cors.originAllowed(from('https://partner.example'), own), true);
    assert.equal(cors.originAllowed(from('https://evil.example'), own), false);
    assert.equal(cors.corsHeaders(from('http://127.0.0.1')), NO_CORS);
    assert.equal(cors.corsHeaders(from('https://evil.example')), NO_CORS);
    assert.deepEqual(cors.corsHeaders(from('https://partner.example')), {
      'access-control-allow-origin': 'https://partner.example',
      vary: 'Origin',
      'access-control-expose-headers': 'Retry-After',
    });
    assert.ok(Object.isFrozen(NO_CORS) && Object.keys(NO_CORS).length === 0);
  });

  test("a preflight names the route's methods; CORS grants only for an allowed origin", () => {
    const route = matchRoute('/dials', null);
    assert.ok(route);
    const plain = preflightAnswer(route, NO_CORS);
    assert.equal(plain.status, 204);
    assert.equal(plain.headers.allow, 'POST, OPTIONS');
    assert.equal(plain.headers['access-control-allow-methods'], undefined);
    const granted = preflightAnswer(route, { 'access-control-allow-origin': 'https://partner.example' });
    assert.equal(granted.headers['access-control-allow-methods'], 'POST, OPTIONS');
    assert.equal(granted.headers['access-control-allow-headers'], 'Authorization, Content-Type, Idempotency-Key');
    assert.equal(granted.headers['cache-control'], 'no-store');
  });

  test("the client address: the adapter's, or a trusted proxy's last X-Forwarded-For hop; counted by /64 for IPv6", () => {
    const forwarded = request('http://127.0.0.1/dials', { 'x-forwarded-for': '203.0.113.9, 198.51.100.7' });
    assert.equal(policy().clientAddress(forwarded, '10.0.0.1'), '10.0.0.1');
    assert.equal(policy({ trustProxy: true }).clientAddress(forwarded, '10.0.0.1'), '198.51.100.7');
    assert.equal(policy().clientAddress(forwarded, undefined), 'unknown');
    const open = policy();
    assert.equal(open.addressKey('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
    assert.equal(open.addressKey('2001:db8:1:2:ffff::1'), '2001:db8:1:2::/64');
    assert.equal(open.addressKey('::ffff:198.51.100.7'), '198.51.100.7');
  });
});
