// Fault injection for the browser fault matrix (test/browser/faults-*.test.ts), where the real
// components cannot produce the fault themselves. Two places:
//
// 1. In front of the real companion: `/__fault/<spec>/<route>` is forwarded to
//    `/api/voice-call/<route>` unless `<spec>` (a `+`-list of `<route>-<kind>`) says otherwise.
//    route: dials | token | read | hangup | service; kind: reset (connection closed: unreachable), hang
//    (never answers), hold (answers after FRONT_HOLD_MS, forwarded), stall (the same after
//    FRONT_STALL_MS), holdonce (the first request
//    with an Idempotency-Key is forwarded after FRONT_ONCE_HOLD_MS, later ones at once), lateonce (the
//    first request with an Idempotency-Key is forwarded at once, its answer held FRONT_ONCE_HOLD_MS:
//    the dial exists, the page does not learn it), 429 | 500 | 502 | 504 (an
//    error answer, nothing forwarded), 404 (the companion's not_found, as one without the route
//    answers), malformed (200 with a body that is not JSON), and for
//    token: badtoken (a token the media server refuses), nomedia (a media URL nothing listens
//    on), blackhole (a media URL that accepts TCP and never answers), ice (adds `iceServers`, as the
//    companion does when the service sends an `iceConfig`). The companion answers a create with
//    the media credentials too: those four kinds rewrite them there as well, and any other token
//    fault takes them out of the create's answer, so the page asks the token route and meets it.
//    `/__fault-strict/<spec>/<route>` is the same in front of the strict companion (wtr-services.mjs). The pseudo-route `gql`
//    points the token answer's (and the create's media) `graphqlUrl` (the browser's session protocol) elsewhere: `gql-down`
//    at a closed port, any other `gql-<kind>` at the GraphQL fault proxy (fault-graphql.mjs), e.g.
//    `gql-drop` cuts its socket after the first transcript event. It rewrites the companion's
//    `GET /service` (the GraphQL URL named ahead, for the socket a call opens beside its create) alike.
//
// 2. Behind a second companion (test/support/fault-companion.ts, short upstream timeout) that
//    talks to a fault upstream here instead of the service: `/__fault-svc/<route>` goes to it.
//    Its agent names `svc-<route>-<kind>` map to agent ids `fault.<route>.<kind>`; the upstream
//    dials the emulator's `emu-demo` for them and injects the fault on that route: 401 | 409 |
//    422 | 500 (the service's error answer), hang (never answers; the companion times out),
//    slow (create only: the first attempt is forwarded but answered after the companion gave
//    up; a retry with the same Idempotency-Key gets the replay). `svc-ok` dials cleanly. For a
//    `svc-token-*` dial the create answers a `dialToken` the GraphQL API refuses, so the
//    companion, refused with it, asks the REST token route and meets the fault there.
//    `svc-browserdialtoken-<errors|reset|hang>` injects the fault into the companion's GraphQL
//    step instead (its GraphQL URL is the GraphQL fault proxy's `/svc/query`).
//    `/__fault/log` answers both logs: [{ method, path, status, dialId, key, front? }] (status 0:
//    still under way; -1: no answer); `/__fault/gql-log` the GraphQL fault proxy's.
//
// Everything listens on 127.0.0.1 and forwards to the test server itself (whose `/__emu`
// route adds the emulator's key), so no key passes through here.
import { createServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { graphqlFaultProxy } from './fault-graphql.mjs';
import { readBody } from './http-body.mjs';
import { startChild, stopChild } from './wtr-services.mjs';

export const FRONT_HOLD_MS = 1200;
/**
 * `holdonce` and `lateonce`: how long the first attempt is held. The pages of those tests give up
 * at 2.5 s (ONCE_TIMEOUT_MS in faults-call), well before it, and their retry has as long again:
 * with 0.6 s and then 1 s, clean-clone CI runs (Node 22 and 24 tests beside the browsers) saw the
 * retry, the service's 409 and the companion's adoption of the named dial, time out.
 */
export const FRONT_ONCE_HOLD_MS = 4000;
/** `stall`: longer than a GraphQL socket opened beside the create waits for its token (service-session.ts, 2.5 s). */
export const FRONT_STALL_MS = 3000;
export const SVC_SLOW_MS = 2500;
export const FAULT_SERVICE_ROUTES = ['create', 'token', 'read', 'hangup'];
const SVC_KINDS = ['401', '409', '422', '500', 'hang', 'slow'];
/** Token faults that rewrite the media credentials (wherever the page gets them) instead of failing the route. */
const MEDIA_REWRITES = ['ice', 'badtoken', 'nomedia', 'blackhole'];

const serviceErrors = {
  401: ['unauthorized', 'invalid API key'],
  409: ['conflict', 'conflict'],
  422: ['unprocessable_entity', 'invalid input'],
  500: ['internal_error', 'internal error'],
};

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function routeOf(method, path) {
  if (method === 'POST' && /^\/dials\/?$/.test(path)) return 'dials';
  if (method === 'POST' && /^\/dials\/[^/]+\/token$/.test(path)) return 'token';
  if (method === 'POST' && /^\/dials\/[^/]+\/hangup$/.test(path)) return 'hangup';
  if (method === 'GET' && /^\/dials\/[^/]+$/.test(path)) return 'read';
  if (method === 'GET' && path === '/service') return 'service';
  return 'other';
}

export function faultServices() {
  let selfOrigin = '';
  const sockets = new Set();
  const servers = [];
  let companionChild = null;
  let faultCompanionUrl = '';
  let blackholeUrl = '';
  /** dialId → { route, kind } for dials made through the fault upstream. */
  const dialFaults = new Map();
  /** sessionId → kind, for dials whose companion GraphQL step (browserDialToken) is faulted. */
  const sessionFaults = new Map();
  const slowSeen = new Set();
  const log = [];
  let emulatorOriginPromise = null;
  /** The emulator's origin, asked of the test server once (it is up by the time a page calls). */
  const emulatorOrigin = () =>
    (emulatorOriginPromise ??= fetch(`${selfOrigin}/__services`)
      .then((answer) => answer.json())
      .then((services) => new URL(services.apiUrl).origin));
  const graphql = graphqlFaultProxy({ emulatorOrigin, faultFor: (sessionId) => sessionFaults.get(sessionId) ?? null });
  let graphqlHost = '';

  const track = (server) => {
    servers.push(server);
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    return server;
  };

  const listen = (server) =>
    new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`127.0.0.1:${server.address().port}`)));

  /** The fault upstream: the service as the fault companion sees it. */
  async function upstream(req, res) {
    const url = new URL(req.url, 'http://upstream');
    const body = await readBody(req);
    const route = routeOf(req.method, url.pathname);
    const entry = {
      method: req.method,
      path: url.pathname,
      status: 0,
      dialId: null,
      key: req.headers['idempotency-key'] ?? null,
    };
    log.push(entry);
    let fault = null;
    let forwardBody = body;
    if (route === 'dials') {
      let parsed = null;
      try {
        parsed = JSON.parse(String(body));
      } catch {
        // forwarded as it is: the emulator answers 400
      }
      const match = /^fault\.(\w+)\.(\w+)$/.exec(parsed?.callAgentId ?? '');
      if (parsed && (match || parsed.callAgentId === 'fault.ok')) {
        parsed.callAgentId = 'emu-demo';
        forwardBody = Buffer.from(JSON.stringify(parsed));
        if (match) fault = { route: match[1], kind: match[2] };
      }
      if (fault && fault.route !== 'create') fault = { ...fault, later: true };
    } else {
      const dialId = /^\/dials\/([^/]+)/.exec(url.pathname)?.[1];
      entry.dialId = dialId ?? null;
      const known = dialId ? dialFaults.get(dialId) : undefined;
      if (known && known.route === route) fault = known;
    }
    const injectNow = fault && !fault.later && (route === 'dials' ? fault.route === 'create' : true);
    if (injectNow && fault.kind in serviceErrors) {
      const [code, message] = serviceErrors[fault.kind];
      entry.status = Number(fault.kind);
      res.writeHead(entry.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code, message } }));
      return;
    }
    if (injectNow && fault.kind === 'hang') {
      // The socket stays open until the companion gives up.
      res.once('close', () => (entry.status = -1));
      return;
    }
    const holdAnswer = injectNow && fault.kind === 'slow' && !slowSeen.has(entry.key);
    if (holdAnswer) slowSeen.add(entry.key);
    const headers = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (!['host', 'connection', 'content-length', 'authorization'].includes(name)) headers[name] = value;
    }
    const answer = await fetch(`${selfOrigin}/__emu${url.pathname}${url.search}`, {
      method: req.method,
      headers,
      body: forwardBody,
    });
    const text = await answer.text();
    entry.status = answer.status;
    if (route === 'dials' && answer.ok) {
      try {
        entry.dialId = JSON.parse(text).dialId ?? null;
      } catch {
        entry.dialId = null;
      }
      if (entry.dialId && fault && fault.route !== 'create')
        dialFaults.set(entry.dialId, { route: fault.route, kind: fault.kind });
      if (fault?.route === 'browserdialtoken') {
        try {
          sessionFaults.set(JSON.parse(text).sessionId, fault.kind);
        } catch {
          // no session: nothing to fault
        }
      }
    }
    // A token fault needs the companion to ask the REST token route: the create answers a dial
    // token the service's GraphQL refuses, so the companion's browserDialToken with it is refused
    // and it takes the token route's way (a fresh REST token first), where the fault is.
    let out = text;
    if (route === 'dials' && answer.ok && fault?.route === 'token')
      out = JSON.stringify({ ...JSON.parse(text), dialToken: 'a-token-the-service-refuses' });
    if (holdAnswer) await wait(SVC_SLOW_MS);
    if (res.destroyed) return;
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(out);
  }

  const plugin = {
    name: 'voice-agent-fault-services',
    async serverStart({ config }) {
      selfOrigin = `http://127.0.0.1:${config.port}`;
      const upstreamServer = track(
        createServer((req, res) => {
          upstream(req, res).catch(() => {
            if (!res.headersSent) res.writeHead(500).end();
          });
        }),
      );
      const upstreamHost = await listen(upstreamServer);
      // Accepts TCP and never says a word: a media server that is there but never answers.
      const blackhole = track(createTcpServer(() => undefined));
      blackholeUrl = `ws://${await listen(blackhole)}`;
      const agents = { ok: 'fault.ok', 'svc-ok': 'fault.ok' };
      for (const route of FAULT_SERVICE_ROUTES)
        for (const kind of SVC_KINDS) agents[`svc-${route}-${kind}`] = `fault.${route}.${kind}`;
      for (const kind of ['errors', 'reset', 'hang'])
        agents[`svc-browserdialtoken-${kind}`] = `fault.browserdialtoken.${kind}`;
      graphqlHost = await listen(graphql.server);
      const companion = await startChild('test/support/fault-companion.ts', [], {
        PORT: '0',
        VOICE_AGENT_API_KEY: 'fault-upstream-placeholder-key',
        VOICE_AGENT_BASE_URL: `http://${upstreamHost}`,
        VOICE_AGENT_GRAPHQL_URL: `http://${graphqlHost}/svc/query`,
        VOICE_AGENT_AGENTS: JSON.stringify(agents),
        COMPANION_SECRET: 'fault-tests-secret-0123456789abcdef',
        COMPANION_ALLOWED_ORIGINS: selfOrigin,
        COMPANION_ALLOWED_INPUTS: 'name,topic',
        COMPANION_RATE_LIMIT_PER_ADDRESS: '100000',
        COMPANION_RATE_LIMIT_TOTAL: '100000',
        COMPANION_RATE_LIMIT_PER_DIAL: '100000',
        COMPANION_RATE_LIMIT_READS_PER_ADDRESS: '100000',
        FAULT_UPSTREAM_TIMEOUT_MS: '1500',
      });
      companionChild = companion.child;
      faultCompanionUrl = companion.ready.url;
    },
    async serverStop() {
      for (const socket of sockets) socket.destroy();
      await graphql.close();
      await Promise.all([
        stopChild(companionChild),
        ...servers.map((server) => new Promise((resolve) => server.close(() => resolve()))),
      ]);
    },
  };

  /** Forwards the page's request to `target`; answers what came back. */
  /** `body`: read beforehand when the request is held (the page may have given up by then). */
  async function forward(ctx, target, body = undefined) {
    const headers = {};
    for (const [name, value] of Object.entries(ctx.request.headers)) {
      if (!['host', 'connection', 'content-length', 'accept-encoding'].includes(name)) headers[name] = value;
    }
    body ??= ['GET', 'HEAD'].includes(ctx.method) ? undefined : await readBody(ctx.req);
    const answer = await fetch(target, { method: ctx.method, headers, body });
    return { status: answer.status, headers: answer.headers, text: await answer.text() };
  }

  function reply(ctx, { status, headers, text }) {
    ctx.status = status;
    headers.forEach((value, name) => {
      if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name))
        ctx.set(name, value);
    });
    ctx.body = text;
  }

  const heldOnce = new Set();
  const lateOnce = new Set();
  async function middleware(ctx, next) {
    if (ctx.path === '/__fault/log') {
      ctx.type = 'json';
      ctx.body = JSON.stringify(log);
      return undefined;
    }
    if (ctx.path === '/__fault/gql-log') {
      ctx.type = 'json';
      ctx.body = JSON.stringify(graphql.log);
      return undefined;
    }
    if (ctx.path.startsWith('/__fault-svc/')) {
      reply(ctx, await forward(ctx, faultCompanionUrl + ctx.url.slice('/__fault-svc'.length)));
      return undefined;
    }
    const match = /^\/__fault(-strict)?\/([^/]+)(\/.*)$/.exec(ctx.path);
    if (!match) return next();
    const [, strict, spec, path] = match;
    const faults = new Map(
      decodeURIComponent(spec)
        .split('+')
        .map((item) => item.split('-'))
        .filter((parts) => parts.length === 2),
    );
    const rest = ctx.url.slice(`/__fault${strict ?? ''}/${spec}`.length);
    const route = routeOf(ctx.method, path);
    const kind = faults.get(route);
    const target = `${selfOrigin}/api/voice-call${strict ?? ''}${rest}`;
    const entry = {
      method: ctx.method,
      path,
      status: 0,
      dialId: null,
      key: ctx.request.headers['idempotency-key'] ?? null,
      front: true,
    };
    if (route === 'dials') log.push(entry);
    if (kind === 'reset') {
      entry.status = -1;
      ctx.req.socket.destroy();
      ctx.respond = false;
      return undefined;
    }
    if (kind === 'hang') {
      // Held until the page gives up (its request timeout) and closes the connection.
      await new Promise((resolve) => ctx.req.socket.once('close', resolve));
      entry.status = -1;
      ctx.respond = false;
      return undefined;
    }
    if (['429', '500', '502', '504', 'malformed'].includes(kind))
      entry.status = kind === 'malformed' ? 200 : Number(kind);
    if (kind === '429' || kind === '502' || kind === '504') {
      const codes = { 429: 'rate_limited', 502: 'upstream_error', 504: 'upstream_timeout' };
      ctx.status = Number(kind);
      if (kind === '429') ctx.set('retry-after', '1');
      ctx.type = 'json';
      ctx.body = JSON.stringify({ error: { code: codes[kind], message: `injected ${kind}` } });
      return undefined;
    }
    if (kind === '404') {
      // As a companion without the route answers (an older one, for `service`).
      ctx.status = 404;
      ctx.type = 'json';
      ctx.body = JSON.stringify({ error: { code: 'not_found', message: 'no such route' } });
      return undefined;
    }
    if (kind === '500') {
      ctx.status = 500;
      ctx.type = 'text/plain';
      ctx.body = 'Internal Server Error';
      return undefined;
    }
    if (kind === 'malformed') {
      ctx.status = 200;
      ctx.type = 'json';
      ctx.body = '{"dialId": "d-1", "handle": ';
      return undefined;
    }
    const body = ['GET', 'HEAD'].includes(ctx.method) ? undefined : await readBody(ctx.req);
    if (kind === 'hold') await wait(FRONT_HOLD_MS);
    if (kind === 'stall') await wait(FRONT_STALL_MS);
    if (kind === 'holdonce' && !heldOnce.has(entry.key)) {
      heldOnce.add(entry.key);
      await wait(FRONT_ONCE_HOLD_MS);
    }
    const answer = await forward(ctx, target, body);
    entry.status = answer.status;
    if (route === 'dials') {
      try {
        entry.dialId = JSON.parse(answer.text).dialId ?? null;
      } catch {
        entry.dialId = null;
      }
    }
    const graphqlKind = faults.get('gql');
    const tokenKind = faults.get('token');
    /** The token route's rewrites, on its answer and on the media credentials a create answers. */
    const graphqlUrl =
      graphqlKind === 'down' ? 'http://127.0.0.1:9/query' : `http://${graphqlHost}/${graphqlKind}/query`;
    const rewrite = (token) => {
      if (graphqlKind) token.graphqlUrl = graphqlUrl;
      // ICE servers as the companion hands them on from browserDialToken's iceConfig.
      if (tokenKind === 'ice') token.iceServers = [{ urls: 'stun:127.0.0.1:3478' }];
      if (tokenKind === 'badtoken')
        token.participantToken = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJub2JvZHkifQ.bm90LWEtc2lnbmF0dXJl';
      if (tokenKind === 'nomedia') token.serverUrl = 'ws://127.0.0.1:9';
      if (tokenKind === 'blackhole') token.serverUrl = blackholeUrl;
    };
    if (route === 'dials' && answer.status === 200 && (graphqlKind || tokenKind)) {
      const created = JSON.parse(answer.text);
      // A fault of the token route itself reaches the page through a create answered without the
      // media credentials (as a companion that could not fetch them answers): the page asks the token route.
      if (tokenKind && !MEDIA_REWRITES.includes(tokenKind)) delete created.media;
      else if (created.media) rewrite(created.media);
      answer.text = JSON.stringify(created);
    }
    if (kind === 'lateonce' && !lateOnce.has(entry.key)) {
      lateOnce.add(entry.key);
      await wait(FRONT_ONCE_HOLD_MS);
    }
    // The GraphQL URL the companion names ahead (`GET /service`) is the one its token answers name.
    if (route === 'service' && answer.status === 200 && graphqlKind)
      answer.text = JSON.stringify({ ...JSON.parse(answer.text), graphqlUrl });
    if (route === 'token' && answer.status === 200 && (graphqlKind || MEDIA_REWRITES.includes(kind))) {
      const token = JSON.parse(answer.text);
      rewrite(token);
      answer.text = JSON.stringify(token);
    }
    reply(ctx, answer);
    return undefined;
  }

  return { plugin, middleware };
}
