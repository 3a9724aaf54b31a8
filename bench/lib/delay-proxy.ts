// A small delaying TCP proxy: what a real network adds to each leg, on loopback (the kernel here has
// no netem). Every chunk waits `delayMs` each way, and a new connection waits one round trip before
// its first byte goes on (the TCP handshake), so a request on a fresh connection costs two round
// trips and one on an open connection one. Order within a connection is kept (timers of equal delay
// fire in order). `delayMs` may change between calls; a browser's connection keeps the delay it
// opened with, a server's (`server`, below) takes the service's with each request.
//
// It also records every round trip the browser waits for on its leg (`exchanges`), so a benchmark
// can count the ones on a call's critical path instead of inferring them from times: a new
// connection (its handshake), and each turn on a connection, from a client chunk that follows the
// server's last answer (a request, a WebSocket message) to the first server chunk after it, both as
// the browser sees them (wall-clock ms: the client's chunk when it reached the proxy, the server's
// when it left the proxy towards the browser).
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** One round trip on a leg: its start and end as the browser sees them (epoch ms), and what it was. */
export interface Exchange {
  leg: string;
  start: number;
  end: number;
  /** e.g. `POST /api/voice-call/dials`, `WebSocket upgrade GET /rtc`, `new connection`, `WebSocket message: subscribe` */
  what: string;
}

export interface DelayProxy {
  /** `127.0.0.1:PORT` */
  host: string;
  delayMs: number;
  /** Connections accepted so far (each a handshake's round trip). */
  connections: number;
  /** Round trips recorded so far (kept while `recording`); clear it between calls. */
  exchanges: Exchange[];
  recording: boolean;
  close(): Promise<void>;
}

/** Epoch ms with sub-ms precision, on the same clock as a page's `performance.timeOrigin + performance.now()`. */
export const wallClock = (): number => performance.timeOrigin + performance.now();

/**
 * What a client chunk that opens a turn is: an HTTP request line (`GET /path`, the query left off),
 * a WebSocket upgrade, or a WebSocket frame (a text frame's JSON `type` where it has one, e.g. the
 * graphql-transport-ws `subscribe`).
 */
export function describeClientChunk(chunk: Buffer, upgraded: boolean): string {
  if (!upgraded) {
    // A signal WebSocket's request line carries the access token in its query: read past it.
    const head = chunk.toString('latin1', 0, 65536);
    const line = /^([A-Z]+) (\S+) HTTP\/1\.[01]\r\n/.exec(head);
    if (line) {
      const path =
        (line[2] ?? '')
          .split('?')[0]
          ?.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, ':id') ?? '';
      return /\r\nupgrade: *websocket/i.test(head) ? `WebSocket upgrade ${line[1]} ${path}` : `${line[1]} ${path}`;
    }
    return 'data';
  }
  if (chunk.length < 2) return 'WebSocket message';
  const first = chunk[0] ?? 0;
  const second = chunk[1] ?? 0;
  const opcode = first & 0x0f;
  if (opcode === 0x8) return 'WebSocket close';
  if (opcode === 0x9 || opcode === 0xa) return 'WebSocket ping/pong';
  if (opcode !== 0x1) return 'WebSocket message (binary)';
  let length = second & 0x7f;
  let offset = 2;
  if (length === 126) {
    length = chunk.length >= 4 ? chunk.readUInt16BE(2) : 0;
    offset = 4;
  } else if (length === 127) {
    length = chunk.length >= 10 ? Number(chunk.readBigUInt64BE(2)) : 0;
    offset = 10;
  }
  const masked = (second & 0x80) !== 0;
  const mask = masked ? chunk.subarray(offset, offset + 4) : null;
  if (masked) offset += 4;
  const payload = Buffer.from(chunk.subarray(offset, offset + Math.min(length, 4096)));
  if (mask) for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] ?? 0) ^ (mask[i % 4] ?? 0);
  const type = /"type"\s*:\s*"([^"]+)"/.exec(payload.toString('utf8'));
  return type ? `WebSocket message: ${type[1]}` : 'WebSocket message (text)';
}

/** A browser's request or WebSocket upgrade: its `User-Agent` is a browser's (`Mozilla/…`), not Node's. */
export function fromBrowser(chunk: Buffer): boolean {
  return /\r\nuser-agent: *Mozilla\//i.test(chunk.toString('latin1', 0, 65536));
}

/**
 * `leg`: what this proxy stands for, in the exchanges it records (e.g. "page server", "signal").
 * `server`: where a server's calls share the leg with the browser's (the companion's GraphQL calls
 * go to the URL it hands the browser), a connection whose first request `from` did not send goes
 * with `delayMs()` instead of the proxy's delay and is not recorded: it is not a browser round trip.
 */
export function startDelayProxy(
  target: { host: string; port: number },
  delayMs = 0,
  leg = '',
  server?: { from(chunk: Buffer): boolean; delayMs(): number },
): Promise<DelayProxy> {
  const sockets = new Set<Socket>();
  const proxy: DelayProxy = {
    host: '',
    delayMs,
    connections: 0,
    exchanges: [],
    recording: false,
    close: () => Promise.resolve(),
  };
  const listener: Server = createServer((client) => {
    proxy.connections += 1;
    let delay = proxy.delayMs;
    const accepted = wallClock();
    // A server's connection (`server`) is known by its first request: until then it is the browser's.
    let recorded = true;
    if (proxy.recording && !server)
      proxy.exchanges.push({ leg, start: accepted, end: accepted + 2 * delay, what: 'new connection' });
    const upstream = createConnection(target);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    const later = (run: () => void, ms: number) => (ms > 0 ? void setTimeout(run, ms) : run());
    // The handshake: the first byte leaves one round trip after the connection was asked for.
    const open = server
      ? new Promise<void>((resolve) =>
          client.once('data', (chunk: Buffer) => {
            if (server.from(chunk)) {
              if (proxy.recording)
                proxy.exchanges.push({ leg, start: accepted, end: accepted + 2 * delay, what: 'new connection' });
            } else {
              recorded = false;
              delay = server.delayMs();
            }
            later(resolve, Math.max(0, accepted + 2 * delay - wallClock()));
          }),
        )
      : new Promise<void>((resolve) => later(resolve, 2 * delay));
    // The turn waiting for the server's answer, if any; a connection is a WebSocket after a 101.
    let pending: Exchange | null = null;
    let upgraded = false;
    const pipe = (from: Socket, to: Socket, first: Promise<void> | null) => {
      from.on('data', (chunk: Buffer) => {
        // A server's connection (kept alive from one network setting to the next) takes the
        // service's delay as it is now with each request, which it sends only once the last answered.
        if (!recorded && first) delay = server?.delayMs() ?? delay;
        if (proxy.recording && recorded && first && !pending) {
          // A request on a new connection goes out once the handshake is over.
          const start = Math.max(wallClock(), accepted + 2 * delay);
          pending = { leg, start, end: Number.NaN, what: describeClientChunk(chunk, upgraded) };
        } else if (!first) {
          if (!upgraded && chunk.toString('latin1', 0, 12).startsWith('HTTP/1.1 101')) upgraded = true;
          if (pending) {
            // The browser sees the answer one delay after it leaves the server.
            pending.end = wallClock() + delay;
            if (proxy.recording && recorded) proxy.exchanges.push(pending);
            pending = null;
          }
        }
        const send = () => later(() => to.destroyed || to.write(chunk), delay);
        if (first) void first.then(send);
        else send();
      });
      from.once('end', () => later(() => to.end(), delay + (first ? 2 * delay : 0)));
    };
    pipe(client, upstream, open);
    pipe(upstream, client, null);
  });
  return new Promise((resolve) => {
    listener.listen(0, '127.0.0.1', () => {
      proxy.host = `127.0.0.1:${(listener.address() as AddressInfo).port}`;
      proxy.close = () =>
        new Promise((done) => {
          for (const socket of sockets) socket.destroy();
          listener.close(() => done());
        });
      resolve(proxy);
    });
  });
}

/**
 * The round trips on a call's critical path, from `from` to `to` (epoch ms), as a chain where each
 * one started after the previous one ended: walking back from `to`, the round trip that ended last
 * before it (what the step after it waited for), then the one that ended last before that one
 * started, and so on back to `from`. In order, first to last.
 */
export function criticalPath(exchanges: readonly Exchange[], from: number, to: number): Exchange[] {
  const chain: Exchange[] = [];
  let until = to;
  for (;;) {
    let last: Exchange | null = null;
    for (const exchange of exchanges) {
      if (exchange.start < from || exchange.end > until || exchange.end <= exchange.start) continue;
      if (!last || exchange.end > last.end) last = exchange;
    }
    if (!last) return chain.reverse();
    chain.push(last);
    until = last.start;
  }
}

/** `{ host, port }` of a URL (ws:, http:). */
export function targetOf(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port) };
}
