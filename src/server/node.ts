// The Node `http` adapter: IncomingMessage -> Request (body capped), Response -> ServerResponse.
// Thin on purpose: every decision lives in the handler. `node:http` is imported only inside
// `listen`, so importing `voice-agent-call/server` stays free of Node built-ins (Workers, Deno).
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpError, JSON_TEXT, errorResponse } from './errors.js';
import type { CompanionHandler } from './handler.js';

export interface NodeListenerOptions {
  /** Bodies above this are refused with 413 before the handler runs. Default 16 KiB. */
  maxBodyBytes?: number;
}

/** Connection-level headers: they describe this hop, not the request. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer']);

/** Bodies this far over the limit are not drained to answer politely: the connection is closed. */
const DRAIN_LIMIT_BYTES = 1024 * 1024;

export function createNodeListener(handler: CompanionHandler, options: NodeListenerOptions = {}): RequestListener {
  const maxBodyBytes = options.maxBodyBytes ?? 16 * 1024;
  return (req, res) => {
    void serve(handler, req, res, maxBodyBytes).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'cache-control': 'no-store', 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error: { code: 'internal_error', message: 'the companion failed to handle the request' } }));
    });
  };
}

/** Reads the body up to `limit` bytes; `null` when it is larger (the rest is drained or the socket closed). */
async function readCapped(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit + DRAIN_LIMIT_BYTES) {
      req.destroy();
      return null;
    }
    if (size <= limit) chunks.push(chunk);
  }
  return size > limit ? null : Buffer.concat(chunks);
}

async function serve(handler: CompanionHandler, req: IncomingMessage, res: ServerResponse, maxBodyBytes: number): Promise<void> {
  const method = req.method ?? 'GET';
  const host = req.headers.host && /^[A-Za-z0-9.:[\]-]+$/.test(req.headers.host) ? req.headers.host : 'localhost';
  let url: URL;
  try {
    url = new URL(req.url ?? '/', `http://${host}`);
  } catch {
    url = new URL('http://localhost/');
  }
  const declared = Number(req.headers['content-length']);
  let body: Buffer | null = null;
  if (method !== 'GET' && method !== 'HEAD') {
    body = Number.isFinite(declared) && declared > maxBodyBytes + DRAIN_LIMIT_BYTES ? null : await readCapped(req, maxBodyBytes);
    if (body === null) {
      await send(res, errorResponse(new HttpError('payload_too_large', `the request body exceeds ${maxBodyBytes} bytes`)), true);
      return;
    }
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
  const aborter = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) aborter.abort();
  });
  const request = new Request(url, {
    method,
    headers,
    body: body && body.length > 0 ? new Uint8Array(body) : null,
    signal: aborter.signal,
  });
  const clientAddress = req.socket.remoteAddress;
  await send(res, await handler(request, clientAddress ? { clientAddress } : {}), false);
}

async function send(res: ServerResponse, response: Response, closeAfter: boolean): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (closeAfter) headers.connection = 'close';
  const text = JSON_TEXT.get(response);
  const body = text !== undefined ? Buffer.from(text) : response.body ? Buffer.from(await response.arrayBuffer()) : null;
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

/** Starts an HTTP server for `handler` on `host` (default 127.0.0.1) and `port` (0 = any free port). */
export async function listen(handler: CompanionHandler, options: NodeListenerOptions & { port?: number; host?: string } = {}): Promise<CompanionServer> {
  const host = options.host ?? '127.0.0.1';
  const { createServer } = await import('node:http');
  const server = createServer(createNodeListener(handler, options));
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
