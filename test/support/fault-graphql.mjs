// A fault proxy in front of the emulator's GraphQL endpoint (`{emulator}/query`), for the browser
// fault matrix: HTTP POST (mutations) and `graphql-transport-ws` (subscriptions) are relayed
// message by message, and `/<kind>/query` injects one fault:
//   connecterr     ConnectSession answered with a graphql-ws `error` message (never reaches the emulator)
//   transcripterr  RefreshTranscript answered the same way
//   starterr       StartDialSession answered HTTP 200 with GraphQL `errors`
//   pauseerr       SetPaused (pauseAI) answered HTTP 200 with GraphQL `errors` (never reaches the emulator)
//   nostart        StartDialSession swallowed: answered `true`, never forwarded (the emulator never sees it)
//   drop           the socket is cut (TCP reset) right after the first transcript event reaches the page
//   dup            every transcript event is sent twice, and each LIVE event once more after its FINAL
//   wsdown         the WebSocket upgrade is refused (subscriptions cannot be opened); HTTP is relayed
//   svc            the fault companion's browserDialToken: `faultFor(sessionId)` may say errors | reset | hang
//   none           relayed as is
// Everything it did is in `log`: [{ kind, transport, op, action }].
import { createServer } from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';
import { readBody } from './http-body.mjs';

export const GRAPHQL_FAULT_KINDS = [
  'connecterr',
  'transcripterr',
  'starterr',
  'pauseerr',
  'nostart',
  'drop',
  'dup',
  'wsdown',
  'svc',
  'none',
];

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type',
};

/** A message or body as JSON, or null when it is not JSON (it is then relayed as is). */
function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * `emulatorOrigin()` resolves to the emulator's `http://127.0.0.1:PORT`; `faultFor(sessionId)`
 * names the fault of a fault-companion dial's browserDialToken, or null.
 */
export function graphqlFaultProxy({ emulatorOrigin, faultFor }) {
  const log = [];
  const sockets = new Set();

  async function http(req, res, kind) {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS).end();
      return;
    }
    const body = await readBody(req);
    // A body that is not JSON is relayed as is: the emulator answers it.
    const parsed = parseJson(body?.toString('utf8') ?? '');
    const op = parsed?.operationName ?? null;
    const entry = { kind, transport: 'http', op, action: 'forwarded' };
    log.push(entry);
    const answer = (status, payload) =>
      res.writeHead(status, { ...CORS, 'content-type': 'application/json' }).end(JSON.stringify(payload));
    if (kind === 'starterr' && op === 'StartDialSession') {
      entry.action = 'injected';
      return answer(200, { errors: [{ message: 'injected fault: startDialSession refused' }], data: null });
    }
    if (kind === 'pauseerr' && op === 'SetPaused') {
      entry.action = 'injected';
      return answer(200, { errors: [{ message: 'injected fault: pauseAI refused' }], data: null });
    }
    if (kind === 'nostart' && op === 'StartDialSession') {
      entry.action = 'swallowed';
      return answer(200, { data: { startDialSession: true } });
    }
    if (kind === 'svc' && op === 'BrowserDialToken') {
      const fault = faultFor(parsed?.variables?.input?.dialSessionId);
      if (fault) entry.action = `injected ${fault}`;
      if (fault === 'errors')
        return answer(200, { errors: [{ message: 'injected fault: dial session not browser-enabled' }], data: null });
      if (fault === 'reset') return void req.socket.destroy();
      // Held until the caller gives up and closes the connection.
      if (fault === 'hang') return undefined;
    }
    const headers = { 'content-type': req.headers['content-type'] ?? 'application/json' };
    if (req.headers.authorization) headers.authorization = req.headers.authorization;
    const upstream = await fetch(`${await emulatorOrigin()}/query`, { method: 'POST', headers, body });
    res.writeHead(upstream.status, {
      ...CORS,
      'content-type': upstream.headers.get('content-type') ?? 'application/json',
    });
    res.end(Buffer.from(await upstream.arrayBuffer()));
  }

  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => (protocols.has('graphql-transport-ws') ? 'graphql-transport-ws' : false),
  });

  function relay(client, kind, origin) {
    const upstream = new WebSocket(`${origin.replace(/^http/, 'ws')}/query`, 'graphql-transport-ws');
    const pending = [];
    const operations = new Map();
    /** role -> the last LIVE event's message, replayed after that role's FINAL (dup). */
    const heldLive = new Map();
    let transcriptEvents = 0;
    const toUpstream = (text) => (upstream.readyState === WebSocket.OPEN ? upstream.send(text) : pending.push(text));
    upstream.on('open', () => {
      for (const text of pending.splice(0)) upstream.send(text);
    });
    client.on('message', (data) => {
      const text = data.toString();
      const message = parseJson(text);
      if (!message) return toUpstream(text);
      if (message.type === 'subscribe') {
        const op = message.payload?.operationName ?? null;
        operations.set(message.id, op);
        const entry = { kind, transport: 'ws', op, action: 'forwarded' };
        log.push(entry);
        if (
          (kind === 'connecterr' && op === 'ConnectSession') ||
          (kind === 'transcripterr' && op === 'RefreshTranscript')
        ) {
          entry.action = 'injected';
          client.send(
            JSON.stringify({ id: message.id, type: 'error', payload: [{ message: `injected fault: ${op} refused` }] }),
          );
          return undefined;
        }
      }
      return toUpstream(text);
    });
    upstream.on('message', (data) => {
      const text = data.toString();
      const message = parseJson(text);
      if (!message) return client.send(text);
      const isTranscript = message.type === 'next' && operations.get(message.id) === 'RefreshTranscript';
      if (!isTranscript) return client.send(text);
      transcriptEvents++;
      if (kind === 'drop') {
        client.send(text, () => {
          log.push({ kind, transport: 'ws', op: 'RefreshTranscript', action: 'dropped the socket' });
          client.terminate();
          upstream.terminate();
        });
        return undefined;
      }
      if (kind === 'dup') {
        const event = message.payload?.data?.watchLiveTranscriptEvents;
        const role = event?.transcriptLine?.role;
        client.send(text);
        client.send(text);
        if (event?.eventType === 'LIVE') heldLive.set(role, text);
        if (event?.eventType === 'FINAL' && heldLive.has(role)) {
          client.send(heldLive.get(role));
          heldLive.delete(role);
          log.push({ kind, transport: 'ws', op: 'RefreshTranscript', action: 'replayed a LIVE after its FINAL' });
        }
        return undefined;
      }
      return client.send(text);
    });
    const closeBoth = () => {
      if (client.readyState === WebSocket.OPEN) client.close(1000);
      if (upstream.readyState === WebSocket.OPEN || upstream.readyState === WebSocket.CONNECTING) upstream.terminate();
    };
    client.on('close', closeBoth);
    upstream.on('close', (code) => {
      if (client.readyState === WebSocket.OPEN) client.close(code === 1005 || code === 1006 ? 1011 : code);
    });
    client.on('error', closeBoth);
    upstream.on('error', closeBoth);
    return () => transcriptEvents;
  }

  const server = createServer((req, res) => {
    const kind = /^\/([a-z]+)\/query$/.exec(req.url ?? '')?.[1];
    if (!kind || !GRAPHQL_FAULT_KINDS.includes(kind)) return void res.writeHead(404).end();
    http(req, res, kind).catch(() => {
      if (!res.headersSent) res.writeHead(502).end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (req, socket, head) => {
    const kind = /^\/([a-z]+)\/query$/.exec(req.url ?? '')?.[1];
    if (!kind || !GRAPHQL_FAULT_KINDS.includes(kind)) return void socket.destroy();
    if (kind === 'wsdown') {
      log.push({ kind, transport: 'ws', op: null, action: 'refused the socket' });
      return void socket.destroy();
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    emulatorOrigin().then(
      (origin) => wss.handleUpgrade(req, socket, head, (client) => relay(client, kind, origin)),
      () => socket.destroy(),
    );
  });

  return {
    server,
    log,
    /** Closes the server and every connection. */
    close() {
      for (const client of wss.clients) client.terminate();
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
