// The benchmark's baseline: what a Node pass-through costs at its barest. Node `http` and one
// undici Pool: check a bearer, relay the request with the API key, relay the answer. No handle
// signature, no routing, no reshaping, no logging. Prints `{"url":…}` once listening.
//   BARE_UPSTREAM=http://127.0.0.1:PORT BARE_API_KEY=… BARE_BEARER=… node --import tsx bench/bare-proxy.ts
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';

const pool = new Pool(process.env.BARE_UPSTREAM!, { connections: 128 });
const expected = `Bearer ${process.env.BARE_BEARER}`;
const upstreamAuth = `Bearer ${process.env.BARE_API_KEY}`;

const server = createServer((req, res) => {
  if (req.headers.authorization !== expected) return void res.writeHead(401).end();
  pool.request({ path: req.url!, method: req.method as 'GET' | 'POST', headers: { authorization: upstreamAuth, accept: 'application/json' } }).then(
    async (answer) => {
      const body = Buffer.from(await answer.body.arrayBuffer());
      res.writeHead(answer.statusCode, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
    },
    () => void res.writeHead(502).end(),
  );
});
server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }) + '\n'));
process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
