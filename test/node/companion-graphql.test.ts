// The companion's token step over real HTTP against a small fake of the service: REST dial token,
// then GraphQL `browserDialToken` — and what the visitor gets when the GraphQL step fails.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createCompanionHandler } from '../../src/server/handler.js';
import type { CompanionLogEntry } from '../../src/server/log.js';
import {
  API_KEY,
  bearer,
  body,
  createDial,
  present,
  expectError,
  guard,
  post,
  SECRET,
  UPSTREAM_MARKER,
} from './companion-support.js';

type GraphqlBehaviour =
  | { kind: 'answer'; telephonyProvider: string; iceConfig?: string | null }
  | { kind: 'errors'; messages: string[] }
  | { kind: 'status'; status: number }
  | { kind: 'hang' };

/** REST under /api and GraphQL at /query, as the service lays them out; `graphql` says how /query behaves. */
class FakeServiceServer {
  server: Server;
  graphql: GraphqlBehaviour = { kind: 'answer', telephonyProvider: 'livekit' };
  queries: { authorization: string | undefined; body: Record<string, unknown> }[] = [];
  #next = 1;

  constructor() {
    this.server = createServer((req, res) => void this.#serve(req, res));
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString();
    const send = (status: number, answer: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    };
    if (req.url === '/query' && req.method === 'POST') {
      this.queries.push({
        authorization: req.headers.authorization,
        body: JSON.parse(text) as Record<string, unknown>,
      });
      const behaviour = this.graphql;
      if (behaviour.kind === 'hang') return;
      if (behaviour.kind === 'status') return send(behaviour.status, { errors: [{ message: UPSTREAM_MARKER }] });
      if (behaviour.kind === 'errors')
        return send(200, { errors: behaviour.messages.map((message) => ({ message })), data: null });
      return send(200, {
        data: {
          browserDialToken: {
            token: 'lk-token',
            iceConfig: behaviour.iceConfig ?? null,
            telephonyProvider: behaviour.telephonyProvider,
            url: 'wss://media.service.example',
          },
        },
      });
    }
    if (req.headers.authorization !== `Bearer ${API_KEY}`) return send(401, { error: 'unauthorized' });
    if (req.url === '/api/dials' && req.method === 'POST') {
      const id = `dial-${this.#next++}`;
      return send(200, { dialToken: `dt-${id}`, sessionId: `session-${id}`, dialId: id });
    }
    const token = /^\/api\/dials\/([^/]+)\/token$/.exec(req.url ?? '');
    if (token && req.method === 'POST') return send(200, { dialToken: `dt-${token[1]}` });
    send(404, { error: 'no route' });
  }
}

describe('companion token step against a fake service over HTTP', () => {
  const service = new FakeServiceServer();
  const logs: CompanionLogEntry[] = [];
  let handler: ReturnType<typeof guard>;
  /** The same companion with a short upstream timeout, for the one test that waits it out. */
  let impatient: ReturnType<typeof guard>;

  before(async () => {
    await new Promise<void>((resolve) => service.server.listen(0, '127.0.0.1', resolve));
    // The default timeout (10 s) for every answering step: a loaded CI machine's first real HTTP
    // request has taken longer than 300 ms (Node 24, ci42), which is not what these tests are about.
    const companion = (upstreamTimeoutMs?: number) =>
      guard(
        createCompanionHandler({
          apiKey: API_KEY,
          baseUrl: `${service.origin}/api`,
          agentId: 'agent-1',
          secret: SECRET,
          upstreamTimeoutMs,
          logger: (entry) => logs.push(entry),
        }),
      );
    handler = companion();
    impatient = companion(300);
  });
  after(() => {
    service.server.closeAllConnections();
    service.server.close();
  });

  const token = async () => {
    const dial = await createDial(handler);
    return { dial, response: await handler(post(`/dials/${dial.dialId}/token`, undefined, bearer(dial.handle))) };
  };

  test('livekit: the media credentials, the dial token and the GraphQL URL (origin of the base URL + /query)', async () => {
    service.graphql = {
      kind: 'answer',
      telephonyProvider: 'livekit',
      iceConfig: '[{"urls":"stun:stun.service.example:3478"}]',
    };
    const { dial, response } = await token();
    assert.deepEqual(await body(response), {
      serverUrl: 'wss://media.service.example',
      participantToken: 'lk-token',
      dialToken: `dt-${dial.dialId}`,
      graphqlUrl: `${service.origin}/query`,
      sessionId: `session-${dial.dialId}`,
      iceServers: [{ urls: 'stun:stun.service.example:3478' }],
    });
    const sent = present(service.queries.at(-1));
    assert.equal(sent.authorization, `Bearer dt-${dial.dialId}`);
    assert.equal(sent.body.operationName, 'BrowserDialToken');
  });

  test('vonage → 502 unsupported_media_provider naming the provider', async () => {
    service.graphql = { kind: 'answer', telephonyProvider: 'vonage' };
    const { response } = await token();
    const answer = await body(response);
    assert.equal(response.status, 502);
    assert.deepEqual(Object.keys(answer), ['error']);
    assert.equal((answer.error as { code: string }).code, 'unsupported_media_provider');
    assert.match((answer.error as { message: string }).message, /vonage/);
  });

  test('GraphQL errors → 502 upstream_error; the message reaches the log only', async () => {
    service.graphql = { kind: 'errors', messages: [`not authorised for this dial session ${UPSTREAM_MARKER}`] };
    const { response } = await token();
    assert.ok(!(await response.clone().text()).includes(UPSTREAM_MARKER));
    await expectError(response, 502, 'upstream_error');
    assert.match(
      present(logs.at(-1)).reason ?? '',
      new RegExp(`not authorised for this dial session ${UPSTREAM_MARKER}`),
    );
  });

  test('the GraphQL endpoint answering HTTP 401 → 502 upstream_error', async () => {
    service.graphql = { kind: 'status', status: 401 };
    const { response } = await token();
    await expectError(response, 502, 'upstream_error');
    assert.match(present(logs.at(-1)).reason ?? '', /browserDialToken: unauthorized/);
  });

  test('the GraphQL endpoint silent → 504 upstream_timeout', async () => {
    service.graphql = { kind: 'hang' };
    // The dial is made by the patient instance; the companion is stateless, so another instance
    // with the same secret takes its handle.
    const dial = await createDial(handler);
    const response = await impatient(post(`/dials/${dial.dialId}/token`, undefined, bearer(dial.handle)));
    await expectError(response, 504, 'upstream_timeout');
  });

  test('the GraphQL endpoint unreachable (VOICE_AGENT_GRAPHQL_URL pointing at a closed port) → 502 upstream_error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = guard(
      createCompanionHandler({
        apiKey: API_KEY,
        baseUrl: `${service.origin}/api`,
        graphqlUrl: `http://127.0.0.1:${port}/query`,
        agentId: 'agent-1',
        secret: SECRET,
        logger: (entry) => logs.push(entry),
      }),
    );
    const dial = await createDial(unreachable);
    await expectError(
      await unreachable(post(`/dials/${dial.dialId}/token`, undefined, bearer(dial.handle))),
      502,
      'upstream_error',
    );
    assert.match(present(logs.at(-1)).reason ?? '', /network_error.*VOICE_AGENT_GRAPHQL_URL/);
  });
});
