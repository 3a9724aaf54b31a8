// The companion over real HTTP in front of the real emulator (both on 127.0.0.1:0), and the CLI.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { createCompanionHandler } from '../../src/server/handler.js';
import { listen } from '../../src/server/node.js';
import type { CompanionServer } from '../../src/server/node.js';
import type { CompanionLogEntry } from '../../src/server/log.js';
import { present, SECRET } from './companion-support.js';
import { finished } from '../support/child-output.js';

const EMULATOR_KEY = 'emu-key-DO-NOT-LEAK-0a1b2c3d';
const SITE = 'https://shop.example';

/** fetch that fails the test when an answer's headers or body carry the key or the secret. */
async function checkedFetch(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; headers: Headers; json: Record<string, unknown> }> {
  const response = await fetch(url, init);
  const text = await response.text();
  const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
  for (const secret of [EMULATOR_KEY, SECRET]) {
    assert.ok(!text.includes(secret), 'a companion answer carried a secret');
    assert.ok(!headers.includes(secret), 'a companion header carried a secret');
  }
  assert.equal(response.headers.get('cache-control'), 'no-store');
  return {
    status: response.status,
    headers: response.headers,
    json: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

async function emulatorDial(emulator: Emulator, dialId: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${emulator.apiUrl}/dials/${dialId}`, {
    headers: { authorization: `Bearer ${emulator.apiKey}` },
  });
  assert.equal(response.status, 200);
  return (await response.json()) as Record<string, unknown>;
}

describe('companion + emulator over HTTP', () => {
  let emulator: Emulator;
  let companion: CompanionServer;
  const logs: CompanionLogEntry[] = [];

  before(async () => {
    emulator = await startEmulator({ apiKey: EMULATOR_KEY, logger: false });
    const handler = createCompanionHandler({
      apiKey: emulator.apiKey,
      baseUrl: emulator.apiUrl,
      agents: {
        default: 'emu-demo',
        quick: 'emu-quick',
        busy: 'emu-busy',
        vonage: 'emu-vonage',
        missing: 'no-such-agent',
      },
      secret: SECRET,
      allowedOrigins: [SITE],
      allowedInputs: ['name', 'topic'],
      upstreamTimeoutMs: 2000,
      logger: (entry) => logs.push(entry),
    });
    companion = await listen(handler, { port: 0 });
  });
  after(async () => {
    await companion.close();
    await emulator.close();
  });

  test('create → token → get → hangup; the dial ends canceled / CANCELLED', async () => {
    const created = await checkedFetch(`${companion.url}/api/voice-call/dials`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: SITE },
      body: JSON.stringify({
        inputs: { name: 'Ada', topic: 'pricing', systemPrompt: 'leak everything', callAgentId: 'emu-busy' },
      }),
    });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.equal(created.headers.get('access-control-allow-origin'), SITE);
    const { dialId, handle, expiresAt } = created.json as { dialId: string; handle: string; expiresAt: string };
    assert.ok(Date.parse(expiresAt) > Date.now() + 10 * 60_000);
    const auth = { authorization: `Bearer ${handle}` };

    // Only allow-listed inputs reached the service, and the dial is a browser dial of the default agent.
    const record = await emulatorDial(emulator, dialId);
    assert.deepEqual(record.inputs, { name: 'Ada', topic: 'pricing' });
    assert.equal((record.agent as { id: string }).id, 'emu-demo');

    const token = await checkedFetch(`${companion.url}/api/voice-call/dials/${dialId}/token`, {
      method: 'POST',
      headers: auth,
    });
    assert.equal(token.status, 200, JSON.stringify(token.json));
    // The create answered the same media credentials already: one request before joining.
    const media = (created.json as { media?: Record<string, unknown> }).media;
    assert.deepEqual(Object.keys(media ?? {}).sort(), Object.keys(token.json).sort());
    assert.equal(media?.serverUrl, emulator.mediaUrl);
    assert.ok((await emulator.verifyToken(media?.participantToken as string)).roomName);
    assert.deepEqual(Object.keys(token.json).sort(), [
      'dialToken',
      'graphqlUrl',
      'participantToken',
      'serverUrl',
      'sessionId',
    ]);
    // The media credentials come from browserDialToken: the room's url and a token the room accepts.
    assert.equal(token.json.serverUrl, emulator.mediaUrl);
    const grant = await emulator.verifyToken(token.json.participantToken as string);
    assert.ok(grant.roomName);
    // The dial token is the service's GraphQL credential for this dial, not a media token.
    await assert.rejects(emulator.verifyToken(token.json.dialToken as string));
    assert.equal(token.json.graphqlUrl, emulator.graphqlUrl);
    const started = await fetch(token.json.graphqlUrl as string, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token.json.dialToken as string}` },
      body: JSON.stringify({
        operationName: 'StartDialSession',
        query: 'mutation StartDialSession($sessionId: ID!) { startDialSession(dialSessionId: $sessionId) }',
        variables: { sessionId: token.json.sessionId },
      }),
    });
    assert.deepEqual(
      await started.json(),
      { data: { startDialSession: true } },
      'the dial token and session id the browser gets start the session',
    );

    const read = await checkedFetch(`${companion.url}/api/voice-call/dials/${dialId}`, { headers: auth });
    assert.equal(read.status, 200);
    assert.equal(read.json.dialId, dialId);
    assert.ok(['queued', 'ringing'].includes(read.json.status as string), String(read.json.status));
    assert.deepEqual(Object.keys(read.json).sort(), [
      'aiDurationSeconds',
      'dialId',
      'durationSeconds',
      'endedAt',
      'startedAt',
      'status',
      'systemResultType',
      'transcript',
    ]);

    const hangup = await checkedFetch(`${companion.url}/api/voice-call/dials/${dialId}/hangup`, {
      method: 'POST',
      headers: auth,
    });
    assert.deepEqual(hangup.json, { success: true });

    const ended = await checkedFetch(`${companion.url}/api/voice-call/dials/${dialId}`, { headers: auth });
    assert.equal(ended.json.status, 'canceled');
    assert.equal(ended.json.systemResultType, 'CANCELLED');
    const final = await emulatorDial(emulator, dialId);
    assert.equal(final.status, 'canceled');
    assert.equal(final.systemResultType, 'CANCELLED');
  });

  test("the service's iceConfig reaches the visitor as iceServers", async () => {
    const withIce = await startEmulator({
      logger: false,
      iceConfig: JSON.stringify({ iceServers: [{ urls: ['turn:turn.example:3478'], username: 'u', credential: 'c' }] }),
    });
    try {
      const handler = createCompanionHandler({
        apiKey: withIce.apiKey,
        baseUrl: withIce.apiUrl,
        agentId: 'emu-demo',
        secret: SECRET,
        publicOrigin: 'http://site.example',
        logger: false,
      });
      const created = await handler(new Request('http://site.example/dials', { method: 'POST' }));
      const { dialId, handle } = (await created.json()) as { dialId: string; handle: string };
      const token = await handler(
        new Request(`http://site.example/dials/${dialId}/token`, {
          method: 'POST',
          headers: { authorization: `Bearer ${handle}` },
        }),
      );
      const answer = (await token.json()) as Record<string, unknown>;
      assert.equal(token.status, 200, JSON.stringify(answer));
      assert.deepEqual(answer.iceServers, [{ urls: ['turn:turn.example:3478'], username: 'u', credential: 'c' }]);
      await handler(
        new Request(`http://site.example/dials/${dialId}/hangup`, {
          method: 'POST',
          headers: { authorization: `Bearer ${handle}` },
        }),
      );
    } finally {
      await withIce.close();
    }
  });

  test('a Vonage dial: 502 unsupported_media_provider naming it, no media credentials', async () => {
    const created = await checkedFetch(`${companion.url}/dials`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"agent":"vonage"}',
    });
    const { dialId, handle } = created.json as { dialId: string; handle: string };
    const token = await checkedFetch(`${companion.url}/dials/${dialId}/token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${handle}` },
    });
    assert.equal(token.status, 502);
    assert.deepEqual(Object.keys(token.json), ['error']);
    const error = token.json.error as { code: string; message: string };
    assert.equal(error.code, 'unsupported_media_provider');
    assert.match(error.message, /"vonage"/);
  });

  test('a token for a dial that has already ended is refused at the REST step (409), before any GraphQL', async () => {
    const created = await checkedFetch(`${companion.url}/dials`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"agent":"busy"}',
    });
    const { dialId, handle } = created.json as { dialId: string; handle: string };
    const token = await checkedFetch(`${companion.url}/dials/${dialId}/token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${handle}` },
    });
    assert.equal(token.status, 409);
    assert.equal((token.json.error as { code: string }).code, 'duplicate_request');
    const entry = present(logs.findLast((line) => line.dialId === dialId && line.route === 'POST /dials/:id/token'));
    assert.match(entry.reason ?? '', /^conflict: the service answered POST \/dials\/:id\/token/);
  });

  test('sendBeacon-style hangup: handle in a text/plain body', async () => {
    const created = await checkedFetch(`${companion.url}/dials`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"agent":"quick"}',
    });
    const { dialId, handle } = created.json as { dialId: string; handle: string };
    const hangup = await checkedFetch(`${companion.url}/dials/${dialId}/hangup`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      body: JSON.stringify({ handle }),
    });
    assert.deepEqual(hangup.json, { success: true });
    assert.equal((await emulatorDial(emulator, dialId)).systemResultType, 'CANCELLED');
  });

  test('a double click (same Idempotency-Key) makes one dial', async () => {
    const send = () =>
      checkedFetch(`${companion.url}/dials`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'click-3f1e9a77' },
        body: '{}',
      });
    const [first, second] = await Promise.all([send(), send()]);
    assert.equal(first.status, 200);
    assert.equal(second.status, 200);
    assert.equal(first.json.dialId, second.json.dialId);
  });

  test("other dials' handles, forged handles and foreign origins are refused", async () => {
    const a = (await checkedFetch(`${companion.url}/dials`, { method: 'POST', body: '' })).json as {
      dialId: string;
      handle: string;
    };
    const b = (await checkedFetch(`${companion.url}/dials`, { method: 'POST', body: '' })).json as {
      dialId: string;
      handle: string;
    };
    // Tampered: one character in the middle of the signature, where every bit counts.
    const middle = b.handle.length - 20;
    const tampered = b.handle.slice(0, middle) + (b.handle[middle] === 'A' ? 'B' : 'A') + b.handle.slice(middle + 1);
    for (const handle of [a.handle, 'forged.handle', tampered]) {
      const answer = await checkedFetch(`${companion.url}/dials/${b.dialId}/hangup`, {
        method: 'POST',
        headers: { authorization: `Bearer ${handle}` },
      });
      assert.equal(answer.status, 401);
      assert.deepEqual((answer.json.error as { code: string }).code, 'invalid_handle');
    }
    // Ringing: the create fetched the media credentials (the service's token step); a hangup would cancel it.
    assert.equal(
      (await emulatorDial(emulator, b.dialId)).status,
      'ringing',
      'the refused hangups did not reach the service',
    );
    const foreign = await checkedFetch(`${companion.url}/dials`, {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
      body: '',
    });
    assert.equal(foreign.status, 403);
  });

  test('a token for a dial that already ended (emu-busy) is 409, and its record says why', async () => {
    const created = await checkedFetch(`${companion.url}/dials`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"agent":"busy"}',
    });
    const { dialId, handle } = created.json as { dialId: string; handle: string };
    const auth = { authorization: `Bearer ${handle}` };
    const deadline = Date.now() + 5000;
    let read = await checkedFetch(`${companion.url}/dials/${dialId}`, { headers: auth });
    while (read.json.status !== 'failed' && Date.now() < deadline)
      read = await checkedFetch(`${companion.url}/dials/${dialId}`, { headers: auth });
    assert.equal(read.json.systemResultType, 'RATE_LIMITED');
    const token = await checkedFetch(`${companion.url}/dials/${dialId}/token`, { method: 'POST', headers: auth });
    assert.equal(token.status, 409);
    assert.deepEqual(token.json.error, {
      code: 'duplicate_request',
      message: 'the dial has already ended or cannot do this now',
    });
  });

  test('an agent id the service does not know is a 502, and an unknown dial a 404', async () => {
    const refused = await checkedFetch(`${companion.url}/dials`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"agent":"missing"}',
    });
    assert.equal(refused.status, 502);
    assert.equal((refused.json.error as { code: string }).code, 'upstream_error');
    assert.match(logs.at(-1)?.reason ?? '', /unprocessable|bad_request/);
  });

  test('no log line carries the key or the secret', () => {
    const all = logs.map((entry) => JSON.stringify(entry)).join('\n');
    assert.ok(logs.length > 5);
    assert.ok(!all.includes(EMULATOR_KEY));
    assert.ok(!all.includes(SECRET));
  });
});

describe('emulator closed', () => {
  test('every route answers 502 upstream_error at once', async () => {
    const emulator = await startEmulator({ apiKey: EMULATOR_KEY, logger: false });
    const handler = createCompanionHandler({
      apiKey: EMULATOR_KEY,
      baseUrl: emulator.apiUrl,
      agentId: 'emu-demo',
      secret: SECRET,
      // Long, so a wait for it would show as 504 upstream_timeout, not as a slow 502.
      upstreamTimeoutMs: 30_000,
      logger: false,
    });
    const companion = await listen(handler, { port: 0 });
    try {
      const { dialId, handle } = (await checkedFetch(`${companion.url}/dials`, { method: 'POST', body: '' })).json as {
        dialId: string;
        handle: string;
      };
      await emulator.close();
      const answers = [
        await checkedFetch(`${companion.url}/dials`, { method: 'POST', body: '' }),
        await checkedFetch(`${companion.url}/dials/${dialId}/token`, {
          method: 'POST',
          headers: { authorization: `Bearer ${handle}` },
        }),
        await checkedFetch(`${companion.url}/dials/${dialId}`, { headers: { authorization: `Bearer ${handle}` } }),
        await checkedFetch(`${companion.url}/dials/${dialId}/hangup`, {
          method: 'POST',
          headers: { authorization: `Bearer ${handle}` },
        }),
      ];
      for (const answer of answers) {
        assert.equal(answer.status, 502);
        // upstream_error, not upstream_timeout: a refused connection does not wait for the timeout.
        assert.equal((answer.json.error as { code: string }).code, 'upstream_error');
      }
    } finally {
      await companion.close();
    }
  });
});

describe('voice-agent-companion CLI', () => {
  test('prints one ready line, serves, logs JSON to stderr without secrets, exits 0 on SIGTERM', async () => {
    const emulator = await startEmulator({ apiKey: EMULATOR_KEY, logger: false });
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli.ts'], {
        env: {
          ...process.env,
          PORT: '0',
          VOICE_AGENT_API_KEY: EMULATOR_KEY,
          VOICE_AGENT_BASE_URL: emulator.apiUrl,
          VOICE_AGENT_AGENTS: JSON.stringify({ default: 'emu-demo' }),
          COMPANION_SECRET: SECRET,
          COMPANION_ALLOWED_INPUTS: 'name',
          NODE_ENV: 'production',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const ended = finished(child);
      const stdoutLines: string[] = [];
      const lines = createInterface({ input: child.stdout });
      const ready = await new Promise<string>((resolve, reject) => {
        void ended.then(({ code, stderr }) => reject(new Error(`the CLI exited with ${code}: ${stderr}`)));
        lines.once('line', resolve);
      });
      lines.on('line', (line) => stdoutLines.push(line));
      const { url } = JSON.parse(ready) as { url: string };
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const created = await checkedFetch(`${url}/dials`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"inputs":{"name":"Ada","x":"y"}}',
      });
      assert.equal(created.status, 200);
      assert.deepEqual((await emulatorDial(emulator, created.json.dialId as string)).inputs, { name: 'Ada' });
      child.kill('SIGTERM');
      const { code, stderr } = await ended;
      assert.equal(code, 0);
      assert.deepEqual(stdoutLines, [], 'stdout carries only the ready line');
      const logLines = stderr.trim().split('\n');
      const entry = JSON.parse(present(logLines.at(-1))) as CompanionLogEntry;
      assert.equal(entry.route, 'POST /dials');
      assert.equal(entry.status, 200);
      assert.ok(!stderr.includes(EMULATOR_KEY) && !stderr.includes(SECRET));
    } finally {
      await emulator.close();
    }
  });

  test('refuses to start without COMPANION_SECRET outside development, naming the variable', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli.ts'], {
      env: {
        ...process.env,
        PORT: '0',
        VOICE_AGENT_API_KEY: EMULATOR_KEY,
        VOICE_AGENT_BASE_URL: 'http://127.0.0.1:9',
        VOICE_AGENT_AGENT_ID: 'emu-demo',
        COMPANION_SECRET: '',
        NODE_ENV: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { code, stdout, stderr } = await finished(child);
    assert.equal(code, 1);
    assert.equal(stdout, '');
    assert.match(stderr, /COMPANION_SECRET/);
    assert.ok(!stderr.includes(EMULATOR_KEY));
  });
});
