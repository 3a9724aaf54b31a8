// config.ts on its own: the defaults a bare config gets, what it refuses (a TypeError naming the
// setting), and the parts it makes once (agents without a prototype, public origins allowed to
// call, rate limiters from the numbers or as given).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { resolveConfig, warn, type CompanionConfig } from '../../src/server/config.js';
import { createBufferedLogger, type CompanionLogEntry } from '../../src/server/log.js';
import type { RateLimiter } from '../../src/server/rate-limit.js';

const BASE: CompanionConfig = {
  apiKey: 'key',
  baseUrl: 'http://127.0.0.1:1/api',
  agentId: 'agent-1',
  secret: 's'.repeat(32),
  logger: false,
};

describe('companion config', () => {
  test('a bare config gets the documented defaults', () => {
    const settings = resolveConfig(BASE);
    assert.deepEqual({ ...settings.agents }, { default: 'agent-1' });
    assert.equal(Object.getPrototypeOf(settings.agents), null, 'no prototype: "toString" is no agent');
    assert.equal(settings.graphqlUrl, 'http://127.0.0.1:1/query');
    assert.equal(settings.timeoutMinutes, 10);
    assert.equal(settings.handleLifetimeMs, (10 * 60 + 900) * 1000);
    assert.equal(settings.maxBodyBytes, 16 * 1024);
    assert.equal(settings.maxInputLength, 500);
    assert.equal(settings.basePath, null);
    assert.equal(settings.trustProxy, false);
    assert.equal(settings.ownServiceClient, true);
    assert.equal(settings.mediaUrl, undefined);
  });

  test('public origins are served and may call each other; the base path is normalised', () => {
    const settings = resolveConfig({
      ...BASE,
      publicOrigin: ['https://shop.example/', 'https://www.shop.example'],
      allowedOrigins: ['https://partner.example', ' '],
      basePath: '/api/voice-call/',
    });
    assert.deepEqual(
      [...settings.allowedOrigins],
      ['https://partner.example', 'https://shop.example', 'https://www.shop.example'],
    );
    assert.equal(settings.publicOriginOfHost.get('www.shop.example'), 'https://www.shop.example');
    assert.equal(settings.basePath, '/api/voice-call');
  });

  test('rate limiters: made from the numbers, or used as given', async () => {
    const given: RateLimiter = { take: async () => ({ allowed: false, retryAfterSeconds: 9 }) };
    const settings = resolveConfig({ ...BASE, rateLimit: { perAddress: 1 }, rateLimiters: { total: given } });
    assert.equal(settings.limiters.total, given);
    assert.equal((await settings.limiters.perAddress.take('a')).allowed, true);
    assert.equal((await settings.limiters.perAddress.take('a')).allowed, false);
    assert.equal((await settings.limiters.perDial.take('a')).allowed, true);
  });

  test('refuses what cannot work, naming the setting', () => {
    const refusals: [Partial<CompanionConfig>, RegExp][] = [
      [{ agentId: undefined }, /at least one agent/],
      [{ secret: undefined }, /COMPANION_SECRET/],
      [{ secret: 'short' }, /at least 32 characters/],
      [{ secret: 'k'.repeat(32), apiKey: 'k'.repeat(32) }, /must not be the API key/],
      [{ baseUrl: 'ftp://x' }, /VOICE_AGENT_BASE_URL/],
      [{ baseUrl: 'http://api.example.com' }, /allowed only in dev mode/],
      [{ mediaUrl: 'http://media.example' }, /VOICE_AGENT_MEDIA_URL/],
      [{ graphqlUrl: '/query' }, /VOICE_AGENT_GRAPHQL_URL/],
      [{ allowedOrigins: ['*'] }, /COMPANION_ALLOWED_ORIGINS/],
      [{ publicOrigin: 'https://shop.example/path' }, /COMPANION_PUBLIC_ORIGIN/],
      [{ timeoutMinutes: 0 }, /timeoutMinutes/],
      // Issue 30, 6: past the bound a timer overflowed and the call timed out at once.
      [{ timeoutMinutes: 1441 }, /timeoutMinutes must be a whole number from 1 to 1440/],
      [{ timeoutMinutes: 1e308 }, /timeoutMinutes/],
    ];
    for (const [config, message] of refusals) {
      assert.throws(() => resolveConfig({ ...BASE, ...config }), message);
    }
  });

  test('dev mode: a random secret and a plain-http service are allowed, each with a warning', () => {
    const entries: CompanionLogEntry[] = [];
    const settings = resolveConfig({
      ...BASE,
      dev: true,
      secret: undefined,
      baseUrl: 'http://api.example.com',
      logger: (entry) => entries.push(entry),
    });
    assert.ok(settings.signingSecret.length >= 32);
    assert.deepEqual(
      entries.map((entry) => [entry.level, /random one|plain http/.test(entry.message ?? '')]),
      [
        ['warn', true],
        ['warn', true],
      ],
    );
  });

  test('warn logs one entry, and a logger that throws does not break the caller', () => {
    const lines: string[] = [];
    const logger = createBufferedLogger((text) => lines.push(text));
    warn({ log: logger, now: () => 0 }, 'careful', 'dial-1');
    assert.deepEqual(JSON.parse(lines.join('')), {
      time: '1970-01-01T00:00:00.000Z',
      level: 'warn',
      message: 'careful',
      dialId: 'dial-1',
    });
    assert.doesNotThrow(() =>
      warn(
        {
          log: () => {
            throw new Error('broken logger');
          },
          now: () => 0,
        },
        'careful',
      ),
    );
  });
});
