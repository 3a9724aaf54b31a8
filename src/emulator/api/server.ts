// The REST half's HTTP server: auth, body limits, routing and JSON answers. Route handlers are
// small; dial state lives in DialStore, parsing in dial-input.ts. `/query` (HTTP and WebSocket)
// goes to the GraphQL endpoint, which has its own auth (dial tokens as well as the API key).
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { signDialToken, type DialTokenKeys } from '../dial-token.js';
import { parseCreateDial, MAX_IDEMPOTENCY_KEY_LENGTH } from './dial-input.js';
import { isTerminal, type DialStore } from './dial-store.js';
import { ApiError, badRequest, notFound } from './errors.js';
import { IdempotencyCache, type IdempotencyMode } from './idempotency.js';
import type { CreateDialOutput, DialTokenOutput } from './records.js';
import { dialLookup, resourceRoutes, Workspace, type ResourceRoute } from './resources/index.js';
import { BinaryAnswer } from './resources/route.js';

export interface ApiServerOptions {
  apiKey: string;
  store: DialStore;
  /** Signs the service's dial tokens (not LiveKit tokens). */
  dialTokens: DialTokenKeys;
  /** The GraphQL endpoint at `/query`, when the emulator serves one. */
  graphql?: {
    handleRequest(request: IncomingMessage, response: ServerResponse): void;
    handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  };
  /** Largest accepted request body. */
  maxBodyBytes: number;
  /** How long the join window lasts, so a token outlives it. */
  joinWindowMs: number;
  /** How long an evaluation run stays PENDING. Default 200. */
  evalRunMs?: number;
  /** What a reused idempotency key gets: the first answer (`replay`, default) or always a 409 (`strict`). */
  idempotency?: IdempotencyMode;
  /** What `GET /healthz` (no key needed) answers: 200 while `ok`, else 503. */
  health?: () => { ok: boolean };
  log: (line: string) => void;
}

interface Context {
  request: IncomingMessage;
  response: ServerResponse;
  url: URL;
  params: string[];
  options: ApiServerOptions;
  idempotency: IdempotencyCache<CreateDialOutput>;
  workspace: Workspace;
}

type Handler = (context: Context) => Promise<unknown>;

/** Where the service serves GraphQL: the API origin's `/query`. */
export const GRAPHQL_PATH = '/query';

/** Voice clips are larger than JSON bodies. */
const MULTIPART_MAX_BYTES = 4 * 1024 * 1024;

/** Beyond this, a too-large body is not even drained: the connection is closed. */
const DRAIN_LIMIT_BYTES = 8 * 1024 * 1024;

interface Route {
  pattern: RegExp;
  methods: Record<string, Handler>;
}

const dialRoutes: Route[] = [
  { pattern: /^\/dials$/, methods: { POST: createDial } },
  { pattern: /^\/dials\/([^/]+)$/, methods: { GET: getDial } },
  { pattern: /^\/dials\/([^/]+)\/token$/, methods: { POST: dialToken } },
  { pattern: /^\/dials\/([^/]+)\/hangup$/, methods: { POST: hangupDial } },
];

/** A resource route as a server route: POST and PUT bodies are read as JSON, others drained. */
function serverRoute(route: ResourceRoute): Route {
  const methods: Record<string, Handler> = {};
  for (const [method, handler] of Object.entries(route.methods)) {
    methods[method] = async (context) => {
      let body: unknown;
      if (method !== 'POST' && method !== 'PUT') await discardBody(context.request);
      else if (route.bodyType === 'multipart')
        body = await readForm(context, Math.max(context.options.maxBodyBytes, MULTIPART_MAX_BYTES));
      else body = await readJson(context, context.options.maxBodyBytes);
      return handler({ params: context.params, path: context.url.pathname, query: context.url.searchParams, body });
    };
  }
  return { pattern: route.pattern, methods };
}

/** Whether the API and the media room are up; answered without the API key. */
export const HEALTH_PATH = '/healthz';

export function createApiServer(options: ApiServerOptions): Server {
  const idempotency = new IdempotencyCache<CreateDialOutput>(options.idempotency ?? 'replay');
  const workspace = new Workspace(options.store, (dialId) => issueToken(options, dialId), {
    evalRunMs: options.evalRunMs ?? 200,
  });
  const routes: Route[] = [...dialRoutes, ...resourceRoutes(workspace).map(serverRoute)];
  const expectedKey = digest(options.apiKey);
  const server = createServer((request, response) => {
    const started = performance.now();
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === GRAPHQL_PATH && options.graphql) return options.graphql.handleRequest(request, response);
    if (url.pathname === HEALTH_PATH && options.health && (request.method === 'GET' || request.method === 'HEAD')) {
      // No key: a supervisor or a CI step asks whether the emulator is up, not for any dial.
      const health = options.health();
      send(response, health.ok ? 200 : 503, health);
      return;
    }
    handle(request, response, url)
      .then((body) => send(response, 200, body))
      .catch((error: unknown) => {
        const apiError = error instanceof ApiError ? error : new ApiError(500, 'internal_error', 'internal error');
        if (!(error instanceof ApiError))
          options.log(`internal error on ${request.method} ${url.pathname}: ${String(error)}`);
        for (const [name, value] of Object.entries(apiError.headers)) response.setHeader(name, value);
        send(response, apiError.status, apiError.toBody());
      })
      .finally(() => {
        options.log(
          `${request.method} ${url.pathname} ${response.statusCode} ${(performance.now() - started).toFixed(1)}ms`,
        );
      });
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const { pathname } = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (pathname === GRAPHQL_PATH && options.graphql) return options.graphql.handleUpgrade(request, socket, head);
    socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  });
  return server;

  async function handle(request: IncomingMessage, response: ServerResponse, url: URL): Promise<unknown> {
    if (!authorized(request.headers.authorization)) {
      await discardBody(request);
      throw new ApiError(401, 'unauthorized', 'missing or invalid API key (Authorization: Bearer <apiKey>)');
    }
    for (const route of routes) {
      const match = route.pattern.exec(url.pathname);
      if (!match) continue;
      const handler = route.methods[request.method ?? 'GET'];
      if (!handler) {
        await discardBody(request);
        const allow = Object.keys(route.methods).join(', ');
        throw new ApiError(
          405,
          'method_not_allowed',
          `${request.method} is not allowed here; use ${allow}`,
          {},
          { allow },
        );
      }
      const params = match.slice(1).map(decodePathPart);
      return handler({ request, response, url, params, options, idempotency, workspace });
    }
    await discardBody(request);
    throw notFound(`no route ${request.method} ${url.pathname}`);
  }

  function authorized(header: string | undefined): boolean {
    const match = /^Bearer (.+)$/i.exec(header ?? '');
    // Comparing fixed-length digests keeps the time independent of where the keys differ.
    return match !== null && timingSafeEqual(digest(match[1]!.trim()), expectedKey);
  }
}

function decodePathPart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw notFound('no such resource');
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function send(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent) return;
  if (body instanceof BinaryAnswer) {
    response.writeHead(status, {
      'content-type': body.contentType,
      'content-length': body.bytes.byteLength,
      'cache-control': 'no-store',
    });
    response.end(body.bytes);
    return;
  }
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  response.end(text);
}

async function discardBody(request: IncomingMessage): Promise<void> {
  request.resume();
  if (request.readableEnded) return;
  await new Promise<void>((resolve) => {
    request.once('end', resolve);
    request.once('error', () => resolve());
    request.once('close', resolve);
  });
}

/** Reads the body as JSON (undefined when empty); 413 past `maxBytes`, 400 when not JSON. */
async function readJson(context: Context, maxBytes: number): Promise<unknown> {
  const bytes = await readBytes(context, maxBytes);
  if (bytes.length === 0) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    throw badRequest('the body is not valid JSON');
  }
}

/** Reads a `multipart/form-data` body; 400 when it is anything else. */
async function readForm(context: Context, maxBytes: number): Promise<FormData> {
  const type = context.request.headers['content-type'] ?? '';
  if (!/^multipart\/form-data;/i.test(type)) {
    await discardBody(context.request);
    throw badRequest('the body must be multipart/form-data');
  }
  const bytes = await readBytes(context, maxBytes);
  try {
    return await new Response(new Uint8Array(bytes), { headers: { 'content-type': type } }).formData();
  } catch {
    throw badRequest('the body is not valid multipart/form-data');
  }
}

/**
 * Reads the raw body; 413 past `maxBytes`. A body a little too large is drained so the client
 * reads the 413 rather than a reset; a huge one is not read at all and its connection closes
 * after the answer.
 */
async function readBytes({ request, response }: Context, maxBytes: number): Promise<Buffer> {
  const tooLarge = new ApiError(413, 'payload_too_large', `the body is larger than ${maxBytes} bytes`);
  if (Number(request.headers['content-length'] ?? 0) > DRAIN_LIMIT_BYTES) {
    response.setHeader('connection', 'close');
    throw tooLarge;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > DRAIN_LIMIT_BYTES) {
      response.setHeader('connection', 'close');
      throw tooLarge;
    }
    if (size <= maxBytes) chunks.push(chunk);
  }
  if (size > maxBytes) throw tooLarge;
  return Buffer.concat(chunks);
}

async function createDial(context: Context): Promise<CreateDialOutput> {
  const { request, options, idempotency, workspace } = context;
  const body = await readJson(context, options.maxBodyBytes);
  const parsed = parseCreateDial(body, dialLookup(workspace));
  const header = request.headers['idempotency-key'];
  const headerKey = typeof header === 'string' ? header : null;
  if (headerKey !== null && (headerKey === '' || headerKey.length > MAX_IDEMPOTENCY_KEY_LENGTH)) {
    throw badRequest(`Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
  }
  if (headerKey !== null && parsed.idempotencyKey !== null && headerKey !== parsed.idempotencyKey) {
    throw badRequest('the Idempotency-Key header and the idempotencyKey body field differ');
  }
  const key = headerKey ?? parsed.idempotencyKey;
  const create = () => {
    const { dialId, sessionId } = options.store.create(parsed.input);
    const answer = issueToken(options, dialId).then((dialToken) => ({ dialToken, sessionId, dialId }));
    return { dialId, sessionId, answer };
  };
  return key === null ? create().answer : idempotency.run(key, parsed.fingerprint, create);
}

async function getDial({ request, params, options }: Context) {
  await discardBody(request);
  const record = options.store.record(params[0]!);
  if (!record) throw notFound('no such dial');
  return record;
}

async function dialToken({ request, params, options }: Context): Promise<DialTokenOutput> {
  await discardBody(request);
  const dialId = params[0]!;
  const session = options.store.session(dialId);
  if (!session) throw notFound('no such dial');
  if (isTerminal(session.status)) {
    throw new ApiError(409, 'dial_ended', `the dial has already ended (${session.status})`, { status: session.status });
  }
  const token = await issueToken(options, dialId);
  options.store.tokenIssued(dialId);
  return { dialToken: token };
}

async function hangupDial({ request, params, options }: Context) {
  await discardBody(request);
  const dialId = params[0]!;
  if (!options.store.has(dialId)) throw notFound('no such dial');
  options.store.hangup(dialId);
  return { success: true };
}

/** The service's dial token for the dial and its session, valid for the join window plus the whole time cap. */
async function issueToken(options: ApiServerOptions, dialId: string): Promise<string> {
  const session = options.store.session(dialId);
  const sessionId = options.store.sessionIdOf(dialId);
  if (!session || sessionId === undefined) throw notFound('no such dial');
  return signDialToken(
    options.dialTokens,
    { dialId, sessionId },
    tokenTtlSeconds(options.joinWindowMs, session.maxDurationSeconds),
  );
}

/** How long a dial's tokens (dial and media) stay valid: the join window, the time cap and a minute. */
export function tokenTtlSeconds(joinWindowMs: number, maxDurationSeconds: number): number {
  return Math.ceil(joinWindowMs / 1000) + maxDurationSeconds + 60;
}
