// What a site owner watches: `GET {base}/metrics` (absent unless configured, refused without its
// token, never CORS-readable, never counted against visitors' limits) and the counters and
// histograms moving as real calls go through the companion to the emulator: a create, each kind
// of refusal, a rate limit, a Redis outage (a real redis-server), a rating and a call's metrics post.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';
import { Registry } from 'prom-client';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { companionConfigFromEnv, ConfigError } from '../../src/server/env.js';
import { createCompanionHandler, type CompanionConfig, type CompanionHandler } from '../../src/server/handler.js';
import type { CompanionLogEntry } from '../../src/server/log.js';
import { createNodeListener, listen } from '../../src/server/node.js';
import { createRedisRateLimiters } from '../../src/server/rate-limit.js';
import { startRedisServer } from '../support/redis-server.js';
import { BASE, ORIGIN, SECRET, bearer, body, expectError, get, post, present } from './companion-support.js';

const TOKEN = 'metrics-token-0123456789-abcdef';
const PREFIX = 'voice_agent_companion_';

/** A metric's value in a Prometheus text exposition (0 when the series is absent). */
function valueOf(exposition: string, series: string): number {
  const line = exposition.split('\n').find((candidate) => candidate.startsWith(series + ' '));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

interface Watched {
  handler: CompanionHandler;
  logs: CompanionLogEntry[];
  /** The exposition as the scraper gets it. */
  scrape(): Promise<string>;
}

function watched(emulator: Emulator, overrides: Partial<CompanionConfig> = {}): Watched {
  const logs: CompanionLogEntry[] = [];
  const handler = createCompanionHandler({
    apiKey: emulator.apiKey,
    baseUrl: emulator.apiUrl,
    agents: { default: 'emu-demo' },
    secret: SECRET,
    allowedOrigins: [ORIGIN],
    publicOrigin: 'https://site.example',
    upstreamTimeoutMs: 3000,
    logger: (entry) => logs.push(entry),
    metricsToken: TOKEN,
    metrics: { defaultMetrics: false },
    ...overrides,
  });
  return {
    handler,
    logs,
    async scrape() {
      const response = await handler(get('/metrics', TOKEN));
      assert.equal(response.status, 200);
      return response.text();
    },
  };
}

const address = (n: number) => ({ clientAddress: `198.51.100.${n}` });

async function created(handler: CompanionHandler, n = 1): Promise<{ dialId: string; handle: string }> {
  const response = await handler(post('/dials', {}), address(n));
  const answer = await body(response);
  assert.equal(response.status, 200, JSON.stringify(answer));
  return answer as { dialId: string; handle: string };
}

const CALL_METRICS = {
  timeToFirstAudioMs: 1840,
  stages: {
    microphone: { startMs: 0, durationMs: 120 },
    dial: { startMs: 120, durationMs: 310 },
    media: { startMs: 430, durationMs: 600 },
    agent: { startMs: 1030, durationMs: 400 },
    firstAudio: { startMs: 1430, durationMs: 410 },
  },
  reconnects: 0,
  rttMs: 42,
  jitterMs: 3.5,
  packetLoss: 0.01,
};

describe('GET /metrics', () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startEmulator({ logger: false });
  });
  after(async () => {
    await emulator.close();
  });

  test('absent (404) without a metrics token, and the metrics post with it; no handle.metrics', async () => {
    const handler = createCompanionHandler({
      apiKey: emulator.apiKey,
      baseUrl: emulator.apiUrl,
      agentId: 'emu-demo',
      secret: SECRET,
      logger: false,
    });
    assert.equal(handler.metrics, undefined);
    await expectError(await handler(get('/metrics', TOKEN)), 404, 'not_found');
    const dial = await created(handler);
    await expectError(
      await handler(post(`/dials/${dial.dialId}/metrics`, CALL_METRICS, bearer(dial.handle)), address(1)),
      404,
      'not_found',
    );
  });

  test('refused (401) without the token or with a wrong one; never CORS-readable; the token never logged', async () => {
    const { handler, logs } = watched(emulator);
    for (const headers of [{}, bearer('wrong-token-0123456789-abcdef'), { authorization: TOKEN }]) {
      const response = await handler(get('/metrics', undefined, { ...headers, origin: ORIGIN }));
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('www-authenticate'), 'Bearer realm="metrics"');
      assert.equal(response.headers.get('access-control-allow-origin'), null);
    }
    const ok = await handler(get('/metrics', TOKEN, { origin: ORIGIN }));
    assert.equal(ok.status, 200);
    assert.match(ok.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    assert.equal(ok.headers.get('access-control-allow-origin'), null, 'no page can read the metrics');
    assert.match(await ok.text(), /# TYPE voice_agent_companion_dials_created_total counter/);
    const preflight = await handler(
      new Request(`${BASE}/metrics`, {
        method: 'OPTIONS',
        headers: { origin: ORIGIN, 'access-control-request-method': 'GET' },
      }),
    );
    assert.equal(preflight.headers.get('access-control-allow-origin'), null);
    assert.ok(logs.some((entry) => entry.route === 'GET /metrics' && entry.status === 200));
    assert.ok(!JSON.stringify(logs).includes(TOKEN), 'the token is not logged');
  });

  test("a scrape spends none of a visitor's allowance and counts as no refusal", async () => {
    const { handler, scrape } = watched(emulator, { rateLimit: { readsPerAddress: 1, perAddress: 1 } });
    for (let i = 0; i < 5; i++) assert.equal((await handler(get('/metrics', TOKEN), address(9))).status, 200);
    await handler(get('/metrics', 'wrong-token-0123456789-abcdef'), address(9));
    await created(handler, 9);
    const text = await scrape();
    assert.equal(valueOf(text, `${PREFIX}dials_created_total`), 1);
    assert.doesNotMatch(text, /requests_refused_total\{/);
  });

  test('the counters and histograms move with real calls: a create, refusals, a rate limit, a rating, a metrics post', async () => {
    const { handler, scrape } = watched(emulator, { rateLimit: { perAddress: 2 } });
    const dial = await created(handler, 1);
    await created(handler, 1);
    await expectError(await handler(post('/dials', {}), address(1)), 429, 'rate_limited');
    await expectError(
      await handler(post('/dials', {}, { origin: 'https://evil.example' }), address(2)),
      403,
      'origin_not_allowed',
    );
    await expectError(
      await handler(new Request('http://attacker.example/dials', { method: 'POST', body: '{}' }), address(2)),
      403,
      'host_not_allowed',
    );
    await expectError(await handler(post('/dials', { agent: 'nobody' }), address(3)), 400, 'invalid_request');
    await expectError(await handler(get(`/dials/${dial.dialId}`, 'not-a-handle'), address(3)), 401, 'invalid_handle');
    const rating = await handler(
      post(`/dials/${dial.dialId}/feedback`, { rating: 'up' }, bearer(dial.handle)),
      address(1),
    );
    assert.equal(rating.status, 200);
    const sent = await handler(post(`/dials/${dial.dialId}/metrics`, CALL_METRICS, bearer(dial.handle)), address(1));
    assert.equal(sent.status, 200, await sent.clone().text());

    const text = await scrape();
    assert.equal(valueOf(text, `${PREFIX}dials_created_total`), 2);
    assert.equal(valueOf(text, `${PREFIX}requests_refused_total{reason="rate_limit_per_address"}`), 1);
    assert.equal(valueOf(text, `${PREFIX}requests_refused_total{reason="origin"}`), 1);
    assert.equal(valueOf(text, `${PREFIX}requests_refused_total{reason="host"}`), 1);
    assert.equal(valueOf(text, `${PREFIX}requests_refused_total{reason="validation"}`), 1);
    assert.equal(valueOf(text, `${PREFIX}requests_refused_total{reason="handle"}`), 1);
    assert.equal(valueOf(text, `${PREFIX}ratings_total{rating="up"}`), 1);
    assert.equal(valueOf(text, `${PREFIX}ratings_total{rating="down"}`), 0);
    assert.equal(
      valueOf(text, `${PREFIX}service_request_duration_seconds_count{operation="createDial",outcome="ok"}`),
      2,
    );
    assert.equal(
      valueOf(text, `${PREFIX}service_request_duration_seconds_count{operation="browserDialToken",outcome="ok"}`),
      2,
    );
    assert.equal(valueOf(text, `${PREFIX}client_time_to_first_audio_seconds_count`), 1);
    assert.equal(valueOf(text, `${PREFIX}client_time_to_first_audio_seconds_sum`), 1.84);
    assert.equal(valueOf(text, `${PREFIX}client_time_to_first_audio_seconds_bucket{le="1.5"}`), 0);
    assert.equal(valueOf(text, `${PREFIX}client_time_to_first_audio_seconds_bucket{le="2"}`), 1);
    for (const stage of ['microphone', 'dial', 'media', 'agent', 'firstAudio'])
      assert.equal(valueOf(text, `${PREFIX}client_setup_stage_seconds_count{stage="${stage}"}`), 1, stage);
    assert.equal(valueOf(text, `${PREFIX}client_setup_stage_seconds_sum{stage="dial"}`), 0.31);
    // Low-cardinality labels only: no dial id, address or agent id in any series.
    for (const secret of [dial.dialId, '198.51.100', 'emu-demo', dial.handle])
      assert.ok(!text.includes(secret), secret);
  });

  test("the service's failures are timed with their outcome", async () => {
    const { handler, scrape } = watched(emulator, { agents: { default: 'no-such-agent' } });
    const response = await handler(post('/dials', {}), address(4));
    assert.ok(response.status >= 400);
    const text = await scrape();
    assert.match(
      text,
      /service_request_duration_seconds_count\{operation="createDial",outcome="(not_found|unprocessable|bad_request)"\} 1/,
    );
    assert.equal(valueOf(text, `${PREFIX}dials_created_total`), 0);
  });

  test("the metrics route's bad inputs get a clear 4xx and count nothing", async () => {
    const { handler, scrape } = watched(emulator);
    const dial = await created(handler, 5);
    const other = await created(handler, 6);
    const send = (payload: unknown, headers: Record<string, string> = bearer(dial.handle)) =>
      handler(post(`/dials/${dial.dialId}/metrics`, payload, headers), address(5));
    await expectError(
      await send({ ...CALL_METRICS, stages: { ...CALL_METRICS.stages, padding: 'x'.repeat(5000) } }),
      413,
      'payload_too_large',
    );
    for (const wrong of [
      { timeToFirstAudioMs: '1840' },
      { timeToFirstAudioMs: -1 },
      { timeToFirstAudioMs: 1e12 },
      { stages: { dial: { startMs: 0, durationMs: 'slow' } } },
      { stages: { 'agent-7f3a': { startMs: 0, durationMs: 10 } } },
      { stages: [] },
      { reconnects: 1.5 },
      { packetLoss: 3 },
      { dialId: 'mine' },
      [1, 2],
    ]) {
      const response = await send(wrong);
      const answer = await body(response);
      assert.equal(response.status, 400, JSON.stringify(wrong));
      assert.equal((answer.error as { code: string }).code, 'invalid_request');
    }
    await expectError(await send(CALL_METRICS, bearer(other.handle)), 401, 'invalid_handle');
    await expectError(await send(CALL_METRICS, {}), 401, 'invalid_handle');
    // Then the one good post (as sendBeacon sends it: the handle in a text/plain body), and a second.
    const beacon = await handler(
      post(`/dials/${dial.dialId}/metrics`, JSON.stringify({ ...CALL_METRICS, handle: dial.handle }), {
        'content-type': 'text/plain;charset=UTF-8',
      }),
      address(5),
    );
    assert.equal(beacon.status, 200);
    await expectError(await send(CALL_METRICS), 409, 'duplicate_request');
    const text = await scrape();
    assert.equal(valueOf(text, `${PREFIX}client_time_to_first_audio_seconds_count`), 1, 'only the good post counted');
    assert.equal(valueOf(text, `${PREFIX}client_setup_stage_seconds_count{stage="dial"}`), 1);
    assert.equal(valueOf(text, `${PREFIX}requests_refused_total{reason="duplicate"}`), 1);
  });

  test('a Redis outage shows as store_unreachable, not as visitors over a limit', async () => {
    const { Redis } = await import('ioredis');
    const redisServer = await startRedisServer();
    const redis = new Redis(redisServer.url, {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      lazyConnect: false,
    });
    redis.on('error', () => {});
    await once(redis, 'ready');
    try {
      const { handler, scrape } = watched(emulator, {
        rateLimiters: createRedisRateLimiters(redis, { perAddress: 5 }),
      });
      await created(handler, 7);
      await redisServer.stop();
      await expectError(await handler(post('/dials', {}), address(7)), 429, 'rate_limited');
      const text = await scrape();
      assert.equal(valueOf(text, `${PREFIX}dials_created_total`), 1);
      assert.equal(valueOf(text, `${PREFIX}requests_refused_total{reason="store_unreachable"}`), 1);
      assert.equal(valueOf(text, `${PREFIX}requests_refused_total{reason="rate_limit_per_address"}`), 0);
    } finally {
      redis.disconnect();
      await redisServer.stop();
    }
  });

  test('the mounted handler and its Node listener expose one registry a host can merge into its own', async () => {
    const { handler } = watched(emulator, { metricsToken: undefined, metrics: true });
    const listener = createNodeListener(handler);
    assert.equal(listener.metrics, handler.metrics);
    await created(handler, 8);
    const own = new Registry();
    const merged = Registry.merge([own, await present(handler.metrics).registry()]);
    const text = await merged.metrics();
    assert.equal(valueOf(text, `${PREFIX}dials_created_total`), 1);
    assert.match(text, /voice_agent_companion_process_cpu_user_seconds_total/, 'default metrics unless turned off');
    // Without a token there is no route, even with metrics kept.
    await expectError(await handler(get('/metrics', TOKEN)), 404, 'not_found');
  });

  test('over HTTP: the scrape a Prometheus server makes', async () => {
    const { handler } = watched(emulator);
    const server = await listen(handler, { port: 0, logger: false });
    try {
      const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(response.status, 200);
      assert.match(await response.text(), /voice_agent_companion_requests_refused_total/);
    } finally {
      await server.close();
    }
  });

  test('COMPANION_METRICS_TOKEN: set from the environment, a short one refused', () => {
    const env = {
      VOICE_AGENT_API_KEY: 'sk-a-key',
      VOICE_AGENT_BASE_URL: 'https://api.example.com',
      VOICE_AGENT_AGENT_ID: 'agent-1',
      COMPANION_SECRET: SECRET,
    };
    assert.equal(companionConfigFromEnv({ ...env, COMPANION_METRICS_TOKEN: TOKEN }).metricsToken, TOKEN);
    assert.throws(
      () => companionConfigFromEnv({ ...env, COMPANION_METRICS_TOKEN: 'short' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        /COMPANION_METRICS_TOKEN: the metrics token must be at least 16/.test(error.message),
    );
    assert.throws(
      () =>
        createCompanionHandler({
          apiKey: 'k',
          baseUrl: 'https://api.example.com',
          agentId: 'a',
          secret: SECRET,
          metricsToken: 'short',
        }),
      /metricsToken \(COMPANION_METRICS_TOKEN\)/,
    );
  });
});
