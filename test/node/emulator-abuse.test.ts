// What the second attack run (issue 30) found in the emulator, each reproduced over real HTTP and
// WebSocket on 127.0.0.1: unbounded body reads (4), GraphQL validation cost (5), an unbounded
// `timeoutMinutes` (6) and a dial history that only grows (8). The gzip-bombed join request (3)
// is in room-join-bomb.test.ts.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { OPERATIONS } from '../support/media-credentials.js';
import { sendPastAnswer } from '../support/send-past-answer.js';

let emulator: Emulator;
const lines: string[] = [];

before(async () => {
  emulator = await startEmulator({ logger: (line) => lines.push(line) });
});
after(() => emulator.close());

async function api(
  emu: Emulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${emu.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function newDial(emu: Emulator, callAgentId = 'emu-no-agent'): Promise<{ dialId: string; dialToken: string }> {
  const created = await api(emu, 'POST', '/dials', { callAgentId, browserCall: true });
  assert.equal(created.status, 200, JSON.stringify(created.json));
  return { dialId: created.json.dialId as string, dialToken: created.json.dialToken as string };
}

const port = (url: string) => Number(new URL(url).port);

/**
 * Sends `head` and then a body as fast as the server takes it (chunked when the head says so),
 * up to `total` bytes, and stops at the server's first answer byte. What the server answered
 * (empty when it never did within `deadlineMs`) and how many body bytes went out before it.
 */
function flood(
  url: string,
  head: string,
  total: number,
  deadlineMs = 8000,
): Promise<{ answer: string; sentBeforeAnswer: number; answeredMs: number }> {
  const chunked = /transfer-encoding: chunked/i.test(head);
  const piece = Buffer.alloc(64 * 1024, 0x61);
  const frame = chunked
    ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
    : piece;
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect({ host: '127.0.0.1', port: port(url) });
    let answer = '';
    let sent = 0;
    let sentBeforeAnswer = -1;
    let answeredMs = -1;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ answer, sentBeforeAnswer: sentBeforeAnswer < 0 ? sent : sentBeforeAnswer, answeredMs });
    };
    const timer = setTimeout(finish, deadlineMs);
    socket.on('error', () => {});
    socket.on('close', finish);
    socket.on('data', (data: Buffer) => {
      if (sentBeforeAnswer < 0) {
        sentBeforeAnswer = sent;
        answeredMs = performance.now() - started;
      }
      answer += data.toString('latin1');
      if (answer.includes('\r\n\r\n')) finish();
    });
    const pump = () => {
      while (sentBeforeAnswer < 0 && sent < total && !socket.destroyed) {
        sent += piece.length;
        if (!socket.write(frame)) return void socket.once('drain', pump);
      }
    };
    socket.once('connect', () => {
      socket.write(head);
      pump();
    });
  });
}

const MiB = 1024 * 1024;

describe('issue 30, 4: bodies are refused early, never read whole', () => {
  const declared = (path: string, auth = '') =>
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}content-type: application/json\r\ncontent-length: ${512 * MiB}\r\n\r\n`;
  const streamed = (path: string, auth = '') =>
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}content-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`;

  test('/query: a declared 512 MiB body is answered 413 before any of it is sent', async (t) => {
    const { answer, answeredMs } = await flood(emulator.apiUrl, declared('/query'), 0);
    t.diagnostic(`answered after ${answeredMs.toFixed(0)} ms`);
    assert.match(answer, /^HTTP\/1\.1 413/);
  });

  test('/query: an endless chunked body stops being read at the limit', async (t) => {
    const { answer, sentBeforeAnswer } = await flood(emulator.apiUrl, streamed('/query'), 256 * MiB);
    t.diagnostic(`${(sentBeforeAnswer / MiB).toFixed(1)} MiB sent before the answer`);
    assert.match(answer, /^HTTP\/1\.1 413/);
    assert.ok(sentBeforeAnswer < 32 * MiB, `${sentBeforeAnswer} bytes were taken before the answer`);
  });

  test('REST without the key: 401 at once, whatever the body declares or streams', async (t) => {
    const declaredAnswer = await flood(emulator.apiUrl, declared('/dials'), 0);
    t.diagnostic(`declared: answered after ${declaredAnswer.answeredMs.toFixed(0)} ms`);
    assert.match(declaredAnswer.answer, /^HTTP\/1\.1 401/);
    const wrongKey = 'authorization: Bearer not-the-key\r\n';
    const streamedAnswer = await flood(emulator.apiUrl, streamed('/dials', wrongKey), 256 * MiB);
    t.diagnostic(`streamed: ${(streamedAnswer.sentBeforeAnswer / MiB).toFixed(1)} MiB sent before the answer`);
    assert.match(streamedAnswer.answer, /^HTTP\/1\.1 401/);
    assert.ok(streamedAnswer.sentBeforeAnswer < 32 * MiB, `${streamedAnswer.sentBeforeAnswer} bytes were taken`);
  });

  // Past the drain bound the connection closes, lingering: closed with the client's bytes unread,
  // the socket would be reset, and a client still sending could lose the 413 it had not read yet
  // (a clean-clone CI run once read nothing at all from the test above).
  for (const [name, path, auth] of [
    ['/query', '/query', ''],
    ['REST with the key', '/dials', `authorization: Bearer ${'KEY'}\r\n`],
  ] as const) {
    test(`${name}: a client still sending after the 413 reads it and a clean end, not a reset`, async () => {
      const head = streamed(path, auth.replace('KEY', emulator.apiKey));
      const past = await sendPastAnswer(emulator.apiUrl, head, 2 * MiB);
      assert.match(past.received, /^HTTP\/1\.1 413/);
      assert.match(past.received, /\r\nconnection: close\r\n/i);
      assert.deepEqual(past.errors, [], `${past.sentAfterAnswer} bytes sent after the answer`);
      assert.ok(past.ended, 'the server ended its side');
      assert.equal(past.sentAfterAnswer, 2 * MiB);
    });
  }

  test('REST with the key: a declared body over the limit is 413 before it is sent', async () => {
    const { answer } = await flood(
      emulator.apiUrl,
      declared('/dials', `authorization: Bearer ${emulator.apiKey}\r\n`),
      0,
    );
    assert.match(answer, /^HTTP\/1\.1 413/);
  });
});

/** A query of `count` chained fragment spreads: F0 spreads F1, … (the attack run's 56 KiB query). */
function fragmentChain(count: number): string {
  const fragments = Array.from(
    { length: count },
    (_, index) => `fragment F${index} on Query { emulator${index + 1 < count ? ` ...F${index + 1}` : ''} }`,
  );
  return `query Chain { ...F0 }\n${fragments.join('\n')}`;
}

describe('issue 30, 5: GraphQL documents are bounded before validation', () => {
  test('1,300 chained fragments x20 are refused cheaply; /healthz keeps answering', async (t) => {
    const { dialToken } = await newDial(emulator);
    const query = fragmentChain(1300);
    t.diagnostic(`query: ${(query.length / 1024).toFixed(1)} KiB`);
    const post = () =>
      fetch(emulator.graphqlUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${dialToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      }).then((response) => response.json() as Promise<{ errors?: { message: string }[]; data?: unknown }>);
    const started = performance.now();
    let pending = true;
    const answers = Promise.all(Array.from({ length: 20 }, post)).finally(() => (pending = false));
    // /healthz asked one after another while the twenty are answered: the longest wait is how
    // long the event loop was held.
    let healthMs = 0;
    while (pending) {
      const asked = performance.now();
      await fetch(`${emulator.apiUrl}/healthz`);
      healthMs = Math.max(healthMs, performance.now() - asked);
    }
    const results = await answers;
    t.diagnostic(
      `/healthz waited ${healthMs.toFixed(0)} ms at most; all 20 answered after ${(performance.now() - started).toFixed(0)} ms`,
    );
    for (const result of results) {
      assert.equal(result.data, undefined);
      assert.match(result.errors?.[0]?.message ?? '', /tokens|fragments|deep/);
    }
    assert.ok(healthMs < 1000, `/healthz waited ${healthMs.toFixed(0)} ms`);
  });

  test('a query nested past the depth limit is refused; the official operations and introspection pass', async () => {
    const { dialToken } = await newDial(emulator);
    const post = async (query: string) =>
      (await (
        await fetch(emulator.graphqlUrl, {
          method: 'POST',
          headers: { authorization: `Bearer ${dialToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query }),
        })
      ).json()) as { errors?: { message: string }[] };
    const nested = `query { ${'a { '.repeat(40)}b${' }'.repeat(40)} }`;
    assert.match((await post(nested)).errors?.[0]?.message ?? '', /deep/);
    for (const operation of Object.values(OPERATIONS)) {
      const errors = (await post(operation)).errors ?? [];
      assert.ok(!errors.some((error) => /tokens|fragments|deep/.test(error.message)), operation);
    }
  });

  test('a socket holds at most 16 subscriptions; the 17th is refused', async () => {
    const { dialId, dialToken } = await newDial(emulator);
    const url = emulator.graphqlUrl.replace(/^http:/, 'ws:');
    const client = createClient({
      url,
      webSocketImpl: WebSocket,
      connectionParams: { authToken: dialToken },
      retryAttempts: 0,
    });
    try {
      const outcomes = await Promise.all(
        Array.from({ length: 17 }, () => {
          const iterator = client.iterate({ query: OPERATIONS.RefreshTranscript, variables: { dialId } });
          return iterator.next().then(
            () => 'open',
            (error: unknown) => (Array.isArray(error) ? String(error[0]?.message) : String(error)),
          );
        }).map((outcome, index) =>
          // The live ones yield nothing until a line is spoken: each is open unless refused at once.
          Promise.race([outcome, delay(index === 16 ? 3000 : 300).then(() => 'open')]),
        ),
      );
      assert.deepEqual(outcomes.slice(0, 16), Array(16).fill('open'));
      assert.match(outcomes[16] ?? '', /subscriptions/);
    } finally {
      await client.dispose();
    }
  });
});

describe('issue 30, 6: timeoutMinutes is bounded', () => {
  test('too large: 422 naming the field, and no dial is created', async () => {
    const queued = () => lines.filter((line) => / queued /.test(line)).length;
    const before = queued();
    for (const timeoutMinutes of [1e308, 35_792, 1441]) {
      const answer = await api(emulator, 'POST', '/dials', {
        callAgentId: 'emu-no-agent',
        browserCall: true,
        timeoutMinutes,
      });
      assert.equal(answer.status, 422, `${timeoutMinutes}: ${JSON.stringify(answer.json)}`);
      const error = answer.json.error as { code: string; field: string; message: string };
      assert.equal(error.code, 'validation_failed');
      assert.equal(error.field, 'timeoutMinutes');
      assert.match(error.message, /1440/);
    }
    assert.equal(queued(), before, 'no dial record was created');
  });

  test('at the bound a dial is created and does not time out at once', async () => {
    const answer = await api(emulator, 'POST', '/dials', {
      callAgentId: 'emu-no-agent',
      browserCall: true,
      timeoutMinutes: 1440,
    });
    assert.equal(answer.status, 200);
    const dialId = answer.json.dialId as string;
    emulator.control.joined(dialId);
    assert.equal((await api(emulator, 'GET', `/dials/${dialId}`)).json.status, 'in-progress');
    // What is tested is that nothing happens: an overflowed timer fired within a millisecond.
    await delay(50);
    assert.equal((await api(emulator, 'GET', `/dials/${dialId}`)).json.status, 'in-progress', 'still running');
    emulator.control.end(dialId, { status: 'completed', systemResultType: 'USER_HANGUP' });
  });
});

describe('issue 30, 8: a bounded history of ended dials', () => {
  test('past the count, the oldest ended dials are dropped; running ones never', async () => {
    const emu = await startEmulator({ logger: false, endedDialRetention: { maxCount: 3 } });
    try {
      const running = await newDial(emu);
      const ended: string[] = [];
      for (let index = 0; index < 5; index += 1) ended.push((await newDial(emu, 'emu-busy')).dialId);
      const statuses = await Promise.all(
        ended.map(async (dialId) => (await api(emu, 'GET', `/dials/${dialId}`)).status),
      );
      assert.deepEqual(statuses, [404, 404, 200, 200, 200]);
      assert.equal((await api(emu, 'GET', `/dials/${running.dialId}`)).status, 200, 'a running dial is kept');
    } finally {
      await emu.close();
    }
  });

  test('ended dials older than the age are dropped', async () => {
    const maxAgeMs = 1000;
    const emu = await startEmulator({ logger: false, endedDialRetention: { maxAgeMs } });
    try {
      // The dial ends after `created`, so until `created + maxAgeMs` it cannot have been dropped.
      // (A fixed 100 ms age failed on a loaded CI machine: the first read came after it.)
      const created = Date.now();
      const { dialId } = await newDial(emu, 'emu-busy');
      const firstRead = await api(emu, 'GET', `/dials/${dialId}`);
      if (Date.now() - created < maxAgeMs) assert.equal(firstRead.status, 200, 'kept while younger than the age');
      // The age is the behaviour under test: time has to pass. Read until it is gone, bounded.
      let status = firstRead.status;
      while (status !== 404 && Date.now() - created < maxAgeMs + 10_000) {
        await delay(50);
        status = (await api(emu, 'GET', `/dials/${dialId}`)).status;
      }
      assert.equal(status, 404, 'dropped once older than the age');
      assert.ok(Date.now() - created >= maxAgeMs, 'not dropped before the age');
    } finally {
      await emu.close();
    }
  });
});
