// The network benchmark's round-trip count (bench/lib/delay-proxy.ts): which recorded round trips
// lie on a call's critical path, and what the proxy calls each one. Pure functions on made-up
// exchanges: no timing is measured or asserted here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createServer, type AddressInfo } from 'node:net';
import { request } from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';
import { SignalRequest } from '@livekit/protocol';
import {
  awaitsAnswer,
  criticalPath,
  describeClientChunk,
  fromBrowser,
  startDelayProxy,
  type Exchange,
} from '../../bench/lib/delay-proxy.js';

const at = (leg: string, what: string, start: number, end: number): Exchange => ({ leg, what, start, end });

test('the critical path is the chain back from the end, each step ending before the next one starts', () => {
  const dial = at('page server', 'POST /api/voice-call/dials', 0, 100);
  const connect = at('signal', 'new connection', 105, 205);
  const upgrade = at('signal', 'WebSocket upgrade GET /rtc/v1', 205, 305);
  // Beside the path: a chunk fetched at the same time as the dial, a poll inside the join.
  const chunk = at('page server', 'GET /dist/cdn/chunks/in-call.js', 2, 90);
  const poll = at('page server', 'GET /api/voice-call/dials/:id', 210, 260);
  const join = at('signal', 'WebSocket message (binary)', 310, 410);
  const path = criticalPath([chunk, join, poll, dial, upgrade, connect], 0, 420);
  assert.deepEqual(path, [dial, connect, upgrade, join]);
});

test('round trips started before the click or ending after the end are not on the path', () => {
  const prefetch = at('page server', 'GET /dist/cdn/chunks/livekit-media.js', -50, 60);
  const dial = at('page server', 'POST /api/voice-call/dials', 10, 110);
  const late = at('GraphQL', 'WebSocket message: subscribe', 120, 400);
  assert.deepEqual(criticalPath([prefetch, dial, late], 0, 300), [dial]);
  assert.deepEqual(criticalPath([], 0, 300), []);
});

/** A client's masked WebSocket frame (under 126 bytes): a text frame, or a binary one for bytes. */
function frame(data: string | Uint8Array): Buffer {
  const payload = Buffer.from(data);
  const mask = Buffer.from([1, 2, 3, 4]);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ (mask[i % 4] ?? 0)));
  const opcode = typeof data === 'string' ? 0x81 : 0x82;
  return Buffer.concat([Buffer.from([opcode, 0x80 | payload.length]), mask, masked]);
}

/** Two of livekit-client's signal requests: an ICE candidate (sent one way) and an offer (answered). */
const TRICKLE = new SignalRequest({ message: { case: 'trickle', value: { candidateInit: '{}', target: 0 } } });
const OFFER = new SignalRequest({ message: { case: 'offer', value: { type: 'offer', sdp: 'v=0' } } });

test('a turn is named by its request line or its WebSocket message', () => {
  const token = 'x'.repeat(3000);
  assert.equal(
    describeClientChunk(
      Buffer.from('POST /api/voice-call/dials/0b0e8d4c-1f7a-4e55-9a1e-3c1b2a4d5e6f/token HTTP/1.1\r\nhost: a\r\n\r\n'),
      false,
    ),
    'POST /api/voice-call/dials/:id/token',
  );
  assert.equal(
    describeClientChunk(
      Buffer.from(`GET /rtc/v1?access_token=${token} HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\n\r\n`),
      false,
    ),
    'WebSocket upgrade GET /rtc/v1',
  );
  assert.equal(describeClientChunk(frame('{"type":"connection_init"}'), true), 'WebSocket message: connection_init');
  assert.equal(describeClientChunk(Buffer.from([0x82, 0x82, 0, 0, 0, 0, 1, 2]), true), 'WebSocket message (binary)');
});

test('a signal message is named by its kind, and only the kinds the media server answers are turns', () => {
  const trickle = describeClientChunk(frame(TRICKLE.toBinary()), true);
  assert.equal(trickle, 'WebSocket message: signal trickle');
  const offer = describeClientChunk(frame(OFFER.toBinary()), true);
  assert.equal(offer, 'WebSocket message: signal offer');
  // An ICE candidate, or the answer to the server's offer, is sent one way: nothing answers it.
  assert.equal(awaitsAnswer(trickle), false);
  assert.equal(awaitsAnswer('WebSocket message: signal answer'), false);
  assert.equal(awaitsAnswer(offer), true);
  assert.equal(awaitsAnswer('WebSocket message: signal addTrack'), true);
  // graphql-transport-ws: connection_init and subscribe are answered, complete and pong are not.
  assert.equal(awaitsAnswer('WebSocket message: subscribe'), true);
  assert.equal(awaitsAnswer('WebSocket message: complete'), false);
  assert.equal(awaitsAnswer('POST /api/voice-call/dials'), true);
  assert.equal(awaitsAnswer('WebSocket message (binary)'), true);
});

test("on a leg a server shares with the browser, only the browser's round trips are recorded", async () => {
  // One HTTP answer per request, on a connection the client keeps open.
  const target = createServer((socket) =>
    socket.on('data', () => socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok')),
  );
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const { port } = target.address() as AddressInfo;
  const proxy = await startDelayProxy({ host: '127.0.0.1', port }, 0, 'GraphQL', {
    from: fromBrowser,
    delayMs: () => 0,
  });
  proxy.recording = true;
  const get = (userAgent: string) =>
    new Promise<void>((resolve, reject) => {
      const [host, proxyPort] = proxy.host.split(':');
      request(
        { host, port: Number(proxyPort), path: '/query', headers: { 'user-agent': userAgent }, agent: false },
        (answer) => answer.resume().on('end', resolve),
      )
        .on('error', reject)
        .end();
    });
  try {
    await get('Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0');
    await get('node');
    assert.deepEqual(
      proxy.exchanges.map((exchange) => exchange.what),
      ['new connection', 'GET /query'],
    );
    assert.ok(fromBrowser(Buffer.from('GET / HTTP/1.1\r\nUser-Agent: Mozilla/5.0\r\n\r\n')));
    assert.ok(!fromBrowser(Buffer.from('POST /query HTTP/1.1\r\nuser-agent: node\r\n\r\n')));
  } finally {
    await proxy.close();
    await new Promise((resolve) => target.close(resolve));
  }
});

test('through the proxy, a signal message sent one way is no round trip; the next answered one is', async () => {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  // The media server answers an offer (and nothing else) with one message.
  server.on('connection', (socket) =>
    socket.on('message', (data: Buffer) => {
      if (SignalRequest.fromBinary(new Uint8Array(data)).message.case === 'offer') socket.send(Buffer.from([0]));
    }),
  );
  const proxy = await startDelayProxy({ host: '127.0.0.1', port: (server.address() as AddressInfo).port }, 0, 'signal');
  proxy.recording = true;
  const client = new WebSocket(`ws://${proxy.host}/rtc/v1`);
  try {
    await new Promise((resolve, reject) => client.once('open', resolve).once('error', reject));
    const answered = new Promise((resolve) => client.once('message', resolve));
    client.send(TRICKLE.toBinary());
    client.send(OFFER.toBinary());
    await answered;
    assert.deepEqual(
      proxy.exchanges.map((exchange) => exchange.what),
      ['new connection', 'WebSocket upgrade GET /rtc/v1', 'WebSocket message: signal offer'],
    );
  } finally {
    client.close();
    await proxy.close();
    await new Promise((resolve) => server.close(resolve));
  }
});
