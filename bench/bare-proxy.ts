// The benchmark's baseline: what a Node pass-through costs at its barest. Node `http` and one
// undici Pool: check a bearer, relay the request with the API key, relay the answer. No handle
// signature, no routing, no reshaping, no logging. For `POST /dials/:id/token` it makes the same
// two upstream calls as the companion's token route (the service's REST dial token, then the
// GraphQL `browserDialToken` with it, for the session in the `x-session-id` header) and relays
// the GraphQL answer: the same upstream work, so the ratio measures the companion's own cost.
// Prints `{"url":…}` once listening.
//   BARE_UPSTREAM=http://127.0.0.1:PORT BARE_API_KEY=… BARE_BEARER=… node --import tsx bench/bare-proxy.ts
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';

const upstream = process.env.BARE_UPSTREAM;
if (!upstream) throw new Error('BARE_UPSTREAM is not set: the upstream to relay to, http://127.0.0.1:PORT');
const pool = new Pool(upstream, { connections: 128 });
const expected = `Bearer ${process.env.BARE_BEARER}`;
const upstreamAuth = `Bearer ${process.env.BARE_API_KEY}`;
const BROWSER_DIAL_TOKEN =
  'mutation BrowserDialToken($input: BrowserDialTokenInput!) { browserDialToken(input: $input) { token iceConfig telephonyProvider url } }';

function relay(res: ServerResponse, statusCode: number, body: Buffer): void {
  res.writeHead(statusCode, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
}

async function mediaToken(path: string, sessionId: string): Promise<{ statusCode: number; body: Buffer }> {
  const rest = await pool.request({
    path,
    method: 'POST',
    headers: { authorization: upstreamAuth, accept: 'application/json' },
  });
  const { dialToken } = (await rest.body.json()) as { dialToken: string };
  const query = JSON.stringify({
    query: BROWSER_DIAL_TOKEN,
    variables: { input: { type: 'DIAL_SESSION', dialSessionId: sessionId, liveListen: false } },
  });
  const graphql = await pool.request({
    path: '/query',
    method: 'POST',
    headers: { authorization: `Bearer ${dialToken}`, 'content-type': 'application/json' },
    body: query,
  });
  return { statusCode: graphql.statusCode, body: Buffer.from(await graphql.body.arrayBuffer()) };
}

const server = createServer((req, res) => {
  if (req.headers.authorization !== expected) return void res.writeHead(401).end();
  const sessionId = req.headers['x-session-id'];
  // Node sets `url` on every request a server receives.
  const path = req.url ?? '/';
  if (req.method === 'POST' && path.endsWith('/token') && typeof sessionId === 'string') {
    mediaToken(path, sessionId).then(
      ({ statusCode, body }) => relay(res, statusCode, body),
      () => void res.writeHead(502).end(),
    );
    return;
  }
  pool
    .request({
      path,
      method: req.method as 'GET' | 'POST',
      headers: { authorization: upstreamAuth, accept: 'application/json' },
    })
    .then(
      async (answer) => relay(res, answer.statusCode, Buffer.from(await answer.body.arrayBuffer())),
      () => void res.writeHead(502).end(),
    );
});
server.listen(0, '127.0.0.1', () =>
  process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }) + '\n'),
);
process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
