// Shared by the companion tests: a fake calling service behind an injected `fetch`, and a guard
// that checks no answer ever carries the API key or the handle secret.
import assert from 'node:assert/strict';
import { ServiceError } from '../../src/api/service-error.js';
import { createCompanionHandler } from '../../src/server/handler.js';
import type { CompanionConfig, CompanionHandler, CompanionRequestContext } from '../../src/server/handler.js';
import type { CompanionLogEntry } from '../../src/server/log.js';
import { listen, type CompanionServer, type NodeServerLimits } from '../../src/server/node.js';
import type { AddressInfo } from 'node:net';

import { present } from '../support/present.js';

export { present };

export const API_KEY = 'sk-test-api-key-DO-NOT-LEAK-4242';
export const SECRET = 'companion-test-secret-0123456789-abcdef';
/** Put into fake upstream bodies: it must never come back to a visitor. */
export const UPSTREAM_MARKER = 'UPSTREAM-BODY-MARKER-7731';
export const ORIGIN = 'https://shop.example';
export const BASE = 'https://site.example/api/voice-call';

export interface RecordedCall {
  method: string;
  url: string;
  path: string;
  headers: Headers;
  body: unknown;
}

export type Fault = { status: number; body?: string; headers?: Record<string, string> } | 'network' | 'hang';

/** An in-memory stand-in for the service's REST API and its GraphQL `browserDialToken`, reachable through `fetch`. */
export class FakeService {
  calls: RecordedCall[] = [];
  dials = new Map<string, Record<string, unknown>>();
  /** Served instead of the normal answer for the next requests whose path matches (`POST /query` for GraphQL). */
  faults: { match: RegExp; fault: Fault }[] = [];
  /** What `browserDialToken` answers as `url`, `telephonyProvider` and `iceConfig`. */
  tokenUrl: string | undefined = 'wss://media.example';
  provider = 'livekit';
  iceConfig: string | null = null;
  /** When set, `browserDialToken` answers these GraphQL errors and no data. */
  graphqlErrors: string[] | null = null;
  /** `hangupCall` with a `transferNumber` (API key): each dial and number asked, in order. */
  transfers: { dialId: string; transferNumber: unknown }[] = [];
  /** When set, `hangupCall` answers these GraphQL errors (the service refusing a transfer). */
  transferErrors: string[] | null = null;
  #next = 1;

  fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const path = url.pathname.replace(/^\/api/, '');
    const text = await request.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    this.calls.push({ method: request.method, url: request.url, path, headers: request.headers, body });
    const fault = this.faults.find((entry) => entry.match.test(`${request.method} ${path}`))?.fault;
    if (fault === 'network') throw new TypeError('fetch failed: connect ECONNREFUSED ' + UPSTREAM_MARKER);
    if (fault === 'hang') {
      return new Promise((_, reject) => {
        request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
      });
    }
    if (fault)
      return new Response(fault.body ?? JSON.stringify({ error: { code: 'x', message: UPSTREAM_MARKER } }), {
        status: fault.status,
        headers: fault.headers ?? {},
      });
    if (request.method === 'POST' && path === '/query') return this.#graphql(request, body);
    if (request.headers.get('authorization') !== `Bearer ${API_KEY}`)
      return json(401, { error: { code: 'unauthorized', message: 'bad key' } });
    let match: RegExpExecArray | null;
    if (request.method === 'POST' && path === '/dials') {
      const id = `dial-${this.#next++}`;
      const input = body as Record<string, unknown>;
      this.dials.set(id, {
        id,
        status: 'queued',
        systemResultType: null,
        transcript: [],
        durationSeconds: null,
        aiDurationSeconds: null,
        aiResult: null,
        startedAt: null,
        endedAt: null,
        callAgentInput: input.callAgentInput,
        agent: { id: input.callAgentId, prompt: UPSTREAM_MARKER },
        recordings: [{ url: `https://recordings.example/${UPSTREAM_MARKER}` }],
      });
      return json(200, { dialToken: `token-for-${id}`, sessionId: `session-${id}`, dialId: id });
    }
    if ((match = /^\/dials\/([^/]+)(\/token|\/hangup)?$/.exec(path))) {
      const dial = this.dials.get(decodeURIComponent(present(match[1])));
      if (!dial) return json(404, { error: { code: 'not_found', message: UPSTREAM_MARKER } });
      if (request.method === 'POST' && match[2] === '/token') return json(200, { dialToken: `token-for-${dial.id}` });
      if (request.method === 'POST' && match[2] === '/hangup') {
        Object.assign(dial, { status: 'canceled', systemResultType: 'CANCELLED' });
        return json(200, { success: true });
      }
      if (request.method === 'GET' && !match[2]) return json(200, dial);
    }
    return json(404, { error: { code: 'not_found', message: 'no route' } });
  };

  /** `browserDialToken` only, authorised by a dial token this service gave out (as the service answers: HTTP 200, `errors`). */
  #graphql(request: Request, body: unknown): Response {
    if ((body as { operationName?: unknown } | null)?.operationName === 'HangupCall')
      return this.#hangupCall(request, body);
    const dialId = /^Bearer token-for-(.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
    const dial = dialId ? this.dials.get(dialId) : undefined;
    if (!dial) return json(200, { errors: [{ message: 'unauthorized' }], data: null });
    if (this.graphqlErrors)
      return json(200, { errors: this.graphqlErrors.map((message) => ({ message })), data: null });
    const input = (body as { variables?: { input?: { dialSessionId?: string } } } | null)?.variables?.input;
    if (input?.dialSessionId !== `session-${dialId}`)
      return json(200, { errors: [{ message: 'dial session not found' }], data: null });
    return json(200, {
      data: {
        browserDialToken: {
          token: `media-token-for-${dialId}`,
          iceConfig: this.iceConfig,
          telephonyProvider: this.provider,
          url: this.tokenUrl ?? null,
        },
      },
    });
  }

  /** `hangupCall(dialId, transferNumber)` with the API key: the dial goes on, with a person. */
  #hangupCall(request: Request, body: unknown): Response {
    if (request.headers.get('authorization') !== `Bearer ${API_KEY}`)
      return json(200, { errors: [{ message: 'unauthorized' }], data: null });
    const variables = (body as { variables?: { dialId?: string; transferNumber?: unknown } }).variables ?? {};
    const dial = this.dials.get(variables.dialId ?? '');
    if (!dial) return json(200, { errors: [{ message: 'no such dial' }], data: null });
    if (this.transferErrors)
      return json(200, { errors: this.transferErrors.map((message) => ({ message })), data: null });
    this.transfers.push({ dialId: String(dial.id), transferNumber: variables.transferNumber });
    return json(200, { data: { hangupCall: true } });
  }

  /** Forgets the calls recorded so far (e.g. a create and the media credentials it fetched). */
  forget(): void {
    this.calls = [];
  }

  callsTo(method: string, pattern: RegExp): RecordedCall[] {
    return this.calls.filter((call) => call.method === method && pattern.test(call.path));
  }
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** Fails the test if an answer's headers or body contain the API key or the secret. */
export function guard(handler: CompanionHandler, secrets: string[] = [API_KEY, SECRET]): CompanionHandler {
  return async (request, context) => {
    const response = await handler(request, context);
    const text = await response.clone().text();
    const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
    for (const secret of secrets) {
      assert.ok(!text.includes(secret), `a response body carried a secret: ${text}`);
      assert.ok(!headers.includes(secret), 'a response header carried a secret');
    }
    return response;
  };
}

export interface TestCompanion {
  handler: CompanionHandler;
  service: FakeService;
  logs: CompanionLogEntry[];
  clock: { now: number };
}

export function makeCompanion(overrides: Partial<CompanionConfig> = {}): TestCompanion {
  const service = new FakeService();
  const logs: CompanionLogEntry[] = [];
  const clock = { now: Date.UTC(2026, 0, 1) };
  const handler = createCompanionHandler({
    apiKey: API_KEY,
    baseUrl: 'https://service.example/api',
    agents: { default: 'agent-default', sales: 'agent-sales' },
    secret: SECRET,
    allowedOrigins: [ORIGIN],
    allowedInputs: ['name', 'topic'],
    fetch: service.fetch,
    logger: (entry) => logs.push(entry),
    now: () => clock.now,
    upstreamTimeoutMs: 200,
    ...overrides,
  });
  return { handler: guard(handler), service, logs, clock };
}

export function post(path: string, body?: unknown, headers: Record<string, string> = {}): Request {
  const init: RequestInit = { method: 'POST', headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type'))
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  return new Request(BASE + path, init);
}

export function get(path: string, handle?: string, headers: Record<string, string> = {}): Request {
  return new Request(BASE + path, {
    headers: { ...(handle ? { authorization: `Bearer ${handle}` } : {}), ...headers },
  });
}

export const bearer = (handle: string) => ({ authorization: `Bearer ${handle}` });

export async function body(response: Response): Promise<Record<string, unknown>> {
  assert.equal(response.headers.get('cache-control'), 'no-store');
  return (await response.json()) as Record<string, unknown>;
}

export async function expectError(response: Response, status: number, code: string): Promise<void> {
  const answer = await body(response);
  assert.equal(response.status, status, `expected ${status} ${code}, got ${response.status} ${JSON.stringify(answer)}`);
  const error = answer.error as { code: string; message: string };
  assert.equal(error.code, code);
  assert.equal(typeof error.message, 'string');
}

/** Creates a dial through the handler and returns its id and handle. */
export async function createDial(
  handler: CompanionHandler,
  init: { body?: unknown; headers?: Record<string, string>; context?: CompanionRequestContext } = {},
) {
  const response = await handler(
    post('/dials', init.body ?? {}, init.headers),
    init.context ?? { clientAddress: '203.0.113.7' },
  );
  const answer = await body(response);
  assert.equal(response.status, 200, JSON.stringify(answer));
  return answer as { dialId: string; handle: string; expiresAt: string };
}

/** mulberry32: a small seeded PRNG, so the fuzzer's requests are the same on every run. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A companion whose service never answers POST /dials: the call fails only when the visitor's
 * signal aborts it, as the real client's does. `reached` settles once the call is made; every
 * log entry goes to `logs`, and `logged` settles on the first.
 */
export function companionWithHangingCreate(): {
  handler: CompanionHandler;
  logs: CompanionLogEntry[];
  reached: Promise<void>;
  logged: Promise<void>;
} {
  const logs: CompanionLogEntry[] = [];
  let onReached = () => {};
  let onLogged = () => {};
  const reached = new Promise<void>((resolve) => (onReached = resolve));
  const logged = new Promise<void>((resolve) => (onLogged = resolve));
  const never = () => Promise.reject(new Error('not used'));
  const handler = createCompanionHandler({
    apiKey: API_KEY,
    baseUrl: 'https://service.example/api',
    agentId: 'a',
    secret: SECRET,
    logger: (entry) => (logs.push(entry), onLogged()),
    serviceClient: {
      createDial: (_input, options) =>
        new Promise((_, reject) => {
          onReached();
          options?.signal?.addEventListener(
            'abort',
            () => reject(new ServiceError('aborted', 'POST /dials was aborted')),
            { once: true },
          );
        }),
      getDialToken: never,
      getDial: never,
      hangupDial: never,
      browserDialToken: never,
    },
  });
  return { handler, logs, reached, logged };
}

/** A companion handler on the fake service, listening on a free port (real TCP), with its log entries. */
export interface ListeningCompanion {
  companion: CompanionServer;
  port: number;
  service: FakeService;
  logs: CompanionLogEntry[];
  /** Resolves once `count` entries have been logged. */
  logged(count: number): Promise<void>;
}

export async function listenCompanion(
  config: Partial<CompanionConfig> = {},
  limits: NodeServerLimits = {},
): Promise<ListeningCompanion> {
  const service = new FakeService();
  const logs: CompanionLogEntry[] = [];
  const waiters = new Set<() => void>();
  const handler = createCompanionHandler({
    apiKey: API_KEY,
    baseUrl: 'https://service.example/api',
    agentId: 'agent-default',
    secret: SECRET,
    fetch: service.fetch,
    logger: (entry) => {
      logs.push(entry);
      for (const waiter of waiters) waiter();
    },
    ...config,
  });
  const companion = await listen(handler, { port: 0, ...limits });
  const logged = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (logs.length < count) return;
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
    });
  return { companion, port: (companion.server.address() as AddressInfo).port, service, logs, logged };
}
