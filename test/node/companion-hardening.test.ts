// The attack run of issue 15, finding by finding, through the handler with `new Request(...)`
// (the socket-level findings are in companion-sockets.test.ts).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { describe, test } from 'node:test';
import {
  addressKey,
  clampRetryAfter,
  isRebindingSafeHostname,
  mediaUrlProblem,
  normalizeOrigin,
  serviceUrlProblem,
} from '../../src/server/checks.js';
import { ConfigError, companionConfigFromEnv, configWarnings, listenOptionsFromEnv } from '../../src/server/env.js';
import { createCompanionHandler } from '../../src/server/handler.js';
import type { CompanionConfig } from '../../src/server/handler.js';
import type { CompanionLogEntry } from '../../src/server/log.js';
import {
  API_KEY,
  BASE,
  bearer,
  body,
  createDial,
  present,
  expectError,
  get,
  makeCompanion,
  post,
  SECRET,
  companionWithHangingCreate,
} from './companion-support.js';
import { finished } from '../support/child-output.js';

const SITE = 'https://site.example';

/** A request as the Node adapter builds it: `http://` + the Host header, whatever the visitor's scheme. */
function overHttp(host: string, path: string, headers: Record<string, string> = {}): Request {
  return new Request(`http://${host}/api/voice-call${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: '{}',
  });
}

describe('1. same-origin HTTPS behind a TLS proxy', () => {
  test('refused without configuration (the adapter sees http://), accepted with publicOrigin', async () => {
    const plain = makeCompanion({ allowedOrigins: [] });
    const response = await plain.handler(overHttp('site.example', '/dials', { origin: SITE }), {
      clientAddress: '10.0.0.1',
    });
    assert.equal(response.status, 403);
    assert.equal(plain.service.calls.length, 0);

    const configured = makeCompanion({ allowedOrigins: [], publicOrigin: SITE });
    const same = await configured.handler(overHttp('site.example', '/dials', { origin: SITE }), {
      clientAddress: '10.0.0.1',
    });
    assert.equal(same.status, 200, JSON.stringify(await same.clone().json()));
    // Origin-less (same-origin GET from a browser, or a server) works too.
    assert.equal(
      (await configured.handler(overHttp('site.example', '/dials'), { clientAddress: '10.0.0.2' })).status,
      200,
    );
  });

  test('X-Forwarded-Proto / X-Forwarded-Host count only with trustProxy; the last value is the proxy own', async () => {
    const forwarded = { origin: SITE, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'site.example' };
    const untrusted = makeCompanion({ allowedOrigins: [] });
    await expectError(
      await untrusted.handler(overHttp('site.example', '/dials', forwarded), { clientAddress: '10.0.0.1' }),
      403,
      'host_not_allowed',
    );

    const trusted = makeCompanion({ allowedOrigins: [], trustProxy: true });
    assert.equal(
      (await trusted.handler(overHttp('site.example', '/dials', forwarded), { clientAddress: '10.0.0.1' })).status,
      200,
    );
    // A proxy that rewrites Host to its upstream still forwards the public one.
    assert.equal(
      (await trusted.handler(overHttp('127.0.0.1:8787', '/dials', forwarded), { clientAddress: '10.0.0.2' })).status,
      200,
    );
    // A client-sent value before the proxy's own does not decide.
    const spoofed = {
      origin: 'http://evil.example',
      'x-forwarded-proto': 'http, https',
      'x-forwarded-host': 'evil.example, site.example',
    };
    await expectError(
      await trusted.handler(overHttp('site.example', '/dials', spoofed), { clientAddress: '10.0.0.3' }),
      403,
      'origin_not_allowed',
    );
    // A malformed forwarded host is ignored, never a 500.
    const odd = { origin: SITE, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'site.example:99999' };
    assert.equal(
      (await trusted.handler(overHttp('site.example', '/dials', odd), { clientAddress: '10.0.0.4' })).status,
      200,
    );
    assert.equal(trusted.service.callsTo('POST', /^\/dials$/).length, 3);
  });

  test('several public origins: each is served, and a page on one may call another (CORS)', async () => {
    const { handler } = makeCompanion({ allowedOrigins: [], publicOrigin: [SITE, 'https://www.site.example'] });
    const cross = await handler(overHttp('site.example', '/dials', { origin: 'https://www.site.example' }), {
      clientAddress: '10.0.0.1',
    });
    assert.equal(cross.status, 200);
    assert.equal(cross.headers.get('access-control-allow-origin'), 'https://www.site.example');
  });
});

describe('4. IPv6 addresses are limited by /64', () => {
  test('addresses of one /64 share a limit; IPv4-mapped addresses count as IPv4', async () => {
    assert.equal(addressKey('2001:db8:1:2::1'), addressKey('2001:db8:1:2:ffff:ffff:ffff:fffe'));
    assert.notEqual(addressKey('2001:db8:1:2::1'), addressKey('2001:db8:1:3::1'));
    assert.equal(addressKey('::ffff:192.0.2.7'), '192.0.2.7');
    assert.equal(addressKey('fe80::1%eth0'), addressKey('fe80::2'));
    assert.equal(addressKey('unknown'), 'unknown');

    const { handler, service } = makeCompanion({ rateLimit: { perAddress: 2, total: 5 } });
    const statuses: number[] = [];
    for (let i = 1; i <= 20; i++)
      statuses.push((await handler(post('/dials', {}), { clientAddress: `2001:db8:1:2::${i.toString(16)}` })).status);
    assert.deepEqual(statuses, [200, 200, ...Array(18).fill(429)]);
    // The total was not spent by that /64: other visitors still get through.
    assert.equal((await handler(post('/dials', {}), { clientAddress: '2001:db8:9:9::1' })).status, 200);
    // An IPv4 visitor seen through a dual-stack socket is the same visitor.
    assert.equal((await handler(post('/dials', {}), { clientAddress: '192.0.2.7' })).status, 200);
    assert.equal((await handler(post('/dials', {}), { clientAddress: '::ffff:192.0.2.7' })).status, 200);
    await expectError(await handler(post('/dials', {}), { clientAddress: '192.0.2.7' }), 429, 'rate_limited');
    assert.equal(service.callsTo('POST', /^\/dials$/).length, 5);
  });

  test('the same key reaches a plugged limiter', async () => {
    const keys: string[] = [];
    const { handler } = makeCompanion({
      rateLimiters: { perAddress: { take: async (key) => (keys.push(key), { allowed: true, retryAfterSeconds: 0 }) } },
    });
    await createDial(handler, { context: { clientAddress: '2001:db8:aa:bb:1:2:3:4' } });
    await createDial(handler, { context: { clientAddress: '::ffff:198.51.100.4' } });
    assert.deepEqual(keys, ['2001:db8:aa:bb::/64', '198.51.100.4']);
  });
});

describe('5. token and read are limited per dial and per address', () => {
  test('one handle cannot hammer the service: 60 calls a minute per dial, then 429 with Retry-After', async (t) => {
    // The limiter (rate-limiter-flexible) reads Date.now() and expires keys with timers: move both.
    t.mock.timers.enable({ apis: ['Date', 'setTimeout'], now: Date.UTC(2026, 0, 1) });
    const { handler, service } = makeCompanion({ now: Date.now });
    const dial = await createDial(handler);
    const statuses: number[] = [];
    for (let i = 0; i < 70; i++) {
      const request =
        i % 10 === 0
          ? post(`/dials/${dial.dialId}/token`, undefined, bearer(dial.handle))
          : get(`/dials/${dial.dialId}`, dial.handle);
      statuses.push((await handler(request, { clientAddress: '203.0.113.7' })).status);
    }
    assert.equal(statuses.filter((status) => status === 200).length, 60);
    assert.deepEqual(statuses.slice(60), Array(10).fill(429));
    const refused = await handler(get(`/dials/${dial.dialId}`, dial.handle), { clientAddress: '203.0.113.7' });
    await expectError(refused, 429, 'rate_limited');
    assert.equal(refused.headers.get('retry-after'), '60');
    // Each of the 6 token calls served is two service calls: REST token, then GraphQL browserDialToken;
    // the create's own fetch of the media credentials is one, browserDialToken with the create's
    // token (not counted per dial: the create is limited per address).
    assert.equal(service.calls.length, 1 + 1 + 60 + 6, 'refused calls never reach the service');
    t.mock.timers.tick(60_000);
    assert.equal(
      (await handler(get(`/dials/${dial.dialId}`, dial.handle), { clientAddress: '203.0.113.7' })).status,
      200,
    );
  });

  test('per client address across dials (readsPerAddress), not counting other addresses', async () => {
    const { handler } = makeCompanion({ rateLimit: { readsPerAddress: 5 } });
    const one = await createDial(handler);
    const two = await createDial(handler);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (
          await handler(get(`/dials/${(i % 2 ? one : two).dialId}`, (i % 2 ? one : two).handle), {
            clientAddress: '203.0.113.7',
          })
        ).status,
      );
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
    assert.equal(
      (await handler(get(`/dials/${one.dialId}`, one.handle), { clientAddress: '198.51.100.1' })).status,
      200,
    );
  });

  test('a real 10-minute call is never limited: a read every 2 s, 3 tokens, a hang-up', async (t) => {
    t.mock.timers.enable({ apis: ['Date', 'setTimeout'], now: Date.UTC(2026, 0, 1) });
    const { handler } = makeCompanion({ now: Date.now });
    const dial = await createDial(handler);
    const statuses = new Set<number>();
    for (let token = 0; token < 3; token++)
      statuses.add(
        (
          await handler(post(`/dials/${dial.dialId}/token`, undefined, bearer(dial.handle)), {
            clientAddress: '203.0.113.7',
          })
        ).status,
      );
    for (let second = 0; second < 600; second += 2) {
      t.mock.timers.tick(2000);
      statuses.add((await handler(get(`/dials/${dial.dialId}`, dial.handle), { clientAddress: '203.0.113.7' })).status);
    }
    statuses.add(
      (
        await handler(post(`/dials/${dial.dialId}/hangup`, undefined, bearer(dial.handle)), {
          clientAddress: '203.0.113.7',
        })
      ).status,
    );
    assert.deepEqual([...statuses], [200]);
  });

  test('invalid handles do not spend a dial budget; plugged per-dial and per-address limiters decide', async () => {
    const seen: string[] = [];
    const { handler } = makeCompanion({
      rateLimiters: {
        perDial: { take: async (key) => (seen.push(`dial:${key}`), { allowed: true, retryAfterSeconds: 0 }) },
        readsPerAddress: {
          take: async (key) => (seen.push(`address:${key}`), { allowed: false, retryAfterSeconds: 7 }),
        },
      },
    });
    const dial = await createDial(handler);
    await expectError(await handler(get(`/dials/${dial.dialId}`, 'forged.handle')), 401, 'invalid_handle');
    assert.deepEqual(seen, []);
    const refused = await handler(get(`/dials/${dial.dialId}`, dial.handle), { clientAddress: '2001:db8::5' });
    await expectError(refused, 429, 'rate_limited');
    assert.equal(refused.headers.get('retry-after'), '7');
    assert.deepEqual(seen, [`dial:${dial.dialId}`, 'address:2001:db8:0:0::/64']);
    // Hang-up counts per dial only: a visitor can always end its call.
    assert.equal(
      (
        await handler(post(`/dials/${dial.dialId}/hangup`, undefined, bearer(dial.handle)), {
          clientAddress: '2001:db8::5',
        })
      ).status,
      200,
    );
  });
});

describe('6. unknown methods', () => {
  test('a method no route serves is 405 with Allow, and logged', async () => {
    const { handler, logs } = makeCompanion();
    const response = await handler(new Request(BASE + '/dials', { method: 'PROPFIND' }));
    await expectError(response, 405, 'method_not_allowed');
    assert.match(response.headers.get('allow') ?? '', /POST/);
    assert.deepEqual(
      logs.map((entry) => [entry.method, entry.status, entry.code]),
      [['PROPFIND', 405, 'method_not_allowed']],
    );
  });
});

describe('7. DNS rebinding: the Host header is checked', () => {
  test('an attacker name pointing at the companion is refused over http, before anything else', async () => {
    const { handler, service, logs } = makeCompanion({ allowedOrigins: [] });
    const rebound = overHttp('evil.example:8787', '/dials', { origin: 'http://evil.example:8787' });
    await expectError(await handler(rebound, { clientAddress: '127.0.0.1' }), 403, 'host_not_allowed');
    assert.equal(service.calls.length, 0);
    assert.equal(logs.at(-1)?.code, 'host_not_allowed');
    assert.match(logs.at(-1)?.reason ?? '', /evil\.example/);
  });

  test('IP literals and loopback names are served without configuration (a page there is the host itself)', async () => {
    const { handler } = makeCompanion({ allowedOrigins: [] });
    for (const host of ['127.0.0.1:8787', 'localhost:8787', 'app.localhost', '[::1]:8787', '192.0.2.10']) {
      const response = await handler(overHttp(host, '/dials', { origin: `http://${host}` }), { clientAddress: host });
      assert.equal(response.status, 200, host);
    }
  });

  test('with publicOrigin, only its hosts (plus IPs and loopback names) are served; over https too', async () => {
    const { handler } = makeCompanion({ allowedOrigins: [], publicOrigin: SITE });
    await expectError(
      await handler(new Request('https://evil.example/dials', { method: 'POST' }), { clientAddress: '10.0.0.1' }),
      403,
      'host_not_allowed',
    );
    await expectError(
      await handler(overHttp('evil.example', '/dials'), { clientAddress: '10.0.0.1' }),
      403,
      'host_not_allowed',
    );
    assert.equal((await handler(overHttp('127.0.0.1:8787', '/dials'), { clientAddress: '10.0.0.2' })).status, 200);
  });

  test('through a trusted proxy the forwarded host is checked', async () => {
    const { handler } = makeCompanion({ allowedOrigins: [], trustProxy: true });
    const rebound = overHttp('127.0.0.1:8787', '/dials', {
      origin: 'http://evil.example',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'http',
    });
    await expectError(await handler(rebound, { clientAddress: '127.0.0.1' }), 403, 'host_not_allowed');
  });

  test('which names are rebinding-safe', () => {
    for (const safe of ['127.0.0.1', 'localhost', 'a.localhost', '[::1]', '10.1.2.3', '[2001:db8::1]'])
      assert.equal(isRebindingSafeHostname(safe), true, safe);
    for (const unsafe of ['evil.example', '127.0.0.1.nip.io', 'localhost.evil.example', '0x7f.1'])
      assert.equal(isRebindingSafeHostname(unsafe), false, unsafe);
  });
});

describe('8. clients without Origin', () => {
  test('create dials (the origin check only stops browsers on other sites); the limits stop them', async () => {
    const { handler, service } = makeCompanion({ rateLimit: { perAddress: 3, total: 100 } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (await handler(new Request(BASE + '/dials', { method: 'POST' }), { clientAddress: '198.51.100.50' })).status,
      );
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    assert.equal(service.callsTo('POST', /^\/dials$/).length, 3);
  });
});

describe('10. service values are checked before they are passed on', () => {
  test('Retry-After from the service is clamped to 1…300 s (30 when unusable)', async () => {
    for (const [sent, expected] of [
      ['99999999999', '300'],
      ['17', '17'],
      ['0', '30'],
      ['soon', '30'],
      ['2.2', '3'],
    ] as const) {
      const { handler, service } = makeCompanion();
      service.faults.push({ match: /^POST \/dials$/, fault: { status: 429, headers: { 'retry-after': sent } } });
      const response = await handler(post('/dials', {}), { clientAddress: '10.0.0.1' });
      await expectError(response, 429, 'rate_limited');
      assert.equal(response.headers.get('retry-after'), expected, sent);
    }
    assert.equal(clampRetryAfter(Number.POSITIVE_INFINITY), 30);
  });

  test('serverUrl is only wss:, ws: or https:; anything else is a logged 502', async () => {
    for (const [url, status] of [
      ['javascript:alert(1)', 502],
      ['data:text/html,x', 502],
      ['http://media.example', 502],
      ['wss://user:pw@media.example', 502],
      ['not a url', 502],
      ['wss://media.example', 200],
      ['ws://127.0.0.1:7880', 200],
      ['https://media.example/rtc', 200],
    ] as const) {
      const { handler, service, logs } = makeCompanion();
      service.tokenUrl = url;
      const dial = await createDial(handler);
      const response = await handler(post(`/dials/${dial.dialId}/token`, undefined, bearer(dial.handle)));
      const answer = await body(response);
      assert.equal(response.status, status, url);
      if (status === 200) assert.equal(answer.serverUrl, url);
      else {
        assert.ok(!JSON.stringify(answer).includes(url), 'the bad URL is not passed on');
        assert.match(logs.at(-1)?.reason ?? '', /media url/);
      }
    }
    assert.equal(mediaUrlProblem('wss://m.example'), null);
  });

  test('a dial id the companion cannot route gets no handle; the dial is hung up', async () => {
    const { handler, service, logs } = makeCompanion();
    const badId = '../../admin?x=1#';
    service.faults.push({
      match: /^POST \/dials$/,
      fault: { status: 200, body: JSON.stringify({ dialId: badId, dialToken: 't', sessionId: 's' }) },
    });
    const response = await handler(post('/dials', {}), { clientAddress: '10.0.0.1' });
    const answer = await body(response);
    assert.equal(response.status, 502);
    assert.equal((answer.error as { code: string }).code, 'upstream_error');
    assert.ok(!('handle' in answer));
    const hangups = service.callsTo('POST', /\/hangup$/);
    assert.equal(hangups.length, 1);
    assert.equal(present(hangups[0]).path, `/dials/${encodeURIComponent(badId)}/hangup`);
    assert.match(logs.at(-1)?.reason ?? '', /dial id/);
  });
});

describe('11. weak configuration is refused at startup', () => {
  const base = {
    apiKey: API_KEY,
    baseUrl: 'https://service.example/api',
    agentId: 'a',
    secret: SECRET,
    logger: false as const,
  };

  test('createCompanionHandler refuses each weak setting, naming it', () => {
    for (const [what, overrides, message] of [
      ['a whitespace-only secret', { secret: ' '.repeat(40) }, /secret/],
      ['a short secret padded with spaces', { secret: `${'x'.repeat(20)}${' '.repeat(20)}` }, /32 characters/],
      ['the API key as the secret', { apiKey: SECRET }, /not be the API key/],
      ['a base URL that is not a URL', { baseUrl: 'not-a-url' }, /VOICE_AGENT_BASE_URL.*not an absolute URL/],
      ['a file: base URL', { baseUrl: 'file:///etc' }, /scheme "file:"/],
      ['plain http to a remote service', { baseUrl: 'http://api.example.com/api' }, /plain http.*api\.example\.com/],
      ['* in allowedOrigins', { allowedOrigins: ['*'] }, /"\*" is not supported/],
      ['an origin with a path', { allowedOrigins: ['https://shop.example/page'] }, /not an origin/],
      ['an origin without a scheme', { allowedOrigins: ['shop.example'] }, /not an origin/],
      ['a bad publicOrigin', { publicOrigin: 'site.example' }, /publicOrigin/],
      ['a javascript: media URL', { mediaUrl: 'javascript:alert(1)' }, /VOICE_AGENT_MEDIA_URL/],
    ] satisfies Array<[string, Partial<CompanionConfig>, RegExp]>) {
      assert.throws(() => createCompanionHandler({ ...base, ...overrides }), message, what);
    }
  });

  test('plain http to loopback is fine; to a remote host only in dev mode, with a warning', () => {
    createCompanionHandler({ ...base, baseUrl: 'http://127.0.0.1:4010' });
    createCompanionHandler({ ...base, baseUrl: 'http://localhost:4010' });
    const logs: CompanionLogEntry[] = [];
    createCompanionHandler({
      ...base,
      baseUrl: 'http://emulator:4010',
      dev: true,
      logger: (entry) => logs.push(entry),
    });
    assert.equal(logs.length, 1);
    assert.equal(logs[0]?.level, 'warn');
    assert.match(logs[0]?.message ?? '', /plain http to emulator/);
    assert.deepEqual(serviceUrlProblem('https://api.example.com'), null);
    assert.equal(normalizeOrigin(' https://Shop.Example/ ', 'x'), 'https://shop.example');
  });

  const env = {
    VOICE_AGENT_API_KEY: API_KEY,
    VOICE_AGENT_BASE_URL: 'https://service.example/api',
    VOICE_AGENT_AGENT_ID: 'a',
    COMPANION_SECRET: SECRET,
  };

  test('companionConfigFromEnv refuses each weak variable with a ConfigError naming it', () => {
    for (const [overrides, message] of [
      [{ COMPANION_SECRET: ' '.repeat(40) }, /COMPANION_SECRET/],
      [{ COMPANION_SECRET: API_KEY }, /COMPANION_SECRET.*API key/],
      [{ VOICE_AGENT_BASE_URL: 'not-a-url' }, /VOICE_AGENT_BASE_URL/],
      [{ VOICE_AGENT_BASE_URL: 'file:///etc' }, /VOICE_AGENT_BASE_URL/],
      [{ VOICE_AGENT_BASE_URL: 'http://api.example.com' }, /VOICE_AGENT_BASE_URL.*NODE_ENV=development/],
      [{ COMPANION_ALLOWED_ORIGINS: '*' }, /COMPANION_ALLOWED_ORIGINS/],
      [{ COMPANION_ALLOWED_ORIGINS: 'https://a.example, *' }, /COMPANION_ALLOWED_ORIGINS/],
      [{ COMPANION_PUBLIC_ORIGIN: 'site.example' }, /COMPANION_PUBLIC_ORIGIN/],
      [{ COMPANION_TRUST_PROXY: 'maybe' }, /COMPANION_TRUST_PROXY/],
      [{ COMPANION_TRUST_PROXY: 'ture' }, /COMPANION_TRUST_PROXY/],
      [{ VOICE_AGENT_MEDIA_URL: 'javascript:alert(1)' }, /VOICE_AGENT_MEDIA_URL/],
      [{ COMPANION_RATE_LIMIT_PER_DIAL: 'many' }, /COMPANION_RATE_LIMIT_PER_DIAL/],
    ] as const) {
      assert.throws(
        () => companionConfigFromEnv({ ...env, ...overrides }),
        (error: unknown) => error instanceof ConfigError && message.test(error.message),
        JSON.stringify(overrides),
      );
    }
  });

  test('clear values are read; new variables reach the config', () => {
    for (const [value, expected] of [
      ['yes', true],
      ['TRUE', true],
      ['1', true],
      ['on', true],
      ['0', false],
      ['no', false],
      ['', false],
    ] as const) {
      assert.equal(companionConfigFromEnv({ ...env, COMPANION_TRUST_PROXY: value }).trustProxy, expected, value);
    }
    const config = companionConfigFromEnv({
      ...env,
      COMPANION_PUBLIC_ORIGIN: 'https://site.example, https://www.site.example/',
      COMPANION_RATE_LIMIT_PER_DIAL: '90',
      COMPANION_RATE_LIMIT_READS_PER_ADDRESS: '600',
    });
    assert.deepEqual(config.publicOrigin, ['https://site.example', 'https://www.site.example']);
    assert.deepEqual(config.rateLimit, { perDial: 90, readsPerAddress: 600 });
    assert.equal(
      companionConfigFromEnv({ ...env, VOICE_AGENT_BASE_URL: 'http://emulator:4010', NODE_ENV: 'development' }).dev,
      true,
    );
  });

  test('server settings from the environment, and warnings for exposed hosts', () => {
    assert.deepEqual(
      listenOptionsFromEnv({
        PORT: '0',
        HOST: '0.0.0.0',
        COMPANION_HEADERS_TIMEOUT_MS: '5000',
        COMPANION_REQUEST_TIMEOUT_MS: '20000',
        COMPANION_KEEP_ALIVE_TIMEOUT_MS: '4000',
        COMPANION_MAX_CONNECTIONS: '500',
        COMPANION_MAX_CONNECTIONS_PER_ADDRESS: '0',
      }),
      {
        port: 0,
        host: '0.0.0.0',
        headersTimeoutMs: 5000,
        requestTimeoutMs: 20000,
        keepAliveTimeoutMs: 4000,
        maxConnections: 500,
        maxConnectionsPerAddress: 0,
      },
    );
    assert.deepEqual(listenOptionsFromEnv({}), { port: 8787, host: '127.0.0.1' });
    assert.throws(
      () => listenOptionsFromEnv({ COMPANION_HEADERS_TIMEOUT_MS: '60000' }),
      /must not exceed COMPANION_REQUEST_TIMEOUT_MS/,
    );
    assert.throws(() => listenOptionsFromEnv({ COMPANION_MAX_CONNECTIONS: '0' }), ConfigError);
    assert.throws(() => listenOptionsFromEnv({ PORT: 'http' }), /PORT/);
    const config = companionConfigFromEnv(env);
    assert.deepEqual(configWarnings(config, { host: '127.0.0.1' }), []);
    assert.match(configWarnings(config, { host: '0.0.0.0' }).join('\n'), /COMPANION_PUBLIC_ORIGIN/);
    assert.match(configWarnings({ ...config, trustProxy: true }, { host: '0.0.0.0' }).join('\n'), /firewall/);
    assert.deepEqual(configWarnings({ ...config, publicOrigin: SITE }, { host: '0.0.0.0' }), []);
  });
});

describe('12. a visitor leaving mid-create', () => {
  test('is logged at info as client_closed (499), not as an error-level 502', async () => {
    const { handler, logs, reached: reachedService } = companionWithHangingCreate();
    const leaving = new AbortController();
    const pending = handler(new Request(BASE + '/dials', { method: 'POST', signal: leaving.signal }), {
      clientAddress: '10.0.0.1',
    });
    await reachedService;
    leaving.abort();
    await pending;
    assert.deepEqual(
      logs.map((entry) => [entry.level, entry.status, entry.code]),
      [['info', 499, 'client_closed']],
    );
  });
});

describe('2 and 11. through the CLI', () => {
  const cliEnv = (overrides: Record<string, string>) => ({
    ...process.env,
    PORT: '0',
    NODE_ENV: 'production',
    VOICE_AGENT_API_KEY: API_KEY,
    VOICE_AGENT_BASE_URL: 'http://127.0.0.1:9/api',
    VOICE_AGENT_AGENT_ID: 'agent-1',
    COMPANION_SECRET: SECRET,
    ...overrides,
  });

  /** Runs the CLI until it prints its ready line (then `whenReady` runs and the CLI is stopped) or exits. */
  async function runCli(
    overrides: Record<string, string>,
    whenReady?: (url: string) => Promise<void>,
  ): Promise<{ code: number | null; stderr: string; ready: boolean }> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli.ts'], {
      env: cliEnv(overrides),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const ended = finished(child);
    const line = await Promise.race([
      new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve)),
      ended.then(() => null),
    ]);
    if (line === null) return { ...(await ended), ready: false };
    try {
      await whenReady?.((JSON.parse(line) as { url: string }).url);
    } finally {
      child.kill('SIGTERM');
    }
    return { ...(await ended), ready: true };
  }

  test(
    'refuses to start on each weak setting, naming the variable and never printing a secret',
    { timeout: 60_000 },
    async () => {
      const cases: Array<[Record<string, string>, RegExp]> = [
        [{ COMPANION_TRUST_PROXY: 'maybe' }, /COMPANION_TRUST_PROXY/],
        [{ COMPANION_ALLOWED_ORIGINS: '*' }, /COMPANION_ALLOWED_ORIGINS.*"\*" is not supported/],
        [{ VOICE_AGENT_BASE_URL: 'http://api.example.com/api' }, /VOICE_AGENT_BASE_URL is plain http/],
        [{ VOICE_AGENT_BASE_URL: 'file:///etc' }, /VOICE_AGENT_BASE_URL/],
        [{ COMPANION_SECRET: API_KEY }, /COMPANION_SECRET.*API key/],
        [{ COMPANION_SECRET: ' '.repeat(40) }, /COMPANION_SECRET/],
        [{ COMPANION_HEADERS_TIMEOUT_MS: '60000' }, /COMPANION_HEADERS_TIMEOUT_MS/],
      ];
      const results = await Promise.all(cases.map(([overrides]) => runCli(overrides)));
      results.forEach((result, index) => {
        const [overrides, message] = present(cases[index]);
        assert.equal(result.ready, false, JSON.stringify(overrides));
        assert.equal(result.code, 1, JSON.stringify(overrides));
        assert.match(result.stderr, message);
        assert.ok(!result.stderr.includes(SECRET) && !result.stderr.includes(API_KEY), 'a secret was printed');
      });
    },
  );

  test(
    'warns about an exposed HOST without a public origin, and applies the server timeouts from the environment',
    { timeout: 60_000 },
    async () => {
      const result = await runCli(
        { HOST: '0.0.0.0', COMPANION_HEADERS_TIMEOUT_MS: '300', COMPANION_REQUEST_TIMEOUT_MS: '600' },
        async (url) => {
          const port = Number(new URL(url).port);
          const socket = connect({ port, host: '127.0.0.1' });
          let answer = '';
          socket.setEncoding('utf8');
          socket.on('data', (chunk: string) => (answer += chunk));
          await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
          socket.write('POST /dials HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
          await new Promise<void>((resolve) => socket.once('close', () => resolve()));
          assert.match(answer, /^HTTP\/1\.1 408/);
        },
      );
      assert.equal(result.ready, true, result.stderr);
      const warnings = result.stderr
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as CompanionLogEntry)
        .filter((entry) => entry.level === 'warn');
      assert.equal(warnings.length, 1);
      assert.match(present(warnings[0]).message ?? '', /HOST=0\.0\.0\.0 without COMPANION_PUBLIC_ORIGIN/);
    },
  );
});
