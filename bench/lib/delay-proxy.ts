// A small delaying TCP proxy: what a real network adds to each leg, on loopback (the kernel here has
// no netem). Every chunk waits `delayMs` each way, and a new connection waits one round trip before
// its first byte goes on (the TCP handshake), so a request on a fresh connection costs two round
// trips and one on an open connection one. Order within a connection is kept (timers of equal delay
// fire in order). `delayMs` may change between calls; a connection keeps the delay it opened with.
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface DelayProxy {
  /** `127.0.0.1:PORT` */
  host: string;
  delayMs: number;
  /** Connections accepted so far (each a handshake's round trip). */
  connections: number;
  close(): Promise<void>;
}

export function startDelayProxy(target: { host: string; port: number }, delayMs = 0): Promise<DelayProxy> {
  const sockets = new Set<Socket>();
  const proxy: DelayProxy = {
    host: '',
    delayMs,
    connections: 0,
    close: () => Promise.resolve(),
  };
  const server: Server = createServer((client) => {
    proxy.connections += 1;
    const delay = proxy.delayMs;
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
    const open = new Promise<void>((resolve) => later(resolve, 2 * delay));
    const pipe = (from: Socket, to: Socket, first: Promise<void> | null) => {
      from.on('data', (chunk) => {
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
    server.listen(0, '127.0.0.1', () => {
      proxy.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
      proxy.close = () =>
        new Promise((done) => {
          for (const socket of sockets) socket.destroy();
          server.close(() => done());
        });
      resolve(proxy);
    });
  });
}

/** `{ host, port }` of a URL (ws:, http:). */
export function targetOf(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port) };
}
