// The socket-level findings of issue 15 over real TCP on loopback: slow and piled-up connections,
// methods fetch cannot carry, Host headers, a huge answer from the service, a visitor leaving.
// Counts and timeouts are small, so every test finishes in seconds.
import assert from 'node:assert/strict';
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { describe, test } from 'node:test';
import { createHandleSigner } from '../../src/server/handles.js';
import { createCompanionHandler } from '../../src/server/handler.js';
import type { CompanionLogEntry } from '../../src/server/log.js';
import { listen } from '../../src/server/node.js';
import { readCappedBody } from '../../src/api/body.js';
import { API_KEY, companionWithHangingCreate, listenCompanion, present, SECRET } from './companion-support.js';

/** A raw TCP client: what it received, and a promise that settles when the server closed it. */
function rawClient(
  port: number,
  localAddress = '127.0.0.1',
): { socket: Socket; connected: Promise<void>; closed: Promise<string> } {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  let data = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (data += chunk));
  socket.on('error', () => {});
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(data)));
  return { socket, connected, closed };
}

/** Resolves once `server` has accepted `count` more connections. */
function accepted(server: Server, count: number): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const onConnection = () => {
      if (++seen === count) {
        server.off('connection', onConnection);
        resolve();
      }
    };
    server.on('connection', onConnection);
  });
}

/** An HTTP request with headers fetch would not let us set (Host). */
function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          ...headers,
          ...(body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            json: text ? (JSON.parse(text) as Record<string, unknown>) : {},
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const SLOW_HEADERS = 'POST /api/voice-call/dials HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ';

describe('2. slow connections', () => {
  test(
    'a headers timeout and a connection cap: slow clients are cut off and the endpoint serves again',
    { timeout: 30_000 },
    async (t) => {
      const { companion, port } = await listenCompanion(
        {},
        { headersTimeoutMs: 1500, requestTimeoutMs: 2000, maxConnections: 20, maxConnectionsPerAddress: 0 },
      );
      try {
        const allIn = accepted(companion.server, 10);
        const slow = Array.from({ length: 10 }, () => rawClient(port));
        await Promise.all(slow.map(async (client) => (await client.connected, client.socket.write(SLOW_HEADERS))));
        await allIn;
        const started = performance.now();
        // Every slow client is answered 408 and closed at the headers timeout (Node's default: 60 s + up to 30 s).
        for (const answer of await Promise.all(slow.map((client) => client.closed)))
          assert.match(answer, /^HTTP\/1\.1 408/);
        t.diagnostic(
          `10 slow clients closed ${Math.round(performance.now() - started)} ms after the 10th was accepted (headersTimeout 1500 ms)`,
        );

        // The cap holds the file descriptors: 20 connections each with a request under way (headers
        // sent, the body never), and the 21st is closed at once, unread. (19 first: the 20th would
        // close one of them if its headers had not arrived yet.)
        const requested = (count: number) =>
          new Promise<void>((resolve) => {
            let seen = 0;
            const onRequest = () => {
              if (++seen < count) return;
              companion.server.off('request', onRequest);
              resolve();
            };
            companion.server.on('request', onRequest);
          });
        const openRequests = async (count: number) => {
          const all = requested(count);
          const clients = Array.from({ length: count }, () => rawClient(port));
          for (const client of clients)
            void client.connected.then(() =>
              client.socket.write(
                'POST /api/voice-call/dials HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n',
              ),
            );
          await all;
          return clients;
        };
        const busy = [...(await openRequests(19)), ...(await openRequests(1))];
        const dropped = new Promise<void>((resolve) => companion.server.once('drop', () => resolve()));
        const extra = rawClient(port);
        await dropped;
        assert.equal(await extra.closed, '');
        for (const answer of await Promise.all(busy.map((client) => client.closed)))
          assert.match(answer, /^HTTP\/1\.1 408/, 'cut off at the request timeout');
        const normal = await fetch(`http://127.0.0.1:${port}/api/voice-call/dials`, { method: 'POST' });
        assert.equal(normal.status, 200);
      } finally {
        await companion.close();
      }
    },
  );

  test(
    'near the cap, a connection without complete headers gives way to a new one (issue 30, 1)',
    { timeout: 20_000 },
    async () => {
      const { companion, port } = await listenCompanion(
        {},
        { headersTimeoutMs: 10_000, maxConnections: 20, maxConnectionsPerAddress: 0 },
      );
      try {
        const allIn = accepted(companion.server, 19);
        const slow = Array.from({ length: 19 }, () => rawClient(port));
        await Promise.all(slow.map(async (client) => (await client.connected, client.socket.write(SLOW_HEADERS))));
        await allIn;
        // The 20th connection (a visitor) is taken; the oldest slow one is closed, unanswered, to make room.
        const normal = await fetch(`http://127.0.0.1:${port}/api/voice-call/dials`, { method: 'POST' });
        assert.equal(normal.status, 200);
        assert.equal(await present(slow[0]).closed, '', 'the oldest slow connection gave way');
        for (const client of slow) client.socket.destroy();
      } finally {
        await companion.close();
      }
    },
  );

  test('a trickling body is cut off at the request timeout', { timeout: 20_000 }, async () => {
    const { companion, port } = await listenCompanion({}, { headersTimeoutMs: 500, requestTimeoutMs: 1000 });
    try {
      const client = rawClient(port);
      await client.connected;
      client.socket.write(
        'POST /api/voice-call/dials HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n',
      );
      // One byte every 100 ms: the body would take 100 s; Node's default lets it run 300 s.
      const trickle = setInterval(() => client.socket.writable && client.socket.write(' '), 100);
      try {
        assert.match(await client.closed, /^HTTP\/1\.1 408/);
      } finally {
        clearInterval(trickle);
      }
    } finally {
      await companion.close();
    }
  });

  test(
    'one address cannot take every connection: per-address cap, other addresses still served',
    { timeout: 20_000 },
    async () => {
      const { companion, port } = await listenCompanion(
        {},
        { maxConnections: 100, maxConnectionsPerAddress: 5, headersTimeoutMs: 10_000 },
      );
      try {
        const allIn = accepted(companion.server, 5);
        const hogs = Array.from({ length: 5 }, () => rawClient(port, '127.0.0.2'));
        await Promise.all(hogs.map(async (client) => (await client.connected, client.socket.write(SLOW_HEADERS))));
        await allIn;
        const sixth = rawClient(port, '127.0.0.2');
        assert.equal(await sixth.closed, '', 'the sixth connection from 127.0.0.2 is closed unanswered');
        const normal = await fetch(`http://127.0.0.1:${port}/api/voice-call/dials`, { method: 'POST' });
        assert.equal(normal.status, 200);
        for (const client of hogs) client.socket.destroy();
      } finally {
        await companion.close();
      }
    },
  );

  test('an idle keep-alive connection is closed at keepAliveTimeout', { timeout: 20_000 }, async () => {
    const { companion, port } = await listenCompanion({}, { keepAliveTimeoutMs: 300 });
    try {
      const client = rawClient(port);
      await client.connected;
      client.socket.write('GET /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
      assert.match(await client.closed, /^HTTP\/1\.1 404/);
    } finally {
      await companion.close();
    }
  });

  test('listen refuses inconsistent limits', async () => {
    const handler = createCompanionHandler({
      apiKey: API_KEY,
      baseUrl: 'https://s.example',
      agentId: 'a',
      secret: SECRET,
      logger: false,
    });
    await assert.rejects(listen(handler, { headersTimeoutMs: 5000, requestTimeoutMs: 1000 }), /headersTimeoutMs/);
    await assert.rejects(listen(handler, { maxConnections: 0 }), /maxConnections/);
  });
});

describe('6. TRACE and other methods fetch cannot carry', () => {
  test('are answered 405 with Allow and logged through the handler logger', async () => {
    const { companion, port, logs, service } = await listenCompanion();
    try {
      for (const method of ['TRACE']) {
        const client = rawClient(port);
        await client.connected;
        client.socket.write(`${method} /api/voice-call/dials HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
        const answer = await client.closed;
        assert.match(answer, /^HTTP\/1\.1 405/, method);
        assert.match(answer, /allow: GET, POST, OPTIONS/i);
        assert.match(answer, /"method_not_allowed"/);
      }
      assert.deepEqual(
        logs.map((entry) => [entry.level, entry.method, entry.status, entry.code]),
        [['info', 'TRACE', 405, 'method_not_allowed']],
      );
      assert.equal(service.calls.length, 0);
    } finally {
      await companion.close();
    }
  });
});

describe('1 and 7. Host and origin over the Node adapter', () => {
  test('a rebinding Host is refused; the real hosts are served', async () => {
    const { companion, port, service } = await listenCompanion();
    try {
      const rebound = await send(
        port,
        'POST',
        '/api/voice-call/dials',
        { host: `evil.example:${port}`, origin: `http://evil.example:${port}` },
        '{}',
      );
      assert.equal(rebound.status, 403);
      assert.equal((rebound.json.error as { code: string }).code, 'host_not_allowed');
      assert.equal(service.calls.length, 0);
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
        const ok = await send(port, 'POST', '/api/voice-call/dials', { host, origin: `http://${host}` }, '{}');
        assert.equal(ok.status, 200, host);
      }
    } finally {
      await companion.close();
    }
  });

  test('an unparsable Host (issue 30, 2) is refused, not read as localhost', async () => {
    const { companion, port, service } = await listenCompanion();
    try {
      for (const host of [`rebind_x.attacker.example:${port}`, `rebind.attacker.example/x:${port}`, 'a b']) {
        const answer = await send(port, 'POST', '/api/voice-call/dials', { host }, '{}');
        assert.equal(answer.status, 403, host);
        assert.equal((answer.json.error as { code: string }).code, 'host_not_allowed', host);
      }
      assert.equal(service.calls.length, 0, 'no dial was created');
    } finally {
      await companion.close();
    }
  });

  test('a same-origin page on https behind a TLS proxy: with publicOrigin, or trusted X-Forwarded-Proto', async () => {
    const page = { host: 'site.example', origin: 'https://site.example' };
    const bare = await listenCompanion();
    const configured = await listenCompanion({ publicOrigin: 'https://site.example' });
    const proxied = await listenCompanion({ trustProxy: true });
    try {
      assert.equal((await send(bare.port, 'POST', '/api/voice-call/dials', page, '{}')).status, 403);
      assert.equal((await send(configured.port, 'POST', '/api/voice-call/dials', page, '{}')).status, 200);
      assert.equal(
        (
          await send(
            proxied.port,
            'POST',
            '/api/voice-call/dials',
            { ...page, 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.3' },
            '{}',
          )
        ).status,
        200,
      );
      assert.equal(
        (await send(bare.port, 'POST', '/api/voice-call/dials', { ...page, 'x-forwarded-proto': 'https' }, '{}'))
          .status,
        403,
        'not without trustProxy',
      );
    } finally {
      await Promise.all([bare.companion.close(), configured.companion.close(), proxied.companion.close()]);
    }
  });
});

describe('9. answers from the service are size-capped', () => {
  /** A service whose dial record is endless (chunked) or declares 200 MB; counts what it managed to send. */
  async function hugeService(
    declared: boolean,
  ): Promise<{ url: string; sent: () => number; closed: Promise<void>; stop(): Promise<void> }> {
    let sent = 0;
    let markClosed!: () => void;
    const closed = new Promise<void>((resolve) => (markClosed = resolve));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const server = createServer((req, res) => {
      req.resume();
      if (req.method === 'POST' && req.url === '/dials') {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ dialId: 'd-1', dialToken: 't', sessionId: 's' }));
        return;
      }
      res.writeHead(200, {
        'content-type': 'application/json',
        ...(declared ? { 'content-length': String(200 * 1024 * 1024) } : {}),
      });
      res.on('close', markClosed);
      res.write('{"id":"d-1","status":"queued","pad":"');
      const pump = () => {
        while (!res.destroyed && sent < 200 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      sent: () => sent,
      closed,
      stop: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    };
  }

  /** A dial created and read through a companion in front of `hugeService(declared)`; `check` sees the read while both run. */
  async function readHugeRecord(
    declared: boolean,
    check: (read: {
      answer: Awaited<ReturnType<typeof send>>;
      reason: string;
      upstream: Awaited<ReturnType<typeof hugeService>>;
    }) => Promise<void>,
  ): Promise<void> {
    const upstream = await hugeService(declared);
    const { companion, port, logs } = await listenCompanion({
      baseUrl: upstream.url,
      fetch: globalThis.fetch,
      upstreamTimeoutMs: 20_000,
    });
    try {
      const created = await send(port, 'POST', '/dials', {}, '{}');
      const answer = await send(port, 'GET', '/dials/d-1', {
        authorization: `Bearer ${created.json.handle as string}`,
      });
      await check({ answer, reason: logs.at(-1)?.reason ?? '', upstream });
    } finally {
      await companion.close();
      await upstream.stop();
    }
  }

  test(
    'an endless dial record is cut off after the cap: 502, and the service stops sending',
    { timeout: 30_000 },
    (t) =>
      readHugeRecord(false, async ({ answer, reason, upstream }) => {
        assert.equal(answer.status, 502);
        assert.equal((answer.json.error as { code: string }).code, 'upstream_error');
        assert.match(reason, /larger than 2097152 bytes/);
        await upstream.closed;
        t.diagnostic(
          `the service had written ${(upstream.sent() / 1024 / 1024).toFixed(1)} MiB of 200 MiB when the companion closed the connection`,
        );
        assert.ok(upstream.sent() < 50 * 1024 * 1024, `${upstream.sent()} bytes sent`);
      }),
  );

  test('a declared Content-Length over the cap is refused without reading it', { timeout: 30_000 }, () =>
    readHugeRecord(true, async ({ answer, reason, upstream }) => {
      assert.equal(answer.status, 502);
      assert.match(reason, /larger than 2097152 bytes/);
      await upstream.closed;
      assert.ok(upstream.sent() < 50 * 1024 * 1024, `${upstream.sent()} bytes sent`);
    }),
  );
});

describe('9. readCappedBody, for fetch and Node stream bodies alike', () => {
  test('stops an endless Node stream past the cap and destroys it', async () => {
    const { Readable } = await import('node:stream');
    let produced = 0;
    const endless = Readable.from(
      (function* () {
        for (;;) {
          produced++;
          yield new Uint8Array(64 * 1024);
        }
      })(),
    );
    await assert.rejects(
      readCappedBody(endless, null, 1024 * 1024, 'GET /dials/:id', 200),
      /larger than 1048576 bytes/,
    );
    assert.ok(endless.destroyed);
    assert.ok(produced < 64, `${produced} chunks produced`);
    const small = await readCappedBody(Readable.from([new Uint8Array([1, 2]), new Uint8Array([3])]), '3', 10, 'x', 200);
    assert.deepEqual([...small], [1, 2, 3]);
    const declared = Readable.from([new Uint8Array(1)]);
    await assert.rejects(readCappedBody(declared, String(200 * 1024 * 1024), 1024, 'x', 200), /larger than/);
    assert.ok(declared.destroyed);
  });
});

describe('12. a visitor closing the connection', () => {
  test('mid-create is logged at info as client_closed, not as an error-level 502', { timeout: 20_000 }, async () => {
    const { handler, logs, reached: reachedService, logged: entryWritten } = companionWithHangingCreate();
    const companion = await listen(handler, { port: 0 });
    try {
      const port = (companion.server.address() as AddressInfo).port;
      const client = rawClient(port);
      await client.connected;
      client.socket.write(
        'POST /dials HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}',
      );
      await reachedService;
      client.socket.destroy();
      await entryWritten;
      assert.deepEqual(
        logs.map((entry) => [entry.level, entry.status, entry.code]),
        [['info', 499, 'client_closed']],
      );
    } finally {
      await companion.close();
    }
  });

  test('while the body is still being sent, too', { timeout: 20_000 }, async () => {
    const { companion, port, logs, logged } = await listenCompanion();
    try {
      const client = rawClient(port);
      await client.connected;
      const bodyStarted = new Promise<void>((resolve) =>
        companion.server.once('request', (req) => req.once('data', () => resolve())),
      );
      client.socket.write(
        'POST /dials HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"agent":',
      );
      await bodyStarted;
      client.socket.destroy();
      await logged(1);
      assert.deepEqual(
        logs.map((entry) => [entry.level, entry.status, entry.code]),
        [['info', 499, 'client_closed']],
      );
    } finally {
      await companion.close();
    }
  });
});

describe("12. a visitor closing a keep-alive connection, with the handler's own service client", () => {
  test(
    'the requests before were answered; the read in flight is cancelled upstream and logged as client_closed',
    { timeout: 20_000 },
    async () => {
      let reads = 0;
      let reachedHang!: () => void;
      const hanging = new Promise<void>((resolve) => (reachedHang = resolve));
      let upstreamClosed!: () => void;
      const cancelled = new Promise<void>((resolve) => (upstreamClosed = resolve));
      // A real service over HTTP (the Node path of service calls): two reads answered, the third left hanging.
      const service = createServer((req, res) => {
        req.resume();
        if (++reads <= 2)
          return void res
            .writeHead(200, { 'content-type': 'application/json' })
            .end('{"id":"dial-1","status":"queued"}');
        res.on('close', upstreamClosed);
        reachedHang();
      });
      await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
      const logs: CompanionLogEntry[] = [];
      let entries = 0;
      let thirdLogged!: () => void;
      const third = new Promise<void>((resolve) => (thirdLogged = resolve));
      const handler = createCompanionHandler({
        apiKey: API_KEY,
        baseUrl: `http://127.0.0.1:${(service.address() as AddressInfo).port}`,
        agentId: 'a',
        secret: SECRET,
        logger: (entry) => {
          logs.push(entry);
          if (++entries === 3) thirdLogged();
        },
      });
      const companion = await listen(handler, { port: 0 });
      try {
        const handle = await createHandleSigner(SECRET).sign('dial-1', Date.now() + 60_000, 'session-1');
        const client = rawClient((companion.server.address() as AddressInfo).port);
        await client.connected;
        const read = `GET /dials/dial-1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${handle}\r\n\r\n`;
        let received = '';
        const answers = (count: number) =>
          new Promise<void>((resolve) => {
            const check = () => {
              if (received.split('HTTP/1.1 200 OK').length - 1 < count) return;
              client.socket.off('data', onData);
              resolve();
            };
            const onData = (chunk: string) => ((received += chunk), check());
            client.socket.on('data', onData);
          });
        for (const count of [1, 2]) {
          const answered = answers(count);
          client.socket.write(read);
          await answered;
        }
        client.socket.write(read);
        await hanging;
        client.socket.destroy();
        await cancelled;
        await third;
        assert.deepEqual(
          logs.map((entry) => [entry.level, entry.status, entry.code]),
          [
            ['info', 200, undefined],
            ['info', 200, undefined],
            ['info', 499, 'client_closed'],
          ],
        );
      } finally {
        await companion.close();
        await new Promise<void>((resolve) => {
          service.close(() => resolve());
          service.closeAllConnections();
        });
      }
    },
  );
});
