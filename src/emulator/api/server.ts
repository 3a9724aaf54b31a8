// The REST half's HTTP server: auth, body limits, routing and JSON answers. The routes are the
// resource modules' (resources/), over the one store. `/query` (HTTP and WebSocket) goes to the
// GraphQL endpoint, which has its own auth (dial tokens as well as the API key).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError, badRequest, notFound } from './errors.js';
import { resourceRoutes, type ResourceRoute } from './resources/index.js';
import { BinaryAnswer } from './resources/route.js';
import { secretCheck } from '../../shared/secret.js';
import { closeLingeringAfterAnswer, readNodeBody } from '../../shared/capped-body.js';
import type { Store } from './store.js';

export interface ApiServerOptions {
  apiKey: string;
  store: Store;
  /** The GraphQL endpoint at `/query`, when the emulator serves one. */
  graphql?: {
    handleRequest(request: IncomingMessage, response: ServerResponse): void;
    handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  };
  /** Largest accepted request body. */
  maxBodyBytes: number;
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
}

type Handler = (context: Context) => Promise<unknown>;

/** Where the service serves GraphQL: the API origin's `/query`. */
export const GRAPHQL_PATH = '/query';

/** Voice clips are larger than JSON bodies. */
const MULTIPART_MAX_BYTES = 4 * 1024 * 1024;

interface Route {
  pattern: RegExp;
  methods: Record<string, Handler>;
}

/** A resource route as a server route: POST and PUT bodies are read as the route says, others drained. */
function serverRoute(route: ResourceRoute): Route {
  const methods: Record<string, Handler> = {};
  for (const [method, handler] of Object.entries(route.methods)) {
    methods[method] = async (context) => {
      const { request, params, url } = context;
      let body: unknown;
      if ((method !== 'POST' && method !== 'PUT') || route.bodyType === 'none')
        await discardBody(request, context.response, context.options.maxBodyBytes);
      else if (route.bodyType === 'multipart')
        body = await readForm(context, Math.max(context.options.maxBodyBytes, MULTIPART_MAX_BYTES));
      else body = await readJson(context, context.options.maxBodyBytes);
      return handler({
        params,
        param(index) {
          const value = params[index];
          if (value === undefined) throw new Error(`the route ${route.pattern.source} has no group ${index + 1}`);
          return value;
        },
        header(name) {
          const value = request.headers[name.toLowerCase()];
          return Array.isArray(value) ? value[0] : value;
        },
        path: url.pathname,
        query: url.searchParams,
        body,
      });
    };
  }
  return { pattern: route.pattern, methods };
}

/** Whether the API and the media room are up; answered without the API key. */
export const HEALTH_PATH = '/healthz';

export function createApiServer(options: ApiServerOptions): Server {
  const routes = resourceRoutes(options.store).map(serverRoute);
  const isApiKey = secretCheck(options.apiKey);
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
        const apiError = error instanceof ApiError ? error : new ApiError('internal_error', 'internal error');
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
    if (!(await authorized(request.headers.authorization))) {
      // Checked before any of the body is read; then at most a small body is drained, unkept.
      await discardBody(request, response, options.maxBodyBytes);
      throw new ApiError('unauthorized', 'missing or invalid API key (Authorization: Bearer <apiKey>)');
    }
    for (const route of routes) {
      const match = route.pattern.exec(url.pathname);
      if (!match) continue;
      const handler = route.methods[request.method ?? 'GET'];
      if (!handler) {
        await discardBody(request, response, options.maxBodyBytes);
        const allow = Object.keys(route.methods).join(', ');
        throw new ApiError('method_not_allowed', `${request.method} is not allowed here; use ${allow}`, {}, { allow });
      }
      const params = match.slice(1).map(decodePathPart);
      return handler({ request, response, url, params, options });
    }
    await discardBody(request, response, options.maxBodyBytes);
    throw notFound(`no route ${request.method} ${url.pathname}`);
  }

  async function authorized(header: string | undefined): Promise<boolean> {
    const key = /^Bearer (.+)$/i.exec(header ?? '')?.[1];
    return key !== undefined && (await isApiKey(key.trim()));
  }
}

function decodePathPart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw notFound('no such resource');
  }
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

/**
 * Throws a body away unread, reading at most `limit` bytes of it: a larger one (declared or sent)
 * is left unread and its connection closes after the answer.
 */
async function discardBody(request: IncomingMessage, response: ServerResponse, limit: number): Promise<void> {
  if (!(await readNodeBody(request, 0, limit).drained))
    response.setHeader('connection', closeLingeringAfterAnswer(request).connection);
}

/** Reads the body as JSON (undefined when empty); 413 past `maxBytes`, 400 when not JSON. */
async function readJson(context: Context, maxBytes: number): Promise<unknown> {
  const bytes = await readBytes(context, maxBytes);
  if (bytes.length === 0) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  } catch {
    throw badRequest('the body is not valid JSON');
  }
}

/** Reads a `multipart/form-data` body; 400 when it is anything else. */
async function readForm(context: Context, maxBytes: number): Promise<FormData> {
  const type = context.request.headers['content-type'] ?? '';
  if (!/^multipart\/form-data;/i.test(type)) {
    await discardBody(context.request, context.response, context.options.maxBodyBytes);
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
 * reads the 413 rather than a reset; a larger one (declared or sent) is read no further and its
 * connection closes after the answer.
 */
async function readBytes({ request, response }: Context, maxBytes: number): Promise<Uint8Array> {
  const read = readNodeBody(request, maxBytes);
  const [body, drained] = await Promise.all([read.body, read.drained]);
  if (!drained) response.setHeader('connection', closeLingeringAfterAnswer(request).connection);
  if (body === null) throw new ApiError('payload_too_large', `the body is larger than ${maxBytes} bytes`);
  return body;
}
