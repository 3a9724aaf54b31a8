// The companion's parts on their own: handle signing, the Node adapter's reading of a request, the in-memory rate limiter, env config.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { afterEach, beforeEach, describe, mock, test } from 'node:test';
import { ConfigError, companionConfigFromEnv } from '../../src/server/env.js';
import { base64UrlDecode, base64UrlEncode, createHandleSigner } from '../../src/server/handles.js';
import { targetOf } from '../../src/server/node.js';
import { createMemoryRateLimiter } from '../../src/server/rate-limit.js';
import { present } from './companion-support.js';

describe('handles', () => {
  const signer = createHandleSigner('a-secret-that-is-long-enough-for-tests');
  const now = Date.UTC(2026, 0, 1);

  test('a signed handle verifies for its dial until it expires', async () => {
    const handle = await signer.sign('dial-1', now + 60_000);
    assert.match(handle, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    assert.equal(await signer.verify(handle, 'dial-1', now), true);
    assert.equal(await signer.verify(handle, 'dial-1', now + 59_999), true);
    assert.equal(await signer.verify(handle, 'dial-1', now + 60_000), false);
    assert.equal(await signer.verify(handle, 'dial-2', now), false);
  });

  test("a handle carries its dial's session id, so the token route needs no server-side state", async () => {
    const handle = await signer.sign('dial-1', now + 60_000, 'session-9');
    assert.deepEqual(await signer.read(handle, 'dial-1', now), {
      dialId: 'dial-1',
      sessionId: 'session-9',
      expiresAtMs: now + 60_000,
    });
    assert.equal(await signer.read(handle, 'dial-2', now), null);
    assert.equal((await signer.read(await signer.sign('dial-1', now + 60_000), 'dial-1', now))?.sessionId, null);
  });

  test('any changed byte, another secret or garbage is refused', async () => {
    const handle = await signer.sign('dial-1', now + 60_000);
    for (let i = 0; i < handle.length; i++) {
      if (handle[i] === '.') continue;
      const changed = handle.slice(0, i) + (handle[i] === 'A' ? 'B' : 'A') + handle.slice(i + 1);
      assert.equal(await signer.verify(changed, 'dial-1', now), false, `byte ${i}`);
    }
    assert.equal(await createHandleSigner('another-secret-that-is-long-enough!!').verify(handle, 'dial-1', now), false);
    for (const garbage of ['', '.', 'a.b', 'a.b.c', '!!.??', '\u0000.\u0000', 'x'.repeat(2000)]) {
      assert.equal(await signer.verify(garbage, 'dial-1', now), false, garbage);
    }
  });

  test('base64url round-trips and refuses non-alphabet input', () => {
    const bytes = new Uint8Array([0, 1, 250, 251, 252, 253, 254, 255]);
    assert.deepEqual(base64UrlDecode(base64UrlEncode(bytes)), bytes);
    assert.equal(base64UrlDecode('ab+c'), null);
    assert.equal(base64UrlDecode('a'), null);
  });

  test('a handle has one spelling: a last character that differs only in unused bits is refused', async () => {
    const now = Date.now();
    const handle = await signer.sign('dial-1', now + 60_000);
    const [payload, signature] = handle.split('.') as [string, string];
    // 32 bytes are 43 characters; the last one carries 4 bits and 2 unused ones.
    const last = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.indexOf(present(signature.at(-1)));
    const sibling = present('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[last ^ 1]);
    const respelled = `${payload}.${signature.slice(0, -1)}${sibling}`;
    assert.equal(base64UrlDecode(present(respelled.split('.')[1])), null);
    assert.equal(await signer.verify(handle, 'dial-1', now), true);
    assert.equal(await signer.verify(respelled, 'dial-1', now), false);
  });
});

describe('the Node adapter', () => {
  test("reads a request's path, host and scheme as `new URL(req.url, 'http://' + Host)` does, without parsing the common ones", () => {
    const paths = [
      '/',
      '/dials',
      '/api/voice-call/dials/d-1/token',
      '/dials/a.b:c~d',
      '/a/../dials',
      '/dials/./x',
      '/dials/..',
      '/dials/%2e%2E/x',
      '/%64ials',
      '//evil.example/dials',
      '/\\evil.example/dials',
      '/dials?x=1',
      '/dials#x',
      '/di als',
      '/dials/ü',
      '/dials/{x}',
      'http://other.example/dials',
      '*',
      '',
    ];
    const hosts = [
      undefined,
      '127.0.0.1:8787',
      'LOCALHOST:80',
      '[::1]:8787',
      'a:b:c',
      'exa mple',
      'xn--bcher-kva.example',
      '127.1',
    ];
    for (const url of paths) {
      for (const host of hosts) {
        const req = { url, headers: host === undefined ? {} : { host } } as unknown as IncomingMessage;
        // No Host (HTTP/1.0) reads as localhost; one URL cannot hold is never localhost (issue 30, 2).
        const unparsable = 'unparsable-host.invalid';
        let safeHost = host === undefined ? 'localhost' : /^[A-Za-z0-9.:[\]-]+$/.test(host) ? host : unparsable;
        if (!URL.canParse(`http://${safeHost}/`)) safeHost = unparsable;
        let expected: URL;
        try {
          expected = new URL(url, `http://${safeHost}`);
        } catch {
          expected = new URL(`http://${safeHost}/`);
        }
        assert.deepEqual(
          targetOf(req),
          { pathname: expected.pathname, host: expected.host, protocol: expected.protocol },
          `${url} on ${host}`,
        );
      }
    }
  });
});

describe('memory rate limiter', () => {
  // rate-limiter-flexible reads Date.now() and expires keys with timers: the tests move both.
  beforeEach(() => mock.timers.enable({ apis: ['Date', 'setTimeout'], now: 0 }));
  afterEach(() => mock.timers.reset());

  test('allows `limit` per key and window, then says how long to wait', async () => {
    const limiter = createMemoryRateLimiter({ limit: 2, windowMs: 60_000 });
    assert.equal((await limiter.take('a')).allowed, true);
    assert.equal((await limiter.take('a')).allowed, true);
    mock.timers.tick(20_500);
    assert.deepEqual(await limiter.take('a'), { allowed: false, retryAfterSeconds: 40 });
    assert.equal((await limiter.take('b')).allowed, true);
    mock.timers.tick(39_500);
    assert.equal((await limiter.take('a')).allowed, true);
  });

  test('a limit of 0 refuses everything', async () => {
    const limiter = createMemoryRateLimiter({ limit: 0, windowMs: 1000 });
    assert.deepEqual(await limiter.take('a'), { allowed: false, retryAfterSeconds: 1 });
  });

  test('caps the live keys: past maxKeys a new key is refused until older windows end; known keys still count', async () => {
    const limiter = createMemoryRateLimiter({ limit: 2, windowMs: 1000, maxKeys: 10 });
    for (let i = 0; i < 10; i++) assert.equal((await limiter.take(`k${i}`)).allowed, true);
    assert.deepEqual(await limiter.take('k10'), { allowed: false, retryAfterSeconds: 1 });
    assert.equal((await limiter.take('k0')).allowed, true);
    assert.equal((await limiter.take('k0')).allowed, false);
    // Keys made in the last two periods may still live; after that every old key has expired.
    mock.timers.tick(2000);
    for (let i = 10; i < 20; i++) assert.equal((await limiter.take(`k${i}`)).allowed, true, `k${i}`);
    assert.equal((await limiter.take('k20')).allowed, false);
  });
});

describe('config from the environment', () => {
  const base = {
    VOICE_AGENT_API_KEY: 'k',
    VOICE_AGENT_BASE_URL: 'http://127.0.0.1:1',
    VOICE_AGENT_AGENT_ID: 'agent-1',
    COMPANION_SECRET: 's'.repeat(32),
  };

  test('reads every variable', () => {
    const config = companionConfigFromEnv({
      ...base,
      VOICE_AGENT_AGENTS: '{"sales":"agent-2"}',
      VOICE_AGENT_MEDIA_URL: 'ws://127.0.0.1:2',
      VOICE_AGENT_GRAPHQL_URL: 'http://127.0.0.1:3/query',
      COMPANION_ALLOWED_ORIGINS: 'https://a.example, https://b.example',
      COMPANION_ALLOWED_INPUTS: 'name,topic',
      COMPANION_RATE_LIMIT_PER_ADDRESS: '3',
      COMPANION_RATE_LIMIT_TOTAL: '50',
      COMPANION_TRUST_PROXY: '1',
      COMPANION_TIMEOUT_MINUTES: '5',
    });
    assert.deepEqual(config.agents, { default: 'agent-1', sales: 'agent-2' });
    assert.deepEqual(config.allowedOrigins, ['https://a.example', 'https://b.example']);
    assert.deepEqual(config.allowedInputs, ['name', 'topic']);
    assert.deepEqual(config.rateLimit, { perAddress: 3, total: 50 });
    assert.equal(config.trustProxy, true);
    assert.equal(config.timeoutMinutes, 5);
    assert.equal(config.mediaUrl, 'ws://127.0.0.1:2');
    assert.equal(config.graphqlUrl, 'http://127.0.0.1:3/query');
    assert.equal(config.dev, false);
  });

  test('refuses a missing key, base URL, agent or secret (outside development), and bad values', () => {
    for (const missing of ['VOICE_AGENT_API_KEY', 'VOICE_AGENT_BASE_URL', 'VOICE_AGENT_AGENT_ID', 'COMPANION_SECRET']) {
      assert.throws(() => companionConfigFromEnv({ ...base, [missing]: undefined }), ConfigError, missing);
    }
    assert.equal(companionConfigFromEnv({ ...base, COMPANION_SECRET: undefined, NODE_ENV: 'development' }).dev, true);
    assert.throws(() => companionConfigFromEnv({ ...base, VOICE_AGENT_AGENTS: '[1]' }), ConfigError);
    assert.throws(() => companionConfigFromEnv({ ...base, VOICE_AGENT_AGENTS: '{' }), ConfigError);
    assert.throws(() => companionConfigFromEnv({ ...base, COMPANION_RATE_LIMIT_TOTAL: 'lots' }), ConfigError);
    assert.throws(() => companionConfigFromEnv({ ...base, VOICE_AGENT_GRAPHQL_URL: '/query' }), ConfigError);
    // Issue 30, 6: refused at config time, naming the variable and the bound.
    for (const minutes of ['1441', '35792', '0'])
      assert.throws(
        () => companionConfigFromEnv({ ...base, COMPANION_TIMEOUT_MINUTES: minutes }),
        /COMPANION_TIMEOUT_MINUTES must be 1 to 1440/,
      );
  });
});
