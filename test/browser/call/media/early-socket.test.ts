// The service's GraphQL socket opened beside the create (call-setup.ts, service-session.ts
// `openEarlySocket`): the companion names the GraphQL URL ahead (`GET /service`), the call opens the
// socket while `POST /dials` is under way, and sends `connection_init` on it once the create has
// answered with the dial token.
// Real Chromium and Firefox, the real CallSession, companion and emulator; the fault front
// (test/support/fault-proxy.mjs) holds the create, or answers `GET /service` as an older companion.
import { expect } from '@open-wc/testing';
import type { CallSession } from '../../../../src/call/call-session.js';
import type { TranscriptEntry } from '../../../../src/call/types.js';
import { pair, present } from '../../../support/present.js';
import { expectCleanEnd, faultLog, front, newSession, record, useHarness } from '../../../support/fault-matrix.js';

/** emu-graphql-transcript's greeting, which reaches the page only over the GraphQL subscription. */
const GREETING = 'Hi, quick test call.';

interface SocketSeen {
  url: string;
  openedAt: number;
  /** When the page sent its first message (graphql-ws: `connection_init`); null when it sent none. */
  firstSendAt: number | null;
  closeCode: number | null;
}

/** Records the page's WebSockets to the service's GraphQL endpoint, and when `POST …/dials` answered. */
function watchPage() {
  const sockets: SocketSeen[] = [];
  let createdAt: number | null = null;
  const RealSocket = window.WebSocket;
  const realFetch = window.fetch;
  window.WebSocket = class extends RealSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      const seen: SocketSeen = { url: String(url), openedAt: performance.now(), firstSendAt: null, closeCode: null };
      if (new URL(seen.url).pathname.endsWith('/query')) sockets.push(seen);
      this.addEventListener('close', (event) => (seen.closeCode = event.code));
      const send = this.send.bind(this);
      this.send = (data) => {
        seen.firstSendAt ??= performance.now();
        send(data);
      };
    }
  };
  const serviceAsks: string[] = [];
  /** The GraphQL operations the page sent over HTTP, in order. */
  const operations: string[] = [];
  /** When each operation was sent and its answer reached the page, by name. */
  const times = new Map<string, { sentAt: number; answeredAt: number | null }>();
  /** How long the warm query's answer is held before the page reads it (0: not held). */
  const hold = { warmMs: 0 };
  // When each `<link rel="preconnect">` was added, by origin.
  const preconnects = new Map<string, number>();
  const links = new MutationObserver((records) => {
    for (const node of records.flatMap((record) => [...record.addedNodes]))
      if (node instanceof HTMLLinkElement && node.rel === 'preconnect') preconnects.set(node.href, performance.now());
  });
  links.observe(document.head, { childList: true });
  window.fetch = async (input, init) => {
    if (String(input).endsWith('/service')) serviceAsks.push(String(input));
    const operation =
      String(input).endsWith('/query') && typeof init?.body === 'string'
        ? (JSON.parse(init.body) as { operationName: string }).operationName
        : null;
    if (operation) operations.push(operation);
    const timing = { sentAt: performance.now(), answeredAt: null as number | null };
    if (operation) times.set(operation, timing);
    const response = await realFetch(input, init);
    if (operation === 'Warm' && hold.warmMs > 0) await new Promise((resolve) => setTimeout(resolve, hold.warmMs));
    timing.answeredAt = performance.now();
    if (init?.method === 'POST' && /\/dials$/.test(String(input))) createdAt ??= performance.now();
    return response;
  };
  return {
    sockets,
    serviceAsks,
    operations,
    times,
    hold,
    /** When a preconnect to `url`'s host (a WebSocket's URL: its HTTP origin) was added (null: none was). */
    preconnectedAt: (url: string) =>
      [...preconnects].find(([href]) => new URL(href).host === new URL(url).host)?.[1] ?? null,
    createdAt: () => createdAt,
    restore() {
      links.disconnect();
      for (const link of document.head.querySelectorAll('link[rel=preconnect]')) link.remove();
      window.WebSocket = RealSocket;
      window.fetch = realFetch;
    },
  };
}

/** The transcript lines that came while the call was in-call (not from the final record). */
function liveLines(session: CallSession): TranscriptEntry[] {
  const lines: TranscriptEntry[] = [];
  session.addEventListener('call-transcript', (event) => {
    if (session.state === 'in-call' && event.detail.changed.final) lines.push(event.detail.changed);
  });
  return lines;
}

describe("the service's GraphQL socket opened beside the create", function () {
  this.timeout(40000);
  const harness = useHarness();
  let page: ReturnType<typeof watchPage>;
  beforeEach(() => (page = watchPage()));
  afterEach(() => page.restore());

  /** A call to emu-graphql-transcript through `endpoint`, to its own end; its live transcript lines. */
  async function callThrough(endpoint: string) {
    const session = newSession(harness, endpoint, 'emu-graphql-transcript', {
      // A create held 3 s (`stall`) is not a timeout.
      requestTimeoutMs: 10000,
      // No polling fallback could bring the greeting during the call: only the subscription can.
      pollIntervalMs: 60000,
    });
    const seen = record(session);
    const live = liveLines(session);
    await session.start();
    await expectCleanEnd(harness, session, seen, { reason: 'agent-hangup', code: null, dials: 1 });
    return { session, live };
  }

  it('opens while the create is under way and carries the call: connection_init once the create answered, the transcript live', async () => {
    // The create held 1.2 s: the socket's connection and upgrade fit inside it.
    const { live } = await callThrough(front('dials-hold'));
    const created = present(page.createdAt(), 'the create answered');
    expect(page.sockets.length, 'one GraphQL socket for the call').to.equal(1);
    const socket = present(page.sockets[0], 'the GraphQL socket');
    expect(socket.openedAt, 'opened before the create answered').to.be.lessThan(created);
    const firstSend = present(socket.firstSendAt, 'connection_init sent');
    expect(firstSend, 'connection_init only with the dial token').to.be.greaterThan(created);
    // The HTTP connection for startDialSession is warmed while the create is under way too.
    const preconnected = present(page.preconnectedAt(socket.url), 'a preconnect to the GraphQL origin');
    expect(preconnected).to.be.lessThan(created);
    // And its CORS preflight, by a query with the same headers, before GLOBAL_CALL_CONNECT asks for the mutation.
    expect(page.operations).to.deep.equal(['Warm', 'StartDialSession']);
    expect(live.map((line) => line.text)).to.include(GREETING);
  });

  it('startDialSession waits for the warm query still on its way, to take its connection rather than open one', async () => {
    // The warm query's answer held 400 ms: GLOBAL_CALL_CONNECT comes while it is still on its way.
    page.hold.warmMs = 400;
    await callThrough(front('dials-hold'));
    const warm = present(page.times.get('Warm'), 'the warm query');
    const start = present(page.times.get('StartDialSession'), 'startDialSession');
    expect(start.sentAt, 'sent once the warm query answered').to.be.at.least(present(warm.answeredAt, 'its answer'));
  });

  it('a create slower than the socket waits (2.5 s): that socket is closed unsent, the session opens its own, the transcript is live', async () => {
    const { live } = await callThrough(front('dials-stall'));
    const created = present(page.createdAt(), 'the create answered');
    expect(page.sockets.length, 'the one opened ahead, then the session’s own').to.equal(2);
    const [ahead, own] = pair(page.sockets, 'the GraphQL sockets');
    expect(ahead.openedAt).to.be.lessThan(created);
    expect(ahead.firstSendAt, 'nothing sent on the socket that gave up').to.equal(null);
    expect(ahead.closeCode, 'closed by the page, before the service could time it out').to.equal(4499);
    expect(own.openedAt).to.be.greaterThan(created);
    expect(live.map((line) => line.text)).to.include(GREETING);
  });

  it('a companion without GET /service (404): the socket opens once the create answered, as before; asked once per page', async () => {
    const { live } = await callThrough(front('service-404'));
    expect(page.sockets.length).to.equal(1);
    expect(present(page.sockets[0], 'the GraphQL socket').openedAt).to.be.greaterThan(
      present(page.createdAt(), 'the create answered'),
    );
    expect(live.map((line) => line.text)).to.include(GREETING);
    // A second call in the page (its own dial): the 404 stands, the companion is not asked again.
    harness.logStart = (await faultLog()).length;
    const again = await callThrough(front('service-404'));
    expect(again.live.map((line) => line.text)).to.include(GREETING);
    expect(page.serviceAsks).to.deep.equal([`${front('service-404')}/service`]);
  });
});
