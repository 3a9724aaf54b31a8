// The emulator's GraphQL endpoint, the service's browser protocol, over real HTTP and WebSocket on
// 127.0.0.1: the official client's operations (test/support/media-credentials.ts) sent with
// fetch and with graphql-ws's own client. The media room is joined with a plain WebSocket standing
// in for livekit-client's signal channel (agent-less dials: an agent's audio would load libwebrtc
// into this process); the agent's voice runs against a stand-in peer so that what it says, and
// when, can be read here.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { JoinRequest, LeaveRequest, SignalRequest, SignalResponse, type ParticipantInfo } from '@livekit/protocol';
import { buildClientSchema, buildSchema, getIntrospectionQuery, printType, type IntrospectionQuery } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';
import type { DialLifecycle } from '../../src/emulator/api/dial-lifecycle.js';
import { LINES } from '../../src/emulator/agent/scenarios.js';
import { AgentParticipant } from '../../src/emulator/room/agent-participant.js';
import type { Peer } from '../../src/emulator/room/media/peer.js';
import { encodeJoinRequest } from '../../src/emulator/room/protocol/join-request.js';
import { DisconnectReason } from '../../src/emulator/room/protocol/responses.js';
import { DEFAULT_ROOM_TIMINGS } from '../../src/emulator/room/server.js';
import type { SystemResultType } from '../../src/emulator/seam.js';
import {
  OPERATIONS,
  graphql,
  livekitCredentials,
  mediaCredentials,
  type OperationName,
} from '../support/media-credentials.js';
import { StandInPeer } from '../support/stand-in-peer.js';

// ── the service's schema subset, copied from research/service-graphql.md (the served schema must match it) ──

const RESEARCH_SDL = `
type Mutation {
  browserDialToken(input: BrowserDialTokenInput!): BrowserDialTokenRes!
  startDialSession(dialSessionId: ID!): Boolean!
  hangupCall(dialId: ID!, dropVoicemail: Boolean, transferNumber: String): Boolean!
  pauseAI(dialId: ID!, pauseStatus: Boolean!): Dial!
}
type Subscription {
  connectSession(sessionId: ID!): SessionMessage!
  watchLiveTranscriptEvents(dialId: ID!): LiveTranscriptEvent!
}
input BrowserDialTokenInput { type: BrowserDialTokenType!  dialSessionId: ID  liveListen: Boolean  telephonyProvider: String  workspaceId: ID }
enum BrowserDialTokenType { DIAL_SESSION LIVE_LISTEN }
type BrowserDialTokenRes { token: String!  telephonyProvider: String!  url: String  iceConfig: String }
type SessionMessage { messageType: SessionMessageType!  content: SessionMessageContent }
enum SessionMessageType { CONTACT_COMPLETE DIAL_CONNECT GLOBAL_CALL_CONNECT SESSION_CONTACT_UPDATE SESSION_UPDATE }
union SessionMessageContent = ContactCompleteMessage | DialConnectMessage | DialsUpdatedMessage | SessionUpdatedMessage
type ContactCompleteMessage { contactId: ID! }
type DialConnectMessage { contactId: ID  dialId: ID! }
type DialsUpdatedMessage { contactId: ID  dials: [Dial!]!  contactComplete: Boolean! }
type SessionUpdatedMessage { dialSession: DialSession  reason: DialSessionUpdateReason }
enum DialSessionUpdateReason { BROWSER_DISCONNECT MANUAL PASS_COMPLETE }
type DialSession { id: ID!  status: DialSessionStatus!  telephonyProvider: String! }
enum DialSessionStatus { ACTIVE COMPLETE INITIALIZED PAUSED }
type Dial { id: ID!  status: String!  answerType: AnswerType!  callDispositionId: ID  systemResultType: SystemResultType  toNumber: String! }
enum AnswerType { HUMAN MACHINE OTHER UNKNOWN }
enum SystemResultType { AGENT_HANGUP BUSY CANCELLED COUNTERPARTY_HANGUP DIAL_TREE_FOUND DNC_SKIPPED
  FAILED LONG_SILENCE_HANGUP NO_ANSWER NUMBER_SKIPPED RATE_LIMITED TIMEOUT TRANSFERRED USER_HANGUP
  VOICEMAIL_DETECTED_HANGUP VOICEMAIL_LEFT VOICEMAIL_NOT_LEFT }
type LiveTranscriptEvent { eventType: LiveTranscriptEventType!  transcriptLine: TranscriptLine }
enum LiveTranscriptEventType { FINAL LIVE }
type TranscriptLine { role: TranscriptLineRole!  text: String!  audioStart: Int!  audioEnd: Int!  speaker: String!  detailType: String  functionCalls: [FunctionCallRes!]  playId: String }
enum TranscriptLineRole { AI FUNCTION_RESULT HUMAN IVR NODE_TRANSITION }
type FunctionCallRes { id: ID!  name: String!  arguments: String! }
type Query { emulator: String! }
`;

// ── helpers ──

interface Created {
  dialId: string;
  sessionId: string;
  dialToken: string;
}

interface SessionMessage {
  messageType: string;
  content: {
    __typename: string;
    contactId: string | null;
    contactComplete: boolean;
    dials: Array<Record<string, unknown>>;
  } | null;
}

interface TranscriptEvent {
  eventType: 'LIVE' | 'FINAL';
  transcriptLine: {
    role: string;
    speaker: string;
    text: string;
    detailType: string | null;
    audioStart: number;
    audioEnd: number;
    functionCalls: unknown;
  };
}

async function rest<T>(emu: Emulator, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(emu.apiUrl + path, {
    method,
    headers: { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.equal(response.status, 200, `${method} ${path}`);
  return (await response.json()) as T;
}

const newDial = (emu: Emulator, callAgentId = 'emu-no-agent', extra: Record<string, unknown> = {}) =>
  rest<Created>(emu, 'POST', '/dials', { callAgentId, browserCall: true, ...extra });

const dialRecord = (emu: Emulator, dialId: string) =>
  rest<{ status: string; systemResultType: string | null; transcript: Array<{ text: string; speaker: string }> }>(
    emu,
    'GET',
    `/dials/${dialId}`,
  );

function wsClient(emu: Emulator, authToken: unknown): Client {
  return createClient({
    url: emu.graphqlUrl.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    connectionParams: authToken === undefined ? {} : { authToken },
    retryAttempts: 0,
  });
}

/** One subscription's events, in order, with a way to wait for the next one that matches. */
class Stream<T> {
  readonly events: T[] = [];
  readonly answers: Array<{ data?: unknown; errors?: Array<{ message: string; extensions?: { code?: string } }> }> = [];
  readonly ended: Promise<{ error?: unknown }>;
  readonly #waiters: Array<() => void> = [];
  readonly unsubscribe: () => void;

  constructor(client: Client, operation: OperationName, variables: Record<string, unknown>) {
    let settle: (how: { error?: unknown }) => void = () => {};
    this.ended = new Promise((resolve) => (settle = resolve));
    const field = operation === 'ConnectSession' ? 'connectSession' : 'watchLiveTranscriptEvents';
    this.unsubscribe = client.subscribe<Record<string, T>>(
      { query: OPERATIONS[operation], operationName: operation, variables },
      {
        next: (answer) => {
          this.answers.push(answer as never);
          const value = answer.data?.[field];
          if (value) this.events.push(value);
          for (const wake of this.#waiters.splice(0)) wake();
        },
        error: (error) => settle({ error }),
        complete: () => settle({}),
      },
    );
  }

  /** Resolves with the first event (from `from` on) that matches, waiting for it. */
  async next(match: (event: T) => boolean, from = 0, timeoutMs = 10000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.slice(from).find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(this.events)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}

/** Joins the dial's room as livekit-client's signal channel does; resolves once the JoinResponse arrived. */
async function joinRoom(
  emu: Emulator,
  token: string,
): Promise<{ ws: WebSocket; responses: SignalResponse[]; closed: Promise<void> }> {
  const query = new URLSearchParams({ access_token: token, join_request: encodeJoinRequest(new JoinRequest({})) });
  const ws = new WebSocket(`${emu.mediaUrl}/rtc/v1?${query}`);
  const responses: SignalResponse[] = [];
  const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (data: Buffer) => {
      const response = SignalResponse.fromBinary(data);
      responses.push(response);
      if (response.message.case === 'join') resolve();
    });
    ws.once('error', reject);
  });
  return { ws, responses, closed };
}

function leaveRoom(room: { ws: WebSocket; closed: Promise<void> }): Promise<void> {
  room.ws.send(new SignalRequest({ message: { case: 'leave', value: new LeaveRequest({}) } }).toBinary());
  return room.closed;
}

async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

// ── the endpoint over HTTP ──

describe('GraphQL over HTTP', () => {
  let emu: Emulator;
  const log: string[] = [];
  before(async () => {
    emu = await startEmulator({ logger: (line) => log.push(line), roomTimings: { leaveCloseDelayMs: 20 } });
  });
  after(() => emu.close());

  test("serves exactly the service's schema subset (names, arguments, nullability, enums)", async () => {
    const answer = await fetch(emu.graphqlUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: getIntrospectionQuery() }),
    });
    const { data } = (await answer.json()) as { data: IntrospectionQuery };
    const served = buildClientSchema(data);
    const expected = buildSchema(RESEARCH_SDL);
    const names = (schema: typeof served) =>
      Object.keys(schema.getTypeMap())
        .filter((name) => !name.startsWith('__'))
        .sort();
    assert.deepEqual(names(served), names(expected));
    for (const name of names(expected)) {
      // Descriptions and deprecations aside, each type prints the same.
      const strip = (text: string) => text.replace(/ @deprecated\([^)]*\)/g, '').replace(/"""[^]*?"""\n\s*/g, '');
      const [mine, theirs] = [served.getType(name), expected.getType(name)];
      assert.ok(mine && theirs, name);
      assert.equal(strip(printType(mine)), strip(printType(theirs)), name);
    }
  });

  test("auth: the dial's own token and the API key are accepted; none, garbage or another dial's token get an error and no data", async () => {
    const mine = await newDial(emu);
    const other = await newDial(emu);
    const input = { type: 'DIAL_SESSION', dialSessionId: mine.sessionId, liveListen: false };
    for (const token of [mine.dialToken, emu.apiKey]) {
      const answer = await graphql<{ browserDialToken: { token: string } }>(emu.graphqlUrl, token, 'BrowserDialToken', {
        input,
      });
      assert.equal(answer.errors, undefined);
      assert.equal(typeof answer.data?.browserDialToken.token, 'string');
    }
    for (const [token, code] of [
      ['', 'UNAUTHENTICATED'],
      ['garbage', 'UNAUTHENTICATED'],
      [`${mine.dialToken}x`, 'UNAUTHENTICATED'],
      [other.dialToken, 'FORBIDDEN'],
    ] as const) {
      const answer = await graphql(emu.graphqlUrl, token, 'BrowserDialToken', { input });
      assert.equal(answer.errors?.[0]?.extensions?.code, code, `token ${token.slice(0, 12)}…`);
      assert.ok(answer.data === undefined || answer.data === null, 'no data');
    }
    // Without any Authorization header at all.
    const bare = await fetch(emu.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: OPERATIONS.StartDialSession, variables: { sessionId: mine.sessionId } }),
    });
    assert.equal(bare.status, 200);
    const body = (await bare.json()) as { data?: unknown; errors: Array<{ extensions: { code: string } }> };
    assert.equal(body.errors[0]?.extensions.code, 'UNAUTHENTICATED');
    assert.equal(body.data, undefined);
    // Every mutation checks the dial: another dial's token reaches none of them.
    for (const [operation, variables] of [
      ['StartDialSession', { sessionId: mine.sessionId }],
      ['HangupCall', { dialId: mine.dialId }],
      ['SetPaused', { dialId: mine.dialId, pauseStatus: true }],
    ] as const) {
      const answer = await graphql(emu.graphqlUrl, other.dialToken, operation, variables);
      assert.equal(answer.errors?.[0]?.extensions?.code, 'FORBIDDEN', operation);
      assert.equal(answer.data, null, operation);
    }
    assert.equal((await dialRecord(emu, mine.dialId)).status, 'ringing', 'the refused hangup did nothing');
  });

  test('answers CORS for any origin: the preflight and the answers', async () => {
    const preflight = await fetch(emu.graphqlUrl, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /authorization/);
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /POST/);
    const { dialToken, sessionId } = await newDial(emu);
    const answer = await fetch(emu.graphqlUrl, {
      method: 'POST',
      headers: {
        origin: 'https://shop.example',
        authorization: `Bearer ${dialToken}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ query: OPERATIONS.StartDialSession, variables: { sessionId } }),
    });
    assert.equal(answer.headers.get('access-control-allow-origin'), '*');
  });

  test("browserDialToken: the LiveKit token for the dial's room and the media URL; the dial rings", async () => {
    const { dialId, sessionId, dialToken } = await newDial(emu);
    const credentials = await mediaCredentials(emu.graphqlUrl, dialToken, sessionId);
    assert.deepEqual(Object.keys(credentials).sort(), ['iceConfig', 'telephonyProvider', 'token', 'url']);
    assert.equal(credentials.telephonyProvider, 'livekit');
    assert.equal(credentials.url, emu.mediaUrl);
    assert.equal(credentials.iceConfig, null);
    assert.equal((await emu.verifyToken(credentials.token)).roomName, `dial-${dialId}`);
    assert.equal((await dialRecord(emu, dialId)).status, 'ringing');
  });

  test('browserDialToken answers the configured iceConfig as given', async () => {
    const iceConfig = JSON.stringify({ iceServers: [{ urls: 'stun:127.0.0.1:3478' }] });
    const withIce = await startEmulator({ logger: false, iceConfig });
    try {
      const { sessionId, dialToken } = await newDial(withIce);
      assert.equal((await mediaCredentials(withIce.graphqlUrl, dialToken, sessionId)).iceConfig, iceConfig);
    } finally {
      await withIce.close();
    }
  });

  test('emu-vonage: the provider is vonage, with no URL, and its token opens no room', async () => {
    const { sessionId, dialToken } = await newDial(emu, 'emu-vonage');
    const credentials = await mediaCredentials(emu.graphqlUrl, dialToken, sessionId);
    assert.equal(credentials.telephonyProvider, 'vonage');
    assert.equal(credentials.url, null);
    assert.equal(credentials.iceConfig, null);
    assert.ok(credentials.token.length > 0);
    await assert.rejects(emu.verifyToken(credentials.token));
    await assert.rejects(livekitCredentials(emu.graphqlUrl, dialToken, sessionId), /vonage/);
  });

  test('browserDialToken refuses LIVE_LISTEN, a missing session, an unknown session and an ended dial', async () => {
    const { dialId, sessionId, dialToken } = await newDial(emu);
    const ask = (token: string, input: Record<string, unknown>) =>
      graphql(emu.graphqlUrl, token, 'BrowserDialToken', { input });
    assert.equal(
      (await ask(dialToken, { type: 'LIVE_LISTEN', dialSessionId: sessionId })).errors?.[0]?.extensions?.code,
      'BAD_USER_INPUT',
    );
    assert.equal((await ask(dialToken, { type: 'DIAL_SESSION' })).errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    assert.equal(
      (await ask(emu.apiKey, { type: 'DIAL_SESSION', dialSessionId: 'no-such-session' })).errors?.[0]?.extensions?.code,
      'NOT_FOUND',
    );
    assert.match(
      (await ask(dialToken, { type: 'NOT_A_TYPE', dialSessionId: sessionId })).errors?.[0]?.message ?? '',
      /BrowserDialTokenType/,
    );
    await rest(emu, 'POST', `/dials/${dialId}/hangup`);
    const ended = await ask(dialToken, { type: 'DIAL_SESSION', dialSessionId: sessionId });
    assert.equal(ended.errors?.[0]?.extensions?.code, 'FAILED_PRECONDITION');
    assert.equal(ended.data, null);
  });

  test('startDialSession answers true (again too) while the dial lives, false once it ended', async () => {
    const { dialId, sessionId, dialToken } = await newDial(emu);
    const start = async () =>
      (await graphql<{ startDialSession: boolean }>(emu.graphqlUrl, dialToken, 'StartDialSession', { sessionId })).data
        ?.startDialSession;
    assert.equal(await start(), true);
    assert.equal(await start(), true);
    await rest(emu, 'POST', `/dials/${dialId}/hangup`);
    assert.equal(await start(), false);
  });

  test('hangupCall ends the dial like the REST hangup: canceled before the join, completed / USER_HANGUP in the room', async () => {
    const waiting = await newDial(emu);
    assert.deepEqual(
      (await graphql(emu.graphqlUrl, waiting.dialToken, 'HangupCall', { dialId: waiting.dialId })).data,
      { hangupCall: true },
    );
    const canceled = await dialRecord(emu, waiting.dialId);
    assert.deepEqual([canceled.status, canceled.systemResultType], ['canceled', 'CANCELLED']);

    const joined = await newDial(emu);
    const room = await joinRoom(
      emu,
      (await livekitCredentials(emu.graphqlUrl, joined.dialToken, joined.sessionId)).token,
    );
    await eventually(async () => (await dialRecord(emu, joined.dialId)).status === 'in-progress');
    assert.deepEqual((await graphql(emu.graphqlUrl, joined.dialToken, 'HangupCall', { dialId: joined.dialId })).data, {
      hangupCall: true,
    });
    await room.closed;
    const leave = room.responses.find((response) => response.message.case === 'leave')?.message;
    assert.equal(leave?.case === 'leave' && leave.value.reason, DisconnectReason.ROOM_DELETED);
    const completed = await dialRecord(emu, joined.dialId);
    assert.deepEqual([completed.status, completed.systemResultType], ['completed', 'USER_HANGUP']);
  });

  test('pauseAI answers the Dial, with every field the browser protocol reads', async () => {
    const { dialId, dialToken } = await newDial(emu);
    assert.deepEqual((await graphql(emu.graphqlUrl, dialToken, 'SetPaused', { dialId, pauseStatus: true })).data, {
      pauseAI: { id: dialId },
    });
    const query =
      'mutation ($dialId: ID!) { pauseAI(dialId: $dialId, pauseStatus: false) { id status answerType callDispositionId systemResultType toNumber } }';
    const full = await fetch(emu.graphqlUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${dialToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables: { dialId } }),
    });
    assert.deepEqual(((await full.json()) as { data: unknown }).data, {
      pauseAI: {
        id: dialId,
        status: 'queued',
        answerType: 'UNKNOWN',
        callDispositionId: null,
        systemResultType: null,
        toNumber: '',
      },
    });
  });

  test('pauseAI reaches the media half once per change; on an ended dial it is FAILED_PRECONDITION, like the other mutations', async () => {
    const { dialId, dialToken } = await newDial(emu);
    const heard: string[] = [];
    const off = emu.control.onAiPaused((id, paused) => id === dialId && heard.push(String(paused)));
    const pause = (pauseStatus: boolean) => graphql(emu.graphqlUrl, dialToken, 'SetPaused', { dialId, pauseStatus });
    try {
      for (const status of [true, true, false, false, true]) assert.equal((await pause(status)).errors, undefined);
      assert.deepEqual(heard, ['true', 'false', 'true']);
      assert.equal(emu.control.sessionForRoom(`dial-${dialId}`)?.aiPaused, true, 'a room joined later starts paused');
      await rest(emu, 'POST', `/dials/${dialId}/hangup`);
      const ended = await pause(false);
      assert.equal(ended.errors?.[0]?.extensions?.code, 'FAILED_PRECONDITION');
      assert.match(ended.errors?.[0]?.message ?? '', /already ended \(canceled\)/);
      assert.equal(ended.data, null);
      assert.deepEqual(heard, ['true', 'false', 'true'], 'an ended dial is not resumed');
    } finally {
      off();
    }
  });

  test('malformed requests: not JSON or no query 400, GET 405, a syntax error or a subscription over HTTP an error', async () => {
    const post = (body: string, token = emu.apiKey) =>
      fetch(emu.graphqlUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
      });
    assert.equal((await post('{not json')).status, 400);
    assert.equal((await post('{"variables":{}}')).status, 400);
    const get = await fetch(emu.graphqlUrl);
    assert.equal(get.status, 405);
    assert.match(get.headers.get('allow') ?? '', /POST/);
    const syntax = await post(JSON.stringify({ query: 'mutation {' }));
    assert.equal(syntax.status, 200);
    assert.match(
      ((await syntax.json()) as { errors: Array<{ message: string }> }).errors[0]?.message ?? '',
      /Syntax Error/,
    );
    const { sessionId } = await newDial(emu);
    const overHttp = (await (
      await post(JSON.stringify({ query: OPERATIONS.ConnectSession, variables: { sessionId } }))
    ).json()) as { errors: Array<{ message: string }> };
    assert.match(overHttp.errors[0]?.message ?? '', /WebSocket/);
  });

  test('logs each operation by transport, type and name, never a token', async () => {
    const { dialId, sessionId, dialToken } = await newDial(emu);
    await mediaCredentials(emu.graphqlUrl, dialToken, sessionId);
    await graphql(emu.graphqlUrl, 'garbage-token-123', 'StartDialSession', { sessionId });
    assert.ok(
      log.includes(`graphql http mutation BrowserDialToken {browserDialToken} as dial ${dialId}`),
      log.join('\n'),
    );
    assert.ok(log.includes('graphql http mutation StartDialSession {startDialSession} refused: no valid token'));
    for (const line of log) {
      assert.ok(!line.includes(dialToken) && !line.includes(emu.apiKey) && !line.includes('garbage-token-123'), line);
    }
  });
});

// ── subscriptions over graphql-transport-ws ──

describe('GraphQL subscriptions (graphql-transport-ws)', () => {
  let emu: Emulator;
  const clients: Client[] = [];
  const client = (token: unknown) => {
    const made = wsClient(emu, token);
    clients.push(made);
    return made;
  };
  before(async () => {
    emu = await startEmulator({ logger: false, roomTimings: { leaveCloseDelayMs: 20 } });
  });
  after(async () => {
    await Promise.all(clients.map((made) => made.dispose()));
    await emu.close();
  });

  test('a connection without a valid authToken is closed 4403 Forbidden', async () => {
    const { sessionId } = await newDial(emu);
    for (const token of [undefined, 'garbage', 42]) {
      const stream = new Stream<SessionMessage>(client(token), 'ConnectSession', { sessionId });
      const { error } = await stream.ended;
      assert.equal((error as { code?: number }).code, 4403, `authToken ${String(token)}`);
      assert.equal(stream.events.length, 0);
    }
  });

  test("a dial token cannot watch another dial's session or transcript: an error, no data; the API key can", async () => {
    const mine = await newDial(emu);
    const other = await newDial(emu);
    const session = new Stream<SessionMessage>(client(other.dialToken), 'ConnectSession', {
      sessionId: mine.sessionId,
    });
    const transcript = new Stream<TranscriptEvent>(client(other.dialToken), 'RefreshTranscript', {
      dialId: mine.dialId,
    });
    for (const stream of [session, transcript]) {
      await stream.ended;
      assert.equal(stream.events.length, 0);
      assert.equal(stream.answers[0]?.errors?.[0]?.extensions?.code, 'FORBIDDEN');
    }
    const byKey = new Stream<SessionMessage>(client(emu.apiKey), 'ConnectSession', { sessionId: mine.sessionId });
    await graphql(emu.graphqlUrl, emu.apiKey, 'HangupCall', { dialId: mine.dialId });
    const ended = await byKey.next((message) => message.content?.contactComplete === true);
    assert.equal(ended.content?.dials[0]?.['status'], 'canceled');
  });

  test('subscribed before the join: GLOBAL_CALL_CONNECT comes once the browser is in the room, once', async () => {
    const { dialId, sessionId, dialToken } = await newDial(emu);
    const stream = new Stream<SessionMessage>(client(dialToken), 'ConnectSession', { sessionId });
    // The dial's status comes at once: the subscription is open.
    const queued = await stream.next((message) => message.messageType === 'SESSION_CONTACT_UPDATE');
    assert.equal(queued.content?.dials[0]?.['status'], 'queued');
    const { token } = await livekitCredentials(emu.graphqlUrl, dialToken, sessionId);
    const ringing = await stream.next((message) => message.messageType === 'SESSION_CONTACT_UPDATE', 1);
    assert.equal(ringing.content?.dials[0]?.['status'], 'ringing');
    assert.equal(
      stream.events.some((message) => message.messageType === 'GLOBAL_CALL_CONNECT'),
      false,
      'not before the join',
    );
    const room = await joinRoom(emu, token);
    await stream.next((message) => message.messageType === 'GLOBAL_CALL_CONNECT');
    const types = stream.events.map((message) => message.messageType);
    assert.deepEqual(types, [
      'SESSION_CONTACT_UPDATE',
      'SESSION_CONTACT_UPDATE',
      'SESSION_CONTACT_UPDATE',
      'GLOBAL_CALL_CONNECT',
    ]);
    assert.deepEqual(stream.events[2]?.content, {
      __typename: 'DialsUpdatedMessage',
      contactId: null,
      dials: [
        {
          id: dialId,
          status: 'in-progress',
          answerType: 'HUMAN',
          callDispositionId: null,
          systemResultType: null,
          toNumber: '',
        },
      ],
      contactComplete: false,
    });
    assert.equal(stream.events[3]?.content, null);
    await leaveRoom(room);
    await stream.ended;
    assert.equal(stream.events.filter((message) => message.messageType === 'GLOBAL_CALL_CONNECT').length, 1);
  });

  test('subscribed after the join: GLOBAL_CALL_CONNECT at once', async () => {
    const { dialId, sessionId, dialToken } = await newDial(emu);
    const room = await joinRoom(emu, (await livekitCredentials(emu.graphqlUrl, dialToken, sessionId)).token);
    // The room answers the join before the dial's record hears of it (the room runs in its own
    // process): 'after the join' is once the dial is in progress.
    await eventually(async () => (await dialRecord(emu, dialId)).status === 'in-progress');
    const stream = new Stream<SessionMessage>(client(dialToken), 'ConnectSession', { sessionId });
    await stream.next((message) => message.messageType === 'GLOBAL_CALL_CONNECT');
    assert.deepEqual(
      stream.events.map((message) => message.messageType),
      ['SESSION_CONTACT_UPDATE', 'GLOBAL_CALL_CONNECT'],
    );
    assert.equal(stream.events[0]?.content?.dials[0]?.['status'], 'in-progress');
    await leaveRoom(room);
    await stream.ended;
  });

  test('SESSION_CONTACT_UPDATE on the end: the terminal status with its result type and contactComplete, then the stream completes', async () => {
    const { dialId, sessionId, dialToken } = await newDial(emu);
    const stream = new Stream<SessionMessage>(client(dialToken), 'ConnectSession', { sessionId });
    await stream.next((message) => message.messageType === 'SESSION_CONTACT_UPDATE');
    const room = await joinRoom(emu, (await livekitCredentials(emu.graphqlUrl, dialToken, sessionId)).token);
    await stream.next((message) => message.messageType === 'GLOBAL_CALL_CONNECT');
    await leaveRoom(room);
    const { error } = await stream.ended;
    assert.equal(error, undefined);
    const last = stream.events.at(-1);
    assert.equal(last?.messageType, 'SESSION_CONTACT_UPDATE');
    assert.deepEqual(last.content?.dials, [
      {
        id: dialId,
        status: 'completed',
        answerType: 'HUMAN',
        callDispositionId: null,
        systemResultType: 'USER_HANGUP',
        toNumber: '',
      },
    ]);
    assert.equal(last.content?.contactComplete, true);
    const statuses = stream.events
      .filter((message) => message.messageType === 'SESSION_CONTACT_UPDATE')
      .map((message) => message.content?.dials[0]?.['status']);
    assert.deepEqual(statuses, ['queued', 'ringing', 'in-progress', 'completed']);
  });

  test('subscriptions let go of the dial: when the client goes away, and when the dial ends', async () => {
    const dials = emu.control as DialLifecycle;
    const { dialId, sessionId, dialToken } = await newDial(emu);
    const leaving = client(dialToken);
    const session = new Stream<SessionMessage>(leaving, 'ConnectSession', { sessionId });
    new Stream<TranscriptEvent>(leaving, 'RefreshTranscript', { dialId });
    await session.next((message) => message.messageType === 'SESSION_CONTACT_UPDATE');
    await eventually(() => dials.watcherCount(dialId) === 2);
    await leaving.dispose();
    await eventually(() => dials.watcherCount(dialId) === 0);

    const staying = client(dialToken);
    const again = new Stream<SessionMessage>(staying, 'ConnectSession', { sessionId });
    new Stream<TranscriptEvent>(staying, 'RefreshTranscript', { dialId });
    await again.next((message) => message.messageType === 'SESSION_CONTACT_UPDATE');
    await eventually(() => dials.watcherCount(dialId) === 2);
    await graphql(emu.graphqlUrl, dialToken, 'HangupCall', { dialId });
    await again.ended;
    await eventually(() => dials.watcherCount(dialId) === 0);
  });

  test('a session that already ended answers its terminal status and completes; so does its transcript', async () => {
    const { dialId, sessionId, dialToken } = await newDial(emu, 'emu-busy');
    const stream = new Stream<SessionMessage>(client(dialToken), 'ConnectSession', { sessionId });
    await stream.ended;
    assert.equal(stream.events.length, 1);
    assert.deepEqual(stream.events[0]?.content?.dials[0]?.['systemResultType'], 'RATE_LIMITED');
    assert.equal(stream.events[0]?.content?.contactComplete, true);
    const transcript = new Stream<TranscriptEvent>(client(dialToken), 'RefreshTranscript', { dialId });
    assert.deepEqual(await transcript.ended, {});
    assert.equal(transcript.events.length, 0);
  });
});

// ── the agent waits for startDialSession; its lines go out as transcript events ──

/** An agent participant of the dial, as the room makes one, with what it sends recorded. */
function agentFor(emu: Emulator, dialId: string, scenario: string) {
  const peer = new StandInPeer();
  const states: string[] = [];
  const ended: SystemResultType[] = [];
  const agent = new AgentParticipant({
    dialId,
    scenario,
    control: emu.control,
    timings: { ...DEFAULT_ROOM_TIMINGS, quickListenMs: 100, thinkMs: 10 },
    rejoined: false,
    peer: () => peer as unknown as Peer,
    sinceJoin: () => 0,
    micTrackSid: () => 'TR_mic',
    micMuted: () => false,
    sendUpdate: (info: ParticipantInfo) => states.push(info.attributes['lk.agent.state'] ?? ''),
    hangup: (systemResultType, aiResult) => {
      ended.push(systemResultType);
      if (aiResult) emu.control.setAiResult(dialId, aiResult);
      emu.control.end(dialId, { status: 'completed', systemResultType });
    },
    drop: () => {},
    blip: () => {},
    left: () => {},
    shutDown: () => {},
  });
  return { agent, peer, states, ended };
}

describe('the agent and startDialSession', () => {
  const clients: Client[] = [];
  after(() => Promise.all(clients.map((made) => made.dispose())));

  async function withEmulator(options: EmulatorOptions, run: (emu: Emulator) => Promise<void>): Promise<void> {
    const emu = await startEmulator({ logger: false, ...options });
    try {
      await run(emu);
    } finally {
      await emu.close();
    }
  }

  /** A dial of `scenario` with its transcript, then its session, subscribed, and its agent made (not started). */
  async function subscribedDial(emu: Emulator, scenario: string) {
    const dial = await newDial(emu, scenario);
    const client = wsClient(emu, dial.dialToken);
    clients.push(client);
    const transcript = new Stream<TranscriptEvent>(client, 'RefreshTranscript', { dialId: dial.dialId });
    const session = new Stream<SessionMessage>(client, 'ConnectSession', { sessionId: dial.sessionId });
    return { ...dial, transcript, session, ...agentFor(emu, dial.dialId, scenario) };
  }

  test('without startDialSession the agent says nothing, not even at the time cap; the other timers still run', async () => {
    // One "minute" of time cap lasts 1.5 s here.
    await withEmulator({ minuteMs: 1500 }, async (emu) => {
      const { dialId, sessionId, dialToken } = await newDial(emu, 'emu-quick', { timeoutMinutes: 1 });
      const client = wsClient(emu, dialToken);
      clients.push(client);
      const session = new Stream<SessionMessage>(client, 'ConnectSession', { sessionId });
      const transcript = new Stream<TranscriptEvent>(client, 'RefreshTranscript', { dialId });
      const { agent, peer, states } = agentFor(emu, dialId, 'emu-quick');
      emu.control.onEnded((id) => {
        if (id !== dialId) return;
        agent.stop();
        void agent.sayLastLine(LINES.timeUp);
      });
      emu.control.joined(dialId);
      agent.start(); // the reliable data channel is open
      await session.next((message) => message.messageType === 'GLOBAL_CALL_CONNECT');
      // The client never sends startDialSession: the dial runs to its time cap.
      const end = await session.next((message) => message.content?.contactComplete === true);
      assert.equal(end.content?.dials[0]?.['systemResultType'], 'TIMEOUT');
      await transcript.ended;
      assert.deepEqual(peer.played, [], 'no audio');
      assert.deepEqual(peer.packets, [], 'no lk.transcription');
      assert.deepEqual(states, [], 'the agent stayed initializing');
      assert.deepEqual(transcript.events, []);
      assert.deepEqual((await dialRecord(emu, dialId)).transcript, []);
    });
  });

  test('after startDialSession it greets: LIVE events growing word by word, then one FINAL, as in lk.transcription and the dial record', async () => {
    await withEmulator({}, async (emu) => {
      const { dialId, sessionId, dialToken, transcript, session, agent, peer, states, ended } = await subscribedDial(
        emu,
        'emu-quick',
      );
      emu.control.joined(dialId);
      agent.start();
      await session.next((message) => message.messageType === 'GLOBAL_CALL_CONNECT');
      assert.deepEqual(peer.played, []);
      assert.equal(
        (await graphql(emu.graphqlUrl, dialToken, 'StartDialSession', { sessionId })).data?.['startDialSession'],
        true,
      );
      await session.ended;
      await transcript.ended;
      assert.deepEqual(ended, ['AGENT_HANGUP']);
      assert.equal(peer.played.length, 2, 'greeting and goodbye');
      assert.equal(states[0], 'listening');
      assert.ok(states.includes('speaking'));

      const finals = transcript.events.filter((event) => event.eventType === 'FINAL');
      assert.deepEqual(
        finals.map((event) => event.transcriptLine.text),
        [LINES.quickGreeting, LINES.quickGoodbye],
      );
      for (const event of finals) {
        assert.deepEqual(
          { ...event.transcriptLine, text: '', audioStart: 0, audioEnd: 0 },
          { role: 'AI', speaker: 'AI', text: '', detailType: null, audioStart: 0, audioEnd: 0, functionCalls: null },
        );
      }
      // Each line: LIVE versions that grow, then its FINAL.
      const greetingFinal = transcript.events.findIndex((event) => event.eventType === 'FINAL');
      const lives = transcript.events.slice(0, greetingFinal).map((event) => event.transcriptLine.text);
      assert.ok(lives.length > 0, 'LIVE before FINAL');
      for (const [index, live] of lives.entries()) {
        const before = lives[index - 1];
        if (before !== undefined) assert.ok(live.length > before.length && live.startsWith(before));
      }
      assert.ok(LINES.quickGreeting.startsWith(lives.at(-1) ?? '(none)'));
      assert.ok(peer.packets.length > 0, 'lk.transcription is published too');
      const record = await dialRecord(emu, dialId);
      assert.deepEqual(
        record.transcript.map((line) => line.text),
        finals.map((event) => event.transcriptLine.text),
      );
    });
  });

  test('emu-graphql-transcript publishes no lk.transcription: the GraphQL events are the only live transcript', async () => {
    await withEmulator({}, async (emu) => {
      const { dialId, sessionId, dialToken, transcript, session, agent, peer, ended } = await subscribedDial(
        emu,
        'emu-graphql-transcript',
      );
      emu.control.joined(dialId);
      agent.start();
      await session.next((message) => message.messageType === 'GLOBAL_CALL_CONNECT');
      await graphql(emu.graphqlUrl, dialToken, 'StartDialSession', { sessionId });
      await transcript.ended;
      assert.deepEqual(ended, ['AGENT_HANGUP']);
      assert.equal(peer.played.length, 2);
      assert.deepEqual(peer.packets, []);
      assert.deepEqual(
        transcript.events.filter((event) => event.eventType === 'FINAL').map((event) => event.transcriptLine.text),
        [LINES.quickGreeting, LINES.quickGoodbye],
      );
      assert.ok(transcript.events.some((event) => event.eventType === 'LIVE'));
    });
  });

  test('pauseAI: the line under way stops, the agent is idle and hears no turns; resumed, it says "I\'m back." and goes on', async () => {
    await withEmulator({}, async (emu) => {
      const { dialId, sessionId, dialToken, transcript, session, agent, peer, states } = await subscribedDial(
        emu,
        'emu-demo',
      );
      emu.control.onAiPaused((id, paused) => id === dialId && agent.pause(paused));
      emu.control.joined(dialId);
      agent.start();
      await session.next((message) => message.messageType === 'GLOBAL_CALL_CONNECT');
      await graphql(emu.graphqlUrl, dialToken, 'StartDialSession', { sessionId });
      await transcript.next((event) => event.eventType === 'LIVE' && event.transcriptLine.role === 'AI');
      await graphql(emu.graphqlUrl, dialToken, 'SetPaused', { dialId, pauseStatus: true });
      const cut = await transcript.next((event) => event.eventType === 'FINAL');
      assert.notEqual(cut.transcriptLine.text, LINES.demoGreeting, 'the greeting stopped part-way');
      assert.ok(LINES.demoGreeting.startsWith(cut.transcriptLine.text));
      assert.equal(states.at(-1), 'idle');
      // Paused: the caller speaks for 300 ms and is quiet again; nothing is heard or said.
      const eventsWhenPaused = transcript.events.length;
      for (let frame = 0; frame < 30; frame++) {
        agent.micFrame(0.5);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await new Promise((resolve) => setTimeout(resolve, 1000)); // the turn would have ended (0.7 s hangover)
      assert.equal(transcript.events.length, eventsWhenPaused, 'no turn, no line while paused');
      assert.equal(peer.played.length, 1, 'only the cut greeting was played');
      assert.equal(states.at(-1), 'idle');

      await graphql(emu.graphqlUrl, dialToken, 'SetPaused', { dialId, pauseStatus: false });
      const back = await transcript.next((event) => event.eventType === 'FINAL', eventsWhenPaused);
      assert.equal(back.transcriptLine.text, LINES.back);
      assert.deepEqual(states.slice(states.lastIndexOf('idle')), ['idle', 'speaking', 'listening']);
      // Back to the script: it listens again, and a turn is heard and answered.
      for (let frame = 0; frame < 30; frame++) {
        agent.micFrame(0.5);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await transcript.next((event) => event.eventType === 'FINAL' && event.transcriptLine.role === 'HUMAN');
      const reply = await transcript.next(
        (event) => event.eventType === 'FINAL' && LINES.demoReplies.some((line) => line === event.transcriptLine.text),
      );
      assert.ok(reply);
      agent.stop();
      await graphql(emu.graphqlUrl, dialToken, 'HangupCall', { dialId });
      await transcript.ended;
    });
  });

  test("caller turns: a LIVE '(caller speaking…)' then the FINAL HUMAN line", async () => {
    await withEmulator({}, async (emu) => {
      const { dialId, sessionId, dialToken, transcript, session, agent } = await subscribedDial(emu, 'emu-demo');
      emu.control.joined(dialId);
      agent.start();
      await session.next((message) => message.messageType === 'GLOBAL_CALL_CONNECT');
      await graphql(emu.graphqlUrl, dialToken, 'StartDialSession', { sessionId });
      await transcript.next((event) => event.eventType === 'FINAL' && event.transcriptLine.role === 'AI');
      // The caller speaks for 300 ms, then is quiet: 10 ms frames, as the microphone sink delivers them.
      for (let frame = 0; frame < 30; frame++) {
        agent.micFrame(0.5);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const live = await transcript.next((event) => event.transcriptLine.role === 'HUMAN');
      assert.deepEqual([live.eventType, live.transcriptLine.text], ['LIVE', '(caller speaking…)']);
      const final = await transcript.next(
        (event) => event.transcriptLine.role === 'HUMAN' && event.eventType === 'FINAL',
      );
      assert.match(final.transcriptLine.text, /^\(caller spoke, \d\.\d s\)$/);
      assert.equal(final.transcriptLine.speaker, 'HUMAN');
      agent.stop();
      await graphql(emu.graphqlUrl, dialToken, 'HangupCall', { dialId });
      await transcript.ended;
    });
  });
});
