// The Node `http` adapter. For a handler made by `createCompanionHandler` it hands the handler's
// core the few fields it reads (exchange.ts) straight from the IncomingMessage and writes its
// answer to the ServerResponse: no Web Request or Response per request. Any other handler gets a
// Web `Request` (body capped) and its `Response` is written back. Thin on purpose: every decision
// lives in the handler. `node:http` is imported only inside `listen`, so importing
// `voice-agent-call/server` stays free of Node built-ins (Workers, Deno).
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { addressKey } from './checks.js';
import { HttpError, errorAnswer, type CompanionErrorCode } from './errors.js';
import type { CompanionAnswer, CompanionRequest } from './exchange.js';
import { traitsOf } from './handler.js';
import type { CompanionHandler, CompanionMetrics, HandlerTraits } from './handler.js';
import { consoleLogger } from './log.js';
import type { CompanionLogEntry, CompanionLogger } from './log.js';
import { closeLingeringAfterAnswer, lingerClose, readNodeBody } from '../shared/capped-body.js';

export interface NodeListenerOptions {
  /** Bodies above this are refused with 413 before the handler runs. Default 16 KiB. */
  maxBodyBytes?: number;
  /**
   * Where the adapter logs what never reaches the handler (methods fetch cannot carry, visitors
   * leaving while their body is read). Default: the handler's own logger.
   */
  logger?: CompanionLogger | false;
}

/** How long a connection may take, and how many there may be: slow or piled-up clients cannot hold the server. */
export interface NodeServerLimits {
  /** Time to receive a request's headers, default 10 000 ms (Node's own: 60 s, checked every 30 s). */
  headersTimeoutMs?: number;
  /** Time to receive a whole request, body included, default 30 000 ms (Node's own: 300 s). ≥ headersTimeoutMs. */
  requestTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open, default 5 000 ms. */
  keepAliveTimeoutMs?: number;
  /**
   * Open connections at most, default 1 000. Near it, a new connection is taken and the oldest
   * connection that has no request under way (its headers not yet complete, or idle between
   * keep-alive requests) is closed to make room, so slow headers cannot keep a visitor out; only
   * when every connection holds a request under way are new ones closed at once.
   */
  maxConnections?: number;
  /**
   * Open connections per client address (IPv6 by /64) at most, default 64; 0 turns it off. Off by
   * default when the handler has `trustProxy`: every connection then comes from the proxy.
   */
  maxConnectionsPerAddress?: number;
}

/** Connection-level headers: they describe this hop, not the request. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
]);

/** Methods a fetch `Request` cannot carry: answered here, since the handler cannot see them. */
const UNREPRESENTABLE_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** A Node request listener for the handler; `metrics` is the handler's (for a host's own `/metrics`). */
export type CompanionListener = RequestListener & { readonly metrics?: CompanionMetrics };

export function createNodeListener(handler: CompanionHandler, options: NodeListenerOptions = {}): CompanionListener {
  const maxBodyBytes = options.maxBodyBytes ?? 16 * 1024;
  const traits = traitsOf(handler);
  const logger = options.logger === false ? () => {} : (options.logger ?? traits?.log ?? consoleLogger);
  const log = (entry: CompanionLogEntry) => {
    try {
      logger(entry);
    } catch {
      // A broken logger must not break the answer.
    }
  };
  const listener: RequestListener = (req, res) => {
    const started = Date.now();
    void serve(handler, traits, req, res, maxBodyBytes, started, log).catch((error: unknown) => {
      log(
        adapterEntry(
          req,
          started,
          'error',
          500,
          'internal_error',
          `the Node adapter failed: ${error instanceof Error ? error.name : 'unknown error'}`,
        ),
      );
      if (!res.headersSent)
        res.writeHead(500, { 'cache-control': 'no-store', 'content-type': 'application/json; charset=utf-8' });
      res.end(
        JSON.stringify({ error: { code: 'internal_error', message: 'the companion failed to handle the request' } }),
      );
    });
  };
  return Object.assign(listener, handler.metrics ? { metrics: handler.metrics } : {});
}

/** A log line about a request the adapter answered (or dropped) itself. */
function adapterEntry(
  req: IncomingMessage,
  started: number,
  level: CompanionLogEntry['level'],
  status: number,
  code: CompanionErrorCode,
  reason: string,
): CompanionLogEntry {
  return {
    time: new Date(started).toISOString(),
    level,
    route: '-',
    method: req.method ?? '-',
    status,
    durationMs: Date.now() - started,
    code,
    reason,
  };
}

const SAFE_HOST = /^[A-Za-z0-9.:[\]-]+$/;
/**
 * What stands for a Host header URL cannot take (`rebind_x.attacker.example`, a `/`): a name under
 * `.invalid` (RFC 6761), never served over http, so the Host allow-list refuses it. Reading it as
 * `localhost` made such a request same-origin with a loopback page.
 */
const UNPARSABLE_HOST = 'unparsable-host.invalid';
/**
 * A path `URL` keeps as it is: only characters it never encodes or rewrites (no `%`, `\`, `?` or
 * `#`), not starting with `//` (a scheme-relative URL), and no `.` or `..` segment (checked apart).
 */
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

/** The Host header as URL would take it: `localhost` when there is none (HTTP/1.0), UNPARSABLE_HOST when unsafe. */
function hostHeaderOf(req: IncomingMessage): string {
  const host = req.headers.host;
  if (host === undefined || host === '') return 'localhost';
  return SAFE_HOST.test(host) ? host : UNPARSABLE_HOST;
}

/** Where a request was sent: `new URL(req.url, "http://" + Host)`, the path `/` when that fails. */
function urlOf(req: IncomingMessage): URL {
  const host = normalizedHost(hostHeaderOf(req)) ?? UNPARSABLE_HOST;
  try {
    return new URL(req.url ?? '/', `http://${host}`);
  } catch {
    return new URL(`http://${host}/`);
  }
}

/** Host header → `url.host`, null when URL refuses it; bounded (a full map is emptied). */
const hosts = new Map<string, string | null>();

function normalizedHost(host: string): string | null {
  let known = hosts.get(host);
  if (known === undefined) {
    try {
      known = new URL(`http://${host}/`).host;
    } catch {
      known = null;
    }
    if (hosts.size >= 256) hosts.clear();
    hosts.set(host, known);
  }
  return known;
}

/** What `urlOf` gives for path, host and scheme, without parsing a URL for the common request (a plain path). */
export function targetOf(req: IncomingMessage): { pathname: string; host: string; protocol: string } {
  const path = req.url ?? '/';
  if (PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path)) {
    const host = normalizedHost(hostHeaderOf(req)) ?? UNPARSABLE_HOST;
    return { pathname: path, host, protocol: 'http:' };
  }
  const url = urlOf(req);
  return { pathname: url.pathname, host: url.host, protocol: url.protocol };
}

const NO_BODY = new Uint8Array(0);

/** The handler core's view of a Node request whose body (if any) has been read. */
class NodeRequest implements CompanionRequest {
  readonly method: string;
  readonly pathname: string;
  readonly host: string;
  readonly protocol: string;
  readonly signal: AbortSignal;
  readonly #headers: IncomingMessage['headers'];
  readonly #body: Uint8Array | null;

  constructor(req: IncomingMessage, method: string, body: Uint8Array | null, signal: AbortSignal) {
    const target = targetOf(req);
    this.method = method;
    this.pathname = target.pathname;
    this.host = target.host;
    this.protocol = target.protocol;
    this.signal = signal;
    this.#headers = req.headers;
    this.#body = body;
  }

  header(name: string): string | null {
    // As in the Web Request the other path builds: connection-level headers are not the handler's.
    if (HOP_BY_HOP.has(name)) return null;
    const value = this.#headers[name];
    return value === undefined ? null : typeof value === 'string' ? value : value.join(', ');
  }

  readBody(maxBytes: number): Promise<Uint8Array | null> {
    const body = this.#body;
    return Promise.resolve(body === null ? NO_BODY : body.length > maxBytes ? null : body);
  }
}

/** Each HTTP/1 connection's AbortController, aborted when the connection closes. */
const connectionAborters = new WeakMap<Socket, AbortController>();

/**
 * A signal that fires when the client goes away before its answer is sent. Over HTTP/1 an answer
 * ends either sent or with its connection, so when the handler allows it (`signalPerConnection`)
 * the requests of one connection share one signal that fires when the connection closes: an
 * AbortController per request was a twentieth of a read's CPU. Otherwise (HTTP/2 streams share a
 * connection) one per request, fired when its answer closes unsent.
 */
function clientSignal(req: IncomingMessage, res: ServerResponse, perConnection: boolean): AbortSignal {
  const socket = req.socket as Socket | null | undefined;
  if (perConnection && req.httpVersionMajor === 1 && socket && !socket.destroyed) {
    let aborter = connectionAborters.get(socket);
    if (aborter === undefined) {
      const created = new AbortController();
      aborter = created;
      connectionAborters.set(socket, created);
      socket.once('close', () => created.abort());
    }
    return aborter.signal;
  }
  const aborter = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) aborter.abort();
  });
  return aborter.signal;
}

async function serve(
  handler: CompanionHandler,
  traits: HandlerTraits | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  maxBodyBytes: number,
  started: number,
  log: (entry: CompanionLogEntry) => void,
): Promise<void> {
  const method = req.method ?? 'GET';
  if (UNREPRESENTABLE_METHODS.has(method)) {
    log(adapterEntry(req, started, 'info', 405, 'method_not_allowed', `${method} is never served`));
    writeAnswer(
      res,
      errorAnswer(
        new HttpError('method_not_allowed', 'use GET, POST or OPTIONS', { headers: { allow: 'GET, POST, OPTIONS' } }),
      ),
      true,
    );
    return;
  }
  let body: Uint8Array | null = null;
  if (method !== 'GET' && method !== 'HEAD') {
    // Past the limit the 413 goes out at once; the rest is read and dropped meanwhile (a client
    // sending a chunked body reads it and stops), so the connection is not reset under the answer.
    const read = readNodeBody(req, maxBodyBytes);
    try {
      body = await read.body;
    } catch (error) {
      // The visitor went away (or the request timeout cut a slow body) before it was all sent.
      if (!req.socket.destroyed && !req.destroyed) throw error;
      log(
        adapterEntry(
          req,
          started,
          'info',
          499,
          'client_closed',
          'the connection closed while the request body was read',
        ),
      );
      return;
    }
    if (body === null) {
      // Declared too large: not read at all, so the connection closes after the answer. Streamed
      // past the limit: the rest is being drained, and the connection may be reused; past the
      // drain bound too, the connection is closed. Either close lingers, so a client still sending
      // reads the 413 rather than a reset.
      if (!read.unread) void read.drained.then((drained) => drained || lingerClose(req));
      writeAnswer(
        res,
        errorAnswer(new HttpError('payload_too_large', `the request body exceeds ${maxBodyBytes} bytes`)),
        read.unread,
      );
      return;
    }
  }
  const clientAddress = req.socket.remoteAddress;
  const context = clientAddress ? { clientAddress } : {};
  if (traits) {
    writeAnswer(
      res,
      await traits.serve(
        new NodeRequest(req, method, body, clientSignal(req, res, traits.signalPerConnection)),
        context,
      ),
      false,
    );
    return;
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':') || HOP_BY_HOP.has(name)) continue;
    try {
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
    } catch {
      // A header value fetch's Headers refuses: drop it, the handler answers without it.
    }
  }
  const request = new Request(urlOf(req), {
    method,
    headers,
    body: body && body.length > 0 ? new Uint8Array(body) : null,
    signal: clientSignal(req, res, false),
  });
  await send(res, await handler(request, context));
}

/**
 * Writes an answer in one go: a string body goes out in the same write as the head. `closeAfter`
 * (a body left unread): the connection then closes, lingering, so a client still sending reads it.
 */
function writeAnswer(res: ServerResponse, answer: CompanionAnswer, closeAfter: boolean): void {
  const headers: Record<string, string> = closeAfter
    ? { ...answer.headers, ...closeLingeringAfterAnswer(res.req) }
    : answer.headers;
  if (answer.body !== null) headers['content-length'] = String(Buffer.byteLength(answer.body));
  res.writeHead(answer.status, headers);
  if (answer.body !== null) res.end(answer.body);
  else res.end();
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
  if (body) headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body);
}

export interface CompanionServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * Starts an HTTP server for `handler` on `host` (default 127.0.0.1) and `port` (0 = any free port),
 * with the timeouts and connection caps of `NodeServerLimits`.
 */
export async function listen(
  handler: CompanionHandler,
  options: NodeListenerOptions & NodeServerLimits & { port?: number; host?: string } = {},
): Promise<CompanionServer> {
  const host = options.host ?? '127.0.0.1';
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  const keepAliveTimeout = options.keepAliveTimeoutMs ?? 5_000;
  const maxConnections = options.maxConnections ?? 1000;
  const perAddress = options.maxConnectionsPerAddress ?? (traitsOf(handler)?.trustProxy ? 0 : 64);
  for (const [name, value] of Object.entries({ headersTimeout, requestTimeout, keepAliveTimeout, maxConnections })) {
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`listen: ${name} must be a whole number ≥ 1`);
  }
  if (!Number.isInteger(perAddress) || perAddress < 0)
    throw new RangeError('listen: maxConnectionsPerAddress must be a whole number ≥ 0');
  if (headersTimeout > requestTimeout)
    throw new RangeError('listen: headersTimeoutMs must not exceed requestTimeoutMs');
  const { createServer } = await import('node:http');
  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      // Node checks both timeouts on this interval (default 30 s, which would stretch a 10 s timeout to 40 s).
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersTimeout / 4))),
    },
    createNodeListener(handler, options),
  );
  server.keepAliveTimeout = keepAliveTimeout;
  server.maxConnections = maxConnections;
  manageConnections(server, maxConnections, perAddress);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The connection caps. Per address (IPv6 by /64, 0: off): a new connection from an address that
 * already holds `perAddress` open ones is closed at once. In all: Node closes a new connection at
 * once when `maxConnections` are open, so one before that, each new connection makes room by
 * closing the oldest connection with no request under way: one whose headers are not complete
 * yet, or one idle between keep-alive requests (nginx frees its idle keep-alive connections this
 * way). A visitor who sends a whole request promptly is always admitted; a connection that sends
 * its headers slowly, from however many addresses, gives way. Only connections that each hold a
 * request under way fill the cap.
 */
function manageConnections(server: Server, maxConnections: number, perAddress: number): void {
  const perKey = new Map<string, number>();
  /** Every open connection, oldest (or longest idle) first, with its requests under way. */
  const open = new Map<Socket, { busy: number }>();
  server.on('connection', (socket: Socket) => {
    if (perAddress > 0) {
      const key = addressKey(socket.remoteAddress ?? 'unknown');
      const count = perKey.get(key) ?? 0;
      if (count >= perAddress) {
        socket.destroy();
        return;
      }
      perKey.set(key, count + 1);
      socket.once('close', () => {
        const left = (perKey.get(key) ?? 1) - 1;
        if (left === 0) perKey.delete(key);
        else perKey.set(key, left);
      });
    }
    open.set(socket, { busy: 0 });
    socket.once('close', () => open.delete(socket));
    if (open.size >= maxConnections) {
      for (const [candidate, state] of open) {
        if (state.busy > 0 || candidate === socket) continue;
        candidate.destroy();
        open.delete(candidate);
        break;
      }
    }
  });
  // Headers complete: the connection has a request under way until its answer is sent.
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket as Socket;
    const state = open.get(socket);
    if (!state) return;
    state.busy += 1;
    res.once('close', () => {
      state.busy -= 1;
      // Idle again (keep-alive): the newest idle one, so the last to give way.
      if (state.busy === 0 && open.delete(socket) && !socket.destroyed) open.set(socket, state);
    });
  });
}

// ---- how both bins stop (voice-agent-companion, and voice-agent-emulator's cli.ts) ----
// On SIGTERM or SIGINT, and, when a package manager started them (`npx`, `npm exec`, `npm run`),
// also when they are orphaned: npm hands a SIGTERM to the `sh -c` it runs a bin in, and that
// shell dies without passing it on, so the bin never hears it and lived on, re-parented to PID 1
// with its children. Its parent going is what it can notice.

/** How often an orphaned bin is looked for; a stop is noticed within this. */
const PARENT_CHECK_MS = 250;

export interface StopOptions {
  /** After this long, a stop that has not finished exits anyway (code 1). Default 4 000. */
  graceMs?: number;
  /** The environment that tells whether a package manager started this process. Default `process.env`. */
  env?: Record<string, string | undefined>;
}

/** Whether npm (or a package manager that sets npm's variables: pnpm, yarn) runs this process. */
export function startedByPackageManager(env: Record<string, string | undefined>): boolean {
  return env.npm_command !== undefined || env.npm_lifecycle_event !== undefined || env.npm_execpath !== undefined;
}

/**
 * Calls `stop` once, with why (`SIGTERM`, `SIGINT`, `parent exited`), then exits: 0 when it
 * resolved, 1 when it failed or took longer than `graceMs`. A second signal exits at once.
 */
export function stopWhenAsked(stop: (why: string) => Promise<void>, options: StopOptions = {}): void {
  const graceMs = options.graceMs ?? 4000;
  let stopping = false;
  const parent = process.ppid;
  const watch = startedByPackageManager(options.env ?? process.env)
    ? setInterval(() => {
        if (process.ppid !== parent) begin('parent exited');
      }, PARENT_CHECK_MS).unref()
    : undefined;
  function begin(why: string): void {
    if (stopping) process.exit(1);
    stopping = true;
    clearInterval(watch);
    setTimeout(() => process.exit(1), graceMs).unref();
    stop(why).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  }
  process.on('SIGINT', () => begin('SIGINT'));
  process.on('SIGTERM', () => begin('SIGTERM'));
}
