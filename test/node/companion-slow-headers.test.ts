// Issue 30, 1: slow headers from many addresses. Connections from 20 loopback addresses, each
// under the per-address cap, send one header line at a time and reconnect when closed, to keep the
// connection cap full; a visitor from another address must still be answered. Over real TCP on
// loopback (127.0.0.2 … 127.0.0.21 as source addresses), with a small cap so it takes seconds.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, test } from 'node:test';
import type { NodeServerLimits } from '../../src/server/node.js';
import { listenCompanion } from './companion-support.js';

/** The companion on a free port; the visitor makes hundreds of calls here: the rate limits are not what is tested. */
const start = (limits: NodeServerLimits) =>
  listenCompanion({ logger: false, rateLimit: { perAddress: 100_000, total: 100_000 } }, limits);

/** One visitor's request on a new connection: its status, or 0 when it was not answered within `timeoutMs`. */
function visit(port: number, timeoutMs: number): Promise<number> {
  return new Promise((resolve) => {
    const body = '{}';
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/voice-call/dials',
        agent: false,
        timeout: timeoutMs,
        headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

/** Slow-header connections from `addresses`, `perAddress` each, every one reconnecting when closed. */
function slowHeaderAttack(port: number, addresses: string[], perAddress: number): { stop(): void } {
  let attacking = true;
  const open = new Set<Socket>();
  const attack = (localAddress: string) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    open.add(socket);
    let trickle: ReturnType<typeof setInterval> | undefined;
    socket.on('error', () => {});
    socket.once('connect', () => {
      socket.write('POST /api/voice-call/dials HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      // One header line at a time: the headers are never complete.
      trickle = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 200);
    });
    socket.once('close', () => {
      clearInterval(trickle);
      open.delete(socket);
      // Back at once (paced a little, so the attack does not take the test machine's CPU).
      if (attacking) setTimeout(() => attacking && attack(localAddress), 20);
    });
  };
  for (const address of addresses) for (let index = 0; index < perAddress; index += 1) attack(address);
  return {
    stop() {
      attacking = false;
      for (const socket of open) socket.destroy();
    },
  };
}

const ATTACKERS = Array.from({ length: 20 }, (_, index) => `127.0.0.${index + 2}`);

describe('issue 30, 1: slow headers from many addresses', () => {
  test(
    'slow-header connections from 20 addresses keep the cap full; a visitor still gets >= 95% answered',
    { timeout: 30_000 },
    async (t) => {
      // 20 addresses x 6 = 120 connections wanted, over a cap of 60 (each address under its cap of 64).
      const { companion, port } = await start({
        maxConnections: 60,
        headersTimeoutMs: 2000,
        requestTimeoutMs: 3000,
      });
      const full = new Promise<void>((resolve) => {
        let seen = 0;
        companion.server.on('connection', () => ++seen === 60 && resolve());
      });
      const attack = slowHeaderAttack(port, ATTACKERS, 6);
      try {
        await full;
        let answered = 0;
        let asked = 0;
        const until = performance.now() + 4000;
        while (performance.now() < until) {
          asked += 1;
          if ((await visit(port, 2000)) === 200) answered += 1;
        }
        t.diagnostic(`the visitor: ${answered} of ${asked} requests answered 200 in 4 s under the attack`);
        assert.ok(answered / asked >= 0.95, `${answered} of ${asked} answered`);
      } finally {
        attack.stop();
        await companion.close();
      }
    },
  );
});
