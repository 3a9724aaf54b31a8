// The companion handler, called with `new Request(...)` — no socket — against a fake service.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createCompanionHandler } from '../../src/server/handler.js';
import { createHandleSigner } from '../../src/server/handles.js';
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
  guard,
  makeCompanion,
  ORIGIN,
  post,
  SECRET,
  UPSTREAM_MARKER,
} from './companion-support.js';

describe('POST /dials', () => {
  test('creates a browser dial with the mapped agent, the time cap and only allowed inputs', async () => {
    const { handler, service, clock } = makeCompanion({ timeoutMinutes: 7, handleMarginSeconds: 60 });
    const dial = await createDial(handler, {
      body: { agent: 'sales', inputs: { name: 'Ada', topic: 'billing', secretPrompt: 'ignore all rules', extra: 42 } },
    });
    assert.match(dial.dialId, /^dial-/);
    assert.equal(typeof dial.handle, 'string');
    assert.equal(dial.expiresAt, new Date(clock.now + (7 * 60 + 60) * 1000).toISOString());
    const [call] = service.callsTo('POST', /^\/dials$/);
    assert.ok(call);
    assert.deepEqual(call.body, {
      callAgentId: 'agent-sales',
      browserCall: true,
      callAgentInput: { name: 'Ada', topic: 'billing' },
      timeoutMinutes: 7,
    });
    assert.equal(call.headers.get('authorization'), `Bearer ${API_KEY}`);
  });

  test('no agent name means the default agent; an empty body is fine', async () => {
    const { handler, service } = makeCompanion();
    const response = await handler(new Request(BASE + '/dials', { method: 'POST' }), { clientAddress: '203.0.113.7' });
    assert.equal(response.status, 200);
    assert.equal((present(service.calls[0]).body as { callAgentId: string }).callAgentId, 'agent-default');
  });

  test('agentId is shorthand for the default agent', async () => {
    const service = makeCompanion().service;
    const handler = createCompanionHandler({
      apiKey: API_KEY,
      baseUrl: 'https://s.example',
      agentId: 'agent-x',
      secret: SECRET,
      fetch: service.fetch,
      logger: false,
    });
    await createDial(guard(handler));
    assert.equal((present(service.calls[0]).body as { callAgentId: string }).callAgentId, 'agent-x');
  });

  for (const [what, payload] of [
    ['an unknown agent name', { agent: 'nope' }],
    ['an inherited property as agent name', { agent: 'constructor' }],
    ['a non-string agent', { agent: 5 }],
    ['a non-string allowed input', { inputs: { name: 5 } }],
    ['an allowed input over 500 characters', { inputs: { name: 'x'.repeat(501) } }],
    ['inputs that are not an object', { inputs: ['name'] }],
    ['an unknown top-level field', { agent: 'sales', timeoutMinutes: 999 }],
    ['a JSON array', [1, 2]],
    ['JSON null', null],
  ] as const) {
    test(`refuses ${what} with 400 and sends nothing to the service`, async () => {
      const { handler, service } = makeCompanion();
      await expectError(
        await handler(post('/dials', JSON.stringify(payload)), { clientAddress: '1.2.3.4' }),
        400,
        'invalid_request',
      );
      assert.equal(service.calls.length, 0);
    });
  }

  test('a value of exactly the limit passes; non-allowed keys of any type are dropped', async () => {
    const { handler, service } = makeCompanion();
    await createDial(handler, { body: { inputs: { name: 'x'.repeat(500), other: { deep: true } } } });
    assert.deepEqual((present(service.calls[0]).body as { callAgentInput: unknown }).callAgentInput, {
      name: 'x'.repeat(500),
    });
  });

  test('malformed JSON and a non-JSON content type are 400', async () => {
    const { handler } = makeCompanion();
    await expectError(await handler(post('/dials', '{"agent": ')), 400, 'invalid_request');
    await expectError(
      await handler(post('/dials', '{"agent":"sales"}', { 'content-type': 'text/plain' })),
      400,
      'invalid_request',
    );
    await expectError(
      await handler(post('/dials', '\u00ff', { 'content-type': 'application/json' })),
      400,
      'invalid_request',
    );
  });

  test('a body over the limit is 413, whether declared or streamed', async () => {
    const { handler, service } = makeCompanion({ maxBodyBytes: 1024 });
    await expectError(await handler(post('/dials', { inputs: { name: 'x'.repeat(2000) } })), 413, 'payload_too_large');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new Uint8Array(200).fill(32));
        controller.close();
      },
    });
    const streamed = new Request(BASE + '/dials', {
      method: 'POST',
      body: stream,
      headers: { 'content-type': 'application/json' },
      duplex: 'half',
    } as RequestInit);
    await expectError(await handler(streamed), 413, 'payload_too_large');
    assert.equal(service.calls.length, 0);
  });

  test('Idempotency-Key: validated, scoped to the client address, the same for a double click', async () => {
    const { handler, service } = makeCompanion();
    await expectError(
      await handler(post('/dials', {}, { 'idempotency-key': 'has spaces in it' })),
      400,
      'invalid_request',
    );
    await expectError(
      await handler(post('/dials', {}, { 'idempotency-key': 'x'.repeat(256) })),
      400,
      'invalid_request',
    );
    const key = '5d1c8a62-0f5e-4a57-9b7e-0c4f1d2e3a4b';
    await createDial(handler, { headers: { 'idempotency-key': key } });
    await createDial(handler, { headers: { 'idempotency-key': key } });
    await createDial(handler, { headers: { 'idempotency-key': key }, context: { clientAddress: '198.51.100.9' } });
    const sent = service.callsTo('POST', /^\/dials$/).map((call) => call.headers.get('idempotency-key'));
    assert.equal(sent.length, 3);
    assert.ok(sent[0]);
    assert.equal(sent[0], sent[1], 'a double click from one visitor carries one key');
    assert.notEqual(sent[0], sent[2], 'another address cannot replay that dial');
    assert.ok(!sent.includes(key));
  });
});

describe('POST /dials: the media credentials in the same answer', () => {
  test("one request before joining: the create answers what the token route would, with the create's own dial token", async () => {
    const { handler, service } = makeCompanion();
    const dial = (await createDial(handler)) as Awaited<ReturnType<typeof createDial>> & { media?: unknown };
    assert.deepEqual(dial.media, {
      serverUrl: 'wss://media.example',
      participantToken: `media-token-for-${dial.dialId}`,
      dialToken: `token-for-${dial.dialId}`,
      graphqlUrl: 'https://service.example/query',
      sessionId: `session-${dial.dialId}`,
    });
    assert.deepEqual(
      service.calls.map((call) => `${call.method} ${call.path}`),
      // browserDialToken authorised by the dial token the create answered: no REST token call.
      ['POST /dials', 'POST /query'],
    );
    // The token route stays for a rejoin, guarded by the handle as before.
    const again = await handler(post(`/dials/${dial.dialId}/token`, undefined, bearer(dial.handle)));
    assert.deepEqual(await body(again), dial.media);
    await expectError(
      await handler(post(`/dials/${dial.dialId}/token`, undefined, bearer('forged.handle'))),
      401,
      'invalid_handle',
    );
  });

  test('credentials that cannot be fetched do not fail the create: it answers the dial without them, logs why, and the token route answers that failure', async () => {
    const { handler, service, logs } = makeCompanion();
    service.graphqlErrors = [`dial session is not browser-enabled ${UPSTREAM_MARKER}`];
    const dial = (await createDial(handler)) as Awaited<ReturnType<typeof createDial>> & { media?: unknown };
    assert.equal(dial.media, undefined);
    assert.ok(dial.handle);
    const entry = present(logs.at(-1));
    assert.equal(entry.status, 200);
    assert.match(entry.reason ?? '', /^media credentials not sent \(upstream_error: browserDialToken: graphql_error/);
    // Refused with the create's own token, they were asked again the token route's way (a fresh
    // REST token first, which would have said 409 for a dial the service had ended).
    assert.deepEqual(
      service.calls.map((call) => `${call.method} ${call.path}`),
      ['POST /dials', 'POST /query', `POST /dials/${dial.dialId}/token`, 'POST /query'],
    );
    await expectError(
      await handler(post(`/dials/${dial.dialId}/token`, undefined, bearer(dial.handle))),
      502,
      'upstream_error',
    );
  });

  test('a create the service refuses issues no credentials; nothing is fetched for it', async () => {
    const { handler, service } = makeCompanion();
    service.faults.push({ match: /^POST \/dials$/, fault: { status: 500 } });
    const response = await handler(post('/dials', {}), { clientAddress: '203.0.113.7' });
    assert.ok(!(await response.clone().text()).includes('participantToken'));
    await expectError(response, 502, 'upstream_error');
    assert.deepEqual(
      service.calls.map((call) => `${call.method} ${call.path}`),
      ['POST /dials'],
    );
  });
});

describe('POST /dials/:id/token', () => {
  const tokenOf = (handler: ReturnType<typeof makeCompanion>['handler'], dial: { dialId: string; handle: string }) =>
    handler(post(`/dials/${dial.dialId}/token`, undefined, bearer(dial.handle)));

  test("REST token, then browserDialToken with it: LiveKit's shape plus what the browser's session protocol needs", async () => {
    const { handler, service } = makeCompanion();
    const dial = await createDial(handler);
    const response = await tokenOf(handler, dial);
    assert.equal(response.status, 200);
    assert.deepEqual(await body(response), {
      serverUrl: 'wss://media.example',
      participantToken: `media-token-for-${dial.dialId}`,
      dialToken: `token-for-${dial.dialId}`,
      graphqlUrl: 'https://service.example/query',
      sessionId: `session-${dial.dialId}`,
    });
    const [rest] = service.callsTo('POST', /\/token$/);
    assert.equal(present(rest).headers.get('authorization'), `Bearer ${API_KEY}`);
    const [graphql] = service.callsTo('POST', /^\/query$/);
    assert.ok(graphql, 'browserDialToken was sent to the origin of the base URL + /query');
    assert.equal(
      graphql.headers.get('authorization'),
      `Bearer token-for-${dial.dialId}`,
      'authorised by the dial token, not the API key',
    );
    assert.deepEqual(graphql.body, {
      operationName: 'BrowserDialToken',
      query:
        'mutation BrowserDialToken($input: BrowserDialTokenInput!) { browserDialToken(input: $input) { token iceConfig telephonyProvider url } }',
      variables: { input: { type: 'DIAL_SESSION', dialSessionId: `session-${dial.dialId}`, liveListen: false } },
    });
  });

  test('graphqlUrl overrides the default endpoint', async () => {
    const { handler, service } = makeCompanion({ graphqlUrl: 'https://gql.service.example/query' });
    const dial = await createDial(handler);
    service.forget();
    const answer = await body(await tokenOf(handler, dial));
    assert.equal(answer.graphqlUrl, 'https://gql.service.example/query');
    assert.deepEqual(
      service.callsTo('POST', /^\/query$/).map((call) => call.url),
      ['https://gql.service.example/query'],
    );
  });

  test('mediaUrl overrides the url browserDialToken answers; with neither it is a logged 502', async () => {
    const withMedia = makeCompanion({ mediaUrl: 'ws://127.0.0.1:7880' });
    const dial = await createDial(withMedia.handler);
    assert.equal((await body(await tokenOf(withMedia.handler, dial))).serverUrl, 'ws://127.0.0.1:7880');

    const without = makeCompanion();
    without.service.tokenUrl = undefined;
    const other = await createDial(without.handler);
    await expectError(await tokenOf(without.handler, other), 502, 'upstream_error');
    const entry = present(without.logs.at(-1));
    assert.equal(entry.status, 502);
    assert.match(entry.reason ?? '', /VOICE_AGENT_MEDIA_URL/);
  });

  test('a provider other than livekit is 502 unsupported_media_provider, naming it', async () => {
    const { handler, service, logs } = makeCompanion();
    service.provider = 'vonage';
    const dial = await createDial(handler);
    const response = await tokenOf(handler, dial);
    const answer = await body(response);
    assert.equal(response.status, 502);
    const error = answer.error as { code: string; message: string };
    assert.equal(error.code, 'unsupported_media_provider');
    assert.match(error.message, /"vonage"/);
    assert.ok(!('participantToken' in answer) && !('dialToken' in answer), 'no credentials with the error');
    assert.equal(present(logs.at(-1)).code, 'unsupported_media_provider');
  });

  test("GraphQL errors are 502 upstream_error: the service's message is logged, not answered", async () => {
    const { handler, service, logs } = makeCompanion();
    service.graphqlErrors = [`dial session is not browser-enabled ${UPSTREAM_MARKER}`];
    const dial = await createDial(handler);
    const response = await tokenOf(handler, dial);
    assert.ok(!(await response.clone().text()).includes(UPSTREAM_MARKER));
    await expectError(response, 502, 'upstream_error');
    const entry = present(logs.at(-1));
    assert.match(entry.reason ?? '', /browserDialToken: graphql_error/);
    assert.ok(
      (entry.reason ?? '').includes(`dial session is not browser-enabled ${UPSTREAM_MARKER}`),
      'the service message is in the log',
    );
  });

  test('a GraphQL error that echoes a token reaches the log redacted (issue 30, 7)', async () => {
    const { handler, service, logs } = makeCompanion();
    const jwt =
      'eyJhbGciOiJFUzI1NiJ9.eyJkaWFsSWQiOiJkLTEiLCJzZXNzaW9uSWQiOiJzLTEifQ.c2lnbmF0dXJlLW9mLXRoZS1kaWFsLXRva2Vu';
    const opaque = 'dt_9fK2mQ7xLp3RzW8vN4bC';
    service.graphqlErrors = [
      `invalid dial token ${jwt} for session s-1`,
      `Authorization: Bearer ${opaque} refused`,
      'token expired',
    ];
    const dial = await createDial(handler);
    await expectError(await tokenOf(handler, dial), 502, 'upstream_error');
    const reason = present(logs.at(-1)).reason ?? '';
    for (const secret of [jwt, opaque, jwt.split('.')[2] ?? jwt])
      assert.ok(!JSON.stringify(logs).includes(secret), 'no token in any log line');
    assert.match(reason, /invalid dial token \[redacted\] for session s-1/);
    assert.match(reason, /Authorization: Bearer \[redacted\] refused/);
    assert.match(reason, /token expired/, 'the words around a token stay');
  });

  for (const [what, fault, status, code] of [
    ['unreachable', 'network', 502, 'upstream_error'],
    ['silent', 'hang', 504, 'upstream_timeout'],
    ['answering HTTP 500', { status: 500 }, 502, 'upstream_error'],
    ['answering a body that is not JSON', { status: 200, body: `<html>${UPSTREAM_MARKER}` }, 502, 'upstream_error'],
    [
      'answering data without a token',
      { status: 200, body: JSON.stringify({ data: { browserDialToken: null } }) },
      502,
      'upstream_error',
    ],
  ] as const) {
    test(`the GraphQL endpoint ${what} → ${status} ${code}; the REST token step was done`, async () => {
      const { handler, service, logs } = makeCompanion({ upstreamTimeoutMs: 100 });
      const dial = await createDial(handler);
      service.forget();
      service.faults.push({ match: /^POST \/query$/, fault });
      const response = await tokenOf(handler, dial);
      assert.ok(!(await response.clone().text()).includes(UPSTREAM_MARKER));
      await expectError(response, status, code);
      assert.equal(service.callsTo('POST', /\/token$/).length, 1);
      assert.match(present(logs.at(-1)).reason ?? '', /^browserDialToken: /);
    });
  }

  test('iceConfig: a list of ICE servers reaches the browser; an unreadable one is ignored with a log line that does not quote it', async () => {
    const { handler, service, logs } = makeCompanion();
    const dial = await createDial(handler);
    service.iceConfig = JSON.stringify({
      iceServers: [{ urls: ['turn:turn.example:3478'], username: 'u', credential: 'c' }, { urls: 'stun:stun.example' }],
    });
    assert.deepEqual((await body(await tokenOf(handler, dial))).iceServers, [
      { urls: ['turn:turn.example:3478'], username: 'u', credential: 'c' },
      { urls: 'stun:stun.example' },
    ]);
    service.iceConfig = JSON.stringify([{ urls: 'stun:stun.example' }]);
    assert.deepEqual((await body(await tokenOf(handler, dial))).iceServers, [{ urls: 'stun:stun.example' }]);
    for (const bad of [
      'not json CREDENTIAL-XYZ',
      '{"urls": "CREDENTIAL-XYZ"}',
      '[{"urls": "http://CREDENTIAL-XYZ"}]',
      '[]',
    ]) {
      service.iceConfig = bad;
      const response = await tokenOf(handler, dial);
      const answer = await body(response);
      assert.equal(response.status, 200, bad);
      assert.ok(!('iceServers' in answer), bad);
      const warning = logs.findLast((entry) => entry.level === 'warn');
      assert.match(warning?.message ?? '', /iceConfig/);
      assert.ok(!JSON.stringify(logs).includes('CREDENTIAL-XYZ'));
    }
  });

  test('a handle without a session id (signed before the session protocol) is refused before the service is asked', async () => {
    const { handler, service } = makeCompanion();
    const dial = await createDial(handler);
    service.forget();
    const signer = createHandleSigner(SECRET);
    const old = await signer.sign(dial.dialId, Date.UTC(2027, 0, 1));
    await expectError(
      await handler(post(`/dials/${dial.dialId}/token`, undefined, bearer(old))),
      401,
      'invalid_handle',
    );
    assert.equal(service.callsTo('POST', /\/token$/).length, 0);
    assert.equal((await handler(get(`/dials/${dial.dialId}`, old))).status, 200, 'it still reads the dial');
  });
});

describe('GET /dials/:id', () => {
  test('answers the public fields only: no agent config, inputs or recordings', async () => {
    const { handler, service } = makeCompanion();
    const dial = await createDial(handler, { body: { inputs: { name: 'Ada' } } });
    Object.assign(present(service.dials.get(dial.dialId)), {
      status: 'completed',
      systemResultType: 'AGENT_HANGUP',
      durationSeconds: 12,
      aiDurationSeconds: 9,
      startedAt: '2026-01-01T00:00:00.000Z',
      endedAt: '2026-01-01T00:00:12.000Z',
      aiResult: { outcome: 'booked' },
      transcript: [
        { text: 'Hello', speaker: 'AI', startTimeMs: 0, endTimeMs: 900, detailType: 'x', internal: UPSTREAM_MARKER },
      ],
    });
    const response = await handler(get(`/dials/${dial.dialId}`, dial.handle));
    const answer = await body(response);
    assert.equal(response.status, 200);
    assert.deepEqual(answer, {
      dialId: dial.dialId,
      status: 'completed',
      systemResultType: 'AGENT_HANGUP',
      durationSeconds: 12,
      aiDurationSeconds: 9,
      startedAt: '2026-01-01T00:00:00.000Z',
      endedAt: '2026-01-01T00:00:12.000Z',
      transcript: [{ text: 'Hello', speaker: 'AI', startTimeMs: 0, endTimeMs: 900 }],
      aiResult: { outcome: 'booked' },
    });
  });

  test('leaves aiResult out when the service has none', async () => {
    const { handler } = makeCompanion();
    const dial = await createDial(handler);
    const answer = await body(await handler(get(`/dials/${dial.dialId}`, dial.handle)));
    assert.equal(answer.status, 'queued');
    assert.ok(!('aiResult' in answer));
  });
});

describe('POST /dials/:id/hangup', () => {
  test('accepts the handle as a Bearer header', async () => {
    const { handler, service } = makeCompanion();
    const dial = await createDial(handler);
    const response = await handler(post(`/dials/${dial.dialId}/hangup`, undefined, bearer(dial.handle)));
    assert.deepEqual(await body(response), { success: true });
    assert.equal(present(service.dials.get(dial.dialId)).status, 'canceled');
  });

  for (const [what, make] of [
    ['a JSON body', (handle: string) => ({ body: JSON.stringify({ handle }), type: 'application/json' })],
    [
      'a text/plain body (sendBeacon with a string)',
      (handle: string) => ({ body: JSON.stringify({ handle }), type: 'text/plain;charset=UTF-8' }),
    ],
    [
      'a typed Blob',
      (handle: string) => ({
        body: new Blob([JSON.stringify({ handle })], { type: 'application/json' }),
        type: undefined,
      }),
    ],
  ] as const) {
    test(`accepts the handle in ${what}`, async () => {
      const { handler, service } = makeCompanion();
      const dial = await createDial(handler);
      const { body: payload, type } = make(dial.handle);
      const request = new Request(`${BASE}/dials/${dial.dialId}/hangup`, {
        method: 'POST',
        body: payload,
        headers: type ? { 'content-type': type } : {},
      });
      const response = await handler(request);
      assert.deepEqual(await body(response), { success: true });
      assert.equal(service.callsTo('POST', /\/hangup$/).length, 1);
    });
  }

  test('without any handle it is 401; a malformed body is 400', async () => {
    const { handler, service } = makeCompanion();
    const dial = await createDial(handler);
    await expectError(await handler(post(`/dials/${dial.dialId}/hangup`)), 401, 'invalid_handle');
    await expectError(await handler(post(`/dials/${dial.dialId}/hangup`, { other: 1 })), 401, 'invalid_handle');
    await expectError(await handler(post(`/dials/${dial.dialId}/hangup`, '{handle:')), 400, 'invalid_request');
    assert.equal(service.callsTo('POST', /\/hangup$/).length, 0);
  });
});

describe('handles', () => {
  async function attempts(handler: ReturnType<typeof makeCompanion>['handler'], dialId: string, handle: string) {
    return [
      await handler(post(`/dials/${dialId}/token`, undefined, bearer(handle))),
      await handler(get(`/dials/${dialId}`, handle)),
      await handler(post(`/dials/${dialId}/hangup`, undefined, bearer(handle))),
      await handler(post(`/dials/${dialId}/hangup`, { handle })),
    ];
  }

  test('forged, tampered, other-dial and expired handles are 401 on every route, and never reach the service', async () => {
    const { handler, service, clock } = makeCompanion({ timeoutMinutes: 1, handleMarginSeconds: 30 });
    const mine = await createDial(handler);
    const theirs = await createDial(handler, { context: { clientAddress: '198.51.100.1' } });
    const [payload, signature] = mine.handle.split('.') as [string, string];
    const forgedPayload = btoa(JSON.stringify({ v: 1, d: theirs.dialId, e: 4102444800 }))
      .replace(/=+$/, '')
      .replace(/\+/g, '-')
      .replace(/\//g, '_');
    const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1);
    const before = service.calls.length;
    const bad = [
      'not-a-handle',
      `${forgedPayload}.${signature}`,
      `${payload}.${flipped}`,
      `${payload}.${signature}.extra`,
      `${forgedPayload}.${'A'.repeat(43)}`,
      mine.handle + 'x',
      'x'.repeat(5000),
    ];
    for (const handle of bad) {
      for (const response of await attempts(handler, theirs.dialId, handle))
        await expectError(response, 401, 'invalid_handle');
    }
    // A valid handle for one dial does not open another.
    for (const response of await attempts(handler, theirs.dialId, mine.handle))
      await expectError(response, 401, 'invalid_handle');
    assert.equal(service.calls.length, before);
    // Expired: valid until the cap (60 s) + margin (30 s), not after.
    clock.now += 89_000;
    assert.equal((await handler(get(`/dials/${mine.dialId}`, mine.handle))).status, 200);
    clock.now += 2_000;
    for (const response of await attempts(handler, mine.dialId, mine.handle))
      await expectError(response, 401, 'invalid_handle');
  });

  test('a handle signed with another secret is refused', async () => {
    const one = makeCompanion();
    const dial = await createDial(one.handler);
    const other = makeCompanion({ secret: 'another-secret-another-secret-0123456789' });
    await expectError(await other.handler(get(`/dials/${dial.dialId}`, dial.handle)), 401, 'invalid_handle');
  });

  test('Authorization must be a Bearer handle', async () => {
    const { handler } = makeCompanion();
    const dial = await createDial(handler);
    await expectError(
      await handler(get(`/dials/${dial.dialId}`, undefined, { authorization: `Basic ${dial.handle}` })),
      401,
      'invalid_handle',
    );
    await expectError(
      await handler(get(`/dials/${dial.dialId}`, undefined, { authorization: 'Bearer' })),
      401,
      'invalid_handle',
    );
  });
});

describe('origins and CORS', () => {
  test('an allowed origin gets CORS headers, without credentials', async () => {
    const { handler } = makeCompanion();
    const response = await handler(post('/dials', {}, { origin: ORIGIN }), { clientAddress: '1.1.1.1' });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), ORIGIN);
    assert.equal(response.headers.get('access-control-allow-credentials'), null);
    assert.match(response.headers.get('vary') ?? '', /Origin/);
  });

  test('another origin is 403 on every route, including preflight, and reaches nothing', async () => {
    const { handler, service } = makeCompanion();
    const dial = await createDial(handler);
    const evil = { origin: 'https://evil.example' };
    await expectError(await handler(post('/dials', {}, evil)), 403, 'origin_not_allowed');
    await expectError(await handler(get(`/dials/${dial.dialId}`, dial.handle, evil)), 403, 'origin_not_allowed');
    await expectError(
      await handler(post(`/dials/${dial.dialId}/hangup`, undefined, { ...bearer(dial.handle), ...evil })),
      403,
      'origin_not_allowed',
    );
    await expectError(await handler(post('/dials', {}, { origin: 'null' })), 403, 'origin_not_allowed');
    const preflight = await handler(
      new Request(BASE + '/dials', {
        method: 'OPTIONS',
        headers: { ...evil, 'access-control-request-method': 'POST' },
      }),
    );
    // The preflight is granted so that the page's request comes and reads its refusal (issue 29, item 7).
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), evil.origin);
    assert.equal(service.callsTo('POST', /^\/dials$/).length, 1);
    assert.equal(service.calls.length, 2, 'only the one create and the media credentials it fetched');
  });

  test('a refused origin can read why (CORS on the 403), and the log names the origin', async () => {
    const { handler, logs: entries } = makeCompanion();
    const refused = await handler(post('/dials', {}, { origin: 'https://blog.example' }));
    assert.equal(refused.status, 403);
    assert.equal(refused.headers.get('access-control-allow-origin'), 'https://blog.example');
    const body = (await refused.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'origin_not_allowed');
    assert.match(body.error.message, /https:\/\/blog\.example/);
    assert.match(body.error.message, /COMPANION_ALLOWED_ORIGINS/);
    const logged = entries.at(-1);
    assert.equal(logged?.code, 'origin_not_allowed');
    assert.match(logged?.reason ?? '', /"https:\/\/blog\.example" refused/);
    // An opaque origin gets no CORS grant, and neither does a value that is not an origin.
    for (const origin of ['null', 'https://blog.example/path']) {
      const opaque = await handler(post('/dials', {}, { origin }));
      assert.equal(opaque.status, 403, origin);
      assert.equal(opaque.headers.get('access-control-allow-origin'), null, origin);
    }
  });

  test('same-origin and origin-less requests need no configuration', async () => {
    const { handler } = makeCompanion({ allowedOrigins: [] });
    const same = await handler(post('/dials', {}, { origin: new URL(BASE).origin }), { clientAddress: '1.1.1.1' });
    assert.equal(same.status, 200);
    assert.equal(same.headers.get('access-control-allow-origin'), null);
    assert.equal((await handler(post('/dials', {}), { clientAddress: '1.1.1.2' })).status, 200);
  });

  test('preflight: 204 with methods and headers incl. Authorization, Content-Type, Idempotency-Key', async () => {
    const { handler } = makeCompanion();
    for (const path of ['/dials', '/dials/d-1/token', '/dials/d-1', '/dials/d-1/hangup']) {
      const response = await handler(
        new Request(BASE + path, {
          method: 'OPTIONS',
          headers: {
            origin: ORIGIN,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'authorization',
          },
        }),
      );
      assert.equal(response.status, 204, path);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.equal(response.headers.get('access-control-allow-origin'), ORIGIN);
      const allowHeaders = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase();
      for (const header of ['authorization', 'content-type', 'idempotency-key'])
        assert.ok(allowHeaders.includes(header), header);
      assert.match(response.headers.get('access-control-allow-methods') ?? '', path === '/dials/d-1' ? /GET/ : /POST/);
      assert.equal(response.headers.get('access-control-allow-credentials'), null);
    }
  });
});

describe('routing', () => {
  test('unknown routes are 404, wrong methods 405 with Allow', async () => {
    const { handler } = makeCompanion();
    for (const path of [
      '/',
      '/dial',
      '/dials/',
      '/dials/a/b',
      '/dials/a/token/x',
      '/dials/%ZZ',
      '/dials/..%2f..%2fsecret',
      '/dials/' + 'a'.repeat(200),
    ]) {
      const response = await handler(get(path));
      assert.ok(response.status === 404 || response.status === 405, `${path}: ${response.status}`);
      await expectError(response, 404, 'not_found');
    }
    const wrong = await handler(get('/dials'));
    await expectError(wrong, 405, 'method_not_allowed');
    assert.match(wrong.headers.get('allow') ?? '', /POST/);
    await expectError(await handler(new Request(BASE + '/dials/d-1', { method: 'DELETE' })), 405, 'method_not_allowed');
    await expectError(await handler(get('/dials/d-1/token')), 405, 'method_not_allowed');
    await expectError(await handler(post('/dials/d-1', {})), 405, 'method_not_allowed');
  });

  test('routes match the path tail under any prefix, or exactly under basePath', async () => {
    const { handler } = makeCompanion();
    for (const prefix of ['', '/x', '/deep/mount/point']) {
      const response = await handler(new Request(`https://site.example${prefix}/dials`, { method: 'POST' }), {
        clientAddress: prefix || 'root',
      });
      assert.equal(response.status, 200, prefix);
    }
    const based = makeCompanion({ basePath: '/api/voice-call/' }).handler;
    assert.equal((await based(post('/dials', {}), { clientAddress: '1.1.1.1' })).status, 200);
    await expectError(
      await based(new Request('https://site.example/other/dials', { method: 'POST' })),
      404,
      'not_found',
    );
    await expectError(
      await based(new Request('https://site.example/api/voice-call/x/dials', { method: 'POST' })),
      404,
      'not_found',
    );
  });
});

describe('GET /service', () => {
  test("names the service's GraphQL URL, with no service call, CORS for an allowed origin, and no-store", async () => {
    const { handler, service } = makeCompanion();
    const response = await handler(get('/service', undefined, { origin: ORIGIN }));
    assert.equal(response.status, 200);
    assert.deepEqual(await body(response), { graphqlUrl: 'https://service.example/query' });
    assert.equal(response.headers.get('access-control-allow-origin'), ORIGIN);
    assert.equal(service.calls.length, 0);
    const configured = makeCompanion({ graphqlUrl: 'https://graphql.service.example/query' }).handler;
    assert.deepEqual(await body(await configured(get('/service'))), {
      graphqlUrl: 'https://graphql.service.example/query',
    });
  });

  test('another origin is refused; other methods are 405; it matches under a prefix or basePath', async () => {
    const { handler } = makeCompanion();
    await expectError(
      await handler(get('/service', undefined, { origin: 'https://evil.example' })),
      403,
      'origin_not_allowed',
    );
    const wrong = await handler(post('/service', {}));
    await expectError(wrong, 405, 'method_not_allowed');
    assert.equal(wrong.headers.get('allow'), 'GET, OPTIONS');
    assert.equal((await handler(new Request('https://site.example/deep/mount/service'))).status, 200);
    const based = makeCompanion({ basePath: '/api/voice-call/' }).handler;
    assert.equal((await based(new Request('https://site.example/api/voice-call/service'))).status, 200);
    await expectError(await based(new Request('https://site.example/api/voice-call/x/service')), 404, 'not_found');
  });
});

describe('upstream failures', () => {
  const cases = [
    ['404', { status: 404 }, 404, 'not_found'],
    ['409', { status: 409 }, 409, 'duplicate_request'],
    ['429', { status: 429, headers: { 'retry-after': '17' } }, 429, 'rate_limited'],
    ['400', { status: 400 }, 502, 'upstream_error'],
    ['422', { status: 422 }, 502, 'upstream_error'],
    ['401 (bad key)', { status: 401 }, 502, 'upstream_error'],
    ['500', { status: 500 }, 502, 'upstream_error'],
    ['503 with an HTML body', { status: 503, body: `<h1>${UPSTREAM_MARKER}</h1>` }, 502, 'upstream_error'],
    ['200 with a body that is not JSON', { status: 200, body: `oops ${UPSTREAM_MARKER}` }, 502, 'upstream_error'],
    ['a network failure', 'network', 502, 'upstream_error'],
    ['no answer within the timeout', 'hang', 504, 'upstream_timeout'],
  ] as const;
  for (const [what, fault, status, code] of cases) {
    test(`${what} → ${status} ${code} on every route, upstream text never echoed`, async () => {
      const { handler, service, logs } = makeCompanion({ upstreamTimeoutMs: 100 });
      const dial = await createDial(handler);
      service.faults.push({ match: /./, fault });
      const responses = [
        await handler(post('/dials', {}), { clientAddress: '9.9.9.9' }),
        await handler(post(`/dials/${dial.dialId}/token`, undefined, bearer(dial.handle))),
        await handler(get(`/dials/${dial.dialId}`, dial.handle)),
        await handler(post(`/dials/${dial.dialId}/hangup`, undefined, bearer(dial.handle))),
      ];
      for (const response of responses) {
        const text = await response.clone().text();
        assert.ok(!text.includes(UPSTREAM_MARKER), text);
        await expectError(response, status, code);
        if (status === 429) assert.equal(response.headers.get('retry-after'), '17');
      }
      for (const entry of logs) assert.ok(!JSON.stringify(entry).includes(UPSTREAM_MARKER));
    });
  }
});

describe('rate limits', () => {
  test('per client address, with Retry-After, and independent of other addresses', async (t) => {
    // The limiter (rate-limiter-flexible) reads Date.now() and expires keys with timers: move both.
    t.mock.timers.enable({ apis: ['Date', 'setTimeout'], now: Date.UTC(2026, 0, 1) });
    const { handler, service } = makeCompanion({ rateLimit: { perAddress: 2, total: 100 }, now: Date.now });
    await createDial(handler, { context: { clientAddress: '10.0.0.1' } });
    await createDial(handler, { context: { clientAddress: '10.0.0.1' } });
    t.mock.timers.tick(15_000);
    const refused = await handler(post('/dials', {}), { clientAddress: '10.0.0.1' });
    await expectError(refused, 429, 'rate_limited');
    assert.equal(refused.headers.get('retry-after'), '45');
    await createDial(handler, { context: { clientAddress: '10.0.0.2' } });
    t.mock.timers.tick(45_000);
    await createDial(handler, { context: { clientAddress: '10.0.0.1' } });
    assert.equal(service.callsTo('POST', /^\/dials$/).length, 4);
  });

  test('in total', async () => {
    const { handler } = makeCompanion({ rateLimit: { perAddress: 100, total: 3 } });
    for (let i = 0; i < 3; i++) await createDial(handler, { context: { clientAddress: `10.0.1.${i}` } });
    await expectError(await handler(post('/dials', {}), { clientAddress: '10.0.1.99' }), 429, 'rate_limited');
  });

  test('X-Forwarded-For is ignored unless trustProxy; then its last hop is the address', async () => {
    const untrusted = makeCompanion({ rateLimit: { perAddress: 1 } }).handler;
    await createDial(untrusted, { headers: { 'x-forwarded-for': '1.1.1.1' }, context: { clientAddress: '10.9.9.9' } });
    await expectError(
      await untrusted(post('/dials', {}, { 'x-forwarded-for': '2.2.2.2' }), { clientAddress: '10.9.9.9' }),
      429,
      'rate_limited',
    );

    const trusted = makeCompanion({ rateLimit: { perAddress: 1 }, trustProxy: true }).handler;
    await createDial(trusted, {
      headers: { 'x-forwarded-for': '6.6.6.6, 1.1.1.1' },
      context: { clientAddress: '10.9.9.9' },
    });
    // A spoofed first hop does not give a fresh address: the proxy appends the real one last.
    await expectError(
      await trusted(post('/dials', {}, { 'x-forwarded-for': '7.7.7.7, 1.1.1.1' }), { clientAddress: '10.9.9.9' }),
      429,
      'rate_limited',
    );
    await createDial(trusted, { headers: { 'x-forwarded-for': '2.2.2.2' }, context: { clientAddress: '10.9.9.9' } });
  });

  test('a plugged RateLimiter decides', async () => {
    const keys: string[] = [];
    const { handler } = makeCompanion({
      rateLimiters: {
        perAddress: { take: async (key) => (keys.push(key), { allowed: true, retryAfterSeconds: 0 }) },
        total: { take: async () => ({ allowed: false, retryAfterSeconds: 2.2 }) },
      },
    });
    const response = await handler(post('/dials', {}), { clientAddress: '10.1.1.1' });
    await expectError(response, 429, 'rate_limited');
    assert.equal(response.headers.get('retry-after'), '3');
    assert.deepEqual(keys, ['10.1.1.1']);
  });
});

describe('logs and configuration', () => {
  test('one JSON-able entry per request with route, method, status, duration, dial id; no key, secret or handle', async () => {
    const { handler, logs } = makeCompanion();
    const dial = await createDial(handler);
    await handler(get(`/dials/${dial.dialId}`, dial.handle));
    await handler(get(`/dials/${dial.dialId}`, 'forged.handle'));
    assert.equal(logs.length, 3);
    const [created, read, refused] = logs as [CompanionLogEntry, CompanionLogEntry, CompanionLogEntry];
    assert.equal(created.route, 'POST /dials');
    assert.equal(created.dialId, dial.dialId);
    assert.equal(read.route, 'GET /dials/:id');
    assert.equal(read.method, 'GET');
    assert.equal(read.status, 200);
    assert.equal(typeof read.durationMs, 'number');
    assert.equal(refused.status, 401);
    assert.equal(refused.code, 'invalid_handle');
    const all = logs.map((entry) => JSON.stringify(entry)).join('\n');
    for (const secret of [API_KEY, SECRET, dial.handle]) assert.ok(!all.includes(secret));
  });

  test('the default logger writes one JSON line to stderr; logger: false is silent', async () => {
    const lines: unknown[] = [];
    const original = console.error;
    console.error = (line: unknown) => lines.push(line);
    try {
      const service = makeCompanion().service;
      const base = {
        apiKey: API_KEY,
        baseUrl: 'https://s.example',
        agentId: 'a',
        secret: SECRET,
        fetch: service.fetch,
      };
      await createCompanionHandler(base)(get('/nowhere'));
      assert.equal(lines.length, 1);
      assert.deepEqual(Object.keys(JSON.parse(String(lines[0])) as object).slice(0, 5), [
        'time',
        'level',
        'route',
        'method',
        'status',
      ]);
      await createCompanionHandler({ ...base, logger: false })(get('/nowhere'));
      assert.equal(lines.length, 1);
    } finally {
      console.error = original;
    }
  });

  test('refuses to start without a secret outside dev mode, or with a short one; dev mode warns', () => {
    const base = { apiKey: API_KEY, baseUrl: 'https://s.example', agentId: 'a' };
    assert.throws(() => createCompanionHandler({ ...base, logger: false }), /secret/);
    assert.throws(() => createCompanionHandler({ ...base, secret: 'short', logger: false }), /32 characters/);
    assert.throws(
      () => createCompanionHandler({ apiKey: API_KEY, baseUrl: 'https://s.example', secret: SECRET }),
      /agent/,
    );
    assert.throws(() => createCompanionHandler({ ...base, secret: SECRET, timeoutMinutes: 0 }), /timeoutMinutes/);
    const logs: CompanionLogEntry[] = [];
    createCompanionHandler({ ...base, dev: true, logger: (entry) => logs.push(entry) });
    assert.equal(logs[0]?.level, 'warn');
    assert.match(logs[0]?.message ?? '', /dev mode/);
  });

  test('every answer carries Cache-Control: no-store', async () => {
    const { handler } = makeCompanion();
    const dial = await createDial(handler);
    const requests = [
      post('/dials', {}),
      post('/dials', 'nope'),
      get('/nope'),
      new Request(BASE + '/dials', { method: 'OPTIONS', headers: { origin: ORIGIN } }),
      post(`/dials/${dial.dialId}/token`, undefined, bearer(dial.handle)),
      get(`/dials/${dial.dialId}`, dial.handle),
      get(`/dials/${dial.dialId}`, 'bad'),
      post('/dials', {}, { origin: 'https://evil.example' }),
    ];
    for (const request of requests)
      assert.equal(
        (await handler(request, { clientAddress: '1.2.3.4' })).headers.get('cache-control'),
        'no-store',
        request.url,
      );
  });
});
