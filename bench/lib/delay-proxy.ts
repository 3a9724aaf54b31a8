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
// server's last answer (a request, a WebSocket message the protocol answers: not an ICE candidate,
// `awaitsAnswer`) to the first server chunk after it, both as
// the browser sees them (wall-clock ms: the client's chunk when it reached the proxy, the server's
// when it left the proxy towards the browser).
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { SignalRequest } from '@livekit/protocol';

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
  // A chunk may carry several frames (a candidate and an offer sent together): the first one the
  // protocol answers names the turn, else the first.
  const frames: string[] = [];
  for (let at = 0; at < chunk.length;) {
    const frame = describeFrame(chunk, at);
    frames.push(frame.what);
    if (frame.next === null) break;
    at = frame.next;
  }
  return frames.find(awaitsAnswer) ?? frames[0] ?? 'WebSocket message';
}

/** The client's WebSocket frame at `at` in `chunk`: what it is, and where the next one starts (null: not in this chunk). */
function describeFrame(chunk: Buffer, at: number): { what: string; next: number | null } {
  if (chunk.length - at < 2) return { what: 'WebSocket message', next: null };
  const first = chunk[at] ?? 0;
  const second = chunk[at + 1] ?? 0;
  const opcode = first & 0x0f;
  let length = second & 0x7f;
  let offset = at + 2;
  if (length === 126) {
    length = chunk.length >= offset + 2 ? chunk.readUInt16BE(offset) : 0;
    offset += 2;
  } else if (length === 127) {
    length = chunk.length >= offset + 8 ? Number(chunk.readBigUInt64BE(offset)) : 0;
    offset += 8;
  }
  const masked = (second & 0x80) !== 0;
  const mask = masked ? chunk.subarray(offset, offset + 4) : null;
  if (masked) offset += 4;
  const end = offset + length;
  const next = end < chunk.length ? end : null;
  if (opcode === 0x8) return { what: 'WebSocket close', next };
  if (opcode === 0x9 || opcode === 0xa) return { what: 'WebSocket ping/pong', next };
  if (opcode !== 0x1 && opcode !== 0x2) return { what: 'WebSocket message (binary)', next };
  const payload = Buffer.from(chunk.subarray(offset, offset + Math.min(length, opcode === 0x2 ? 65536 : 4096)));
  if (mask) for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] ?? 0) ^ (mask[i % 4] ?? 0);
  if (opcode === 0x2) {
    const kind = signalRequestKind(payload, length);
    return { what: kind ? `WebSocket message: signal ${kind}` : 'WebSocket message (binary)', next };
  }
  const type = /"type"\s*:\s*"([^"]+)"/.exec(payload.toString('utf8'));
  return { what: type ? `WebSocket message: ${type[1]}` : 'WebSocket message (text)', next };
}

/**
 * A binary frame on the media server's signal socket is a LiveKit `SignalRequest`: its kind
 * (`offer`, `answer`, `trickle`, `addTrack`, `ping`, ...); null for a frame this chunk holds only
 * part of, or one that is not a `SignalRequest`.
 */
function signalRequestKind(payload: Buffer, length: number): string | null {
  if (payload.length < length) return null;
  try {
    return SignalRequest.fromBinary(payload).message.case ?? null;
  } catch {
    return null;
  }
}

/**
 * The client's messages that the protocol answers: on the signal socket an `offer` (its answer),
 * `addTrack` (`trackPublished`), `ping` and `pingReq` (their pongs) and `updateMetadata` (a
 * `requestResponse`); on graphql-transport-ws every message but `pong` and `complete`.
 */
const ANSWERED_SIGNAL_REQUESTS = new Set(['offer', 'addTrack', 'ping', 'pingReq', 'updateMetadata']);
const UNANSWERED_TEXT_MESSAGES = new Set(['pong', 'complete']);

/**
 * Whether a client turn named `what` (`describeClientChunk`) waits for an answer: a request, an
 * upgrade, a WebSocket message the protocol answers. A signal message that is not answered (e.g.
 * `trickle`, `answer`, `mute`), or a graphql-transport-ws `pong` or `complete`, is sent one way.
 */
export function awaitsAnswer(what: string): boolean {
  const message = /^WebSocket message: (signal )?(.+)$/.exec(what);
  if (!message) return true;
  return message[1] ? ANSWERED_SIGNAL_REQUESTS.has(message[2] ?? '') : !UNANSWERED_TEXT_MESSAGES.has(message[2] ?? '');
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
          // A request on a new connection goes out once the handshake is over. A message the
          // protocol does not answer (an ICE candidate, an answer to the server's offer) opens no
          // turn: the server's next message, whatever it is, is not waited for by it.
          const start = Math.max(wallClock(), accepted + 2 * delay);
          const what = describeClientChunk(chunk, upgraded);
          if (awaitsAnswer(what)) pending = { leg, start, end: Number.NaN, what };
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
