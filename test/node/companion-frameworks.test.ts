// The companion mounted where sites run it: Express 5, Hono on @hono/node-server, and a bare
// Fetch-API runtime (the handler called with Request objects, as Workers, Deno, Bun and Next.js
// route handlers do). Each creates a dial, gets a token and hangs up through the real emulator over
// HTTP. The mounting code is the README's recipes: test/node/recipes/*.ts, which the README quotes
// verbatim (checked below).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { serve } from '@hono/node-server';
import { Agent, fetch as fetchFrom } from 'undici';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import type { CompanionConfig } from '../../src/server/handler.js';
import { createApp as createExpressApp } from './recipes/express.js';
import { createFetchHandler } from './recipes/fetch.js';
import { createApp as createHonoApp } from './recipes/hono.js';
import { SECRET } from './companion-support.js';
import { readDocs } from '../../scripts/docs.js';

const RECIPES = ['express', 'hono', 'fetch'] as const;

/** A visitor's requests: `send(path, init, address)` answers a Response from wherever the companion is mounted. */
type Send = (path: string, init: RequestInit, address: string) => Promise<Response>;

async function call(
  send: Send,
  path: string,
  init: RequestInit,
  address = '127.0.0.7',
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await send(path, init, address);
  const text = await response.text();
  assert.equal(response.headers.get('cache-control'), 'no-store');
  assert.ok(!text.includes(SECRET));
  return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function emulatorDial(emulator: Emulator, dialId: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${emulator.apiUrl}/dials/${dialId}`, {
    headers: { authorization: `Bearer ${emulator.apiKey}` },
  });
  assert.equal(response.status, 200);
  return (await response.json()) as Record<string, unknown>;
}

async function listening(server: Server): Promise<string> {
  if (!server.listening) await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('mounted in frameworks, in front of the real emulator', () => {
  let emulator: Emulator;
  const servers: Server[] = [];
  before(async () => {
    emulator = await startEmulator({ logger: false });
  });
  after(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
    await Promise.all([...agents.values()].map((agent) => agent.close()));
    await emulator.close();
  });

  const config = (): CompanionConfig => ({
    apiKey: emulator.apiKey,
    baseUrl: emulator.apiUrl,
    agents: { default: 'emu-demo' },
    secret: SECRET,
    // The address must reach the limiter through each mounting: one dial per address here.
    rateLimit: { perAddress: 1 },
    logger: false,
  });

  /** Over HTTP from `address` (any 127.x.y.z is this machine): the servers see it as the socket's address. */
  const agents = new Map<string, Agent>();
  const httpFrom =
    (base: string): Send =>
    (path, init, address) => {
      let agent = agents.get(address);
      if (!agent) agents.set(address, (agent = new Agent({ localAddress: address })));
      return fetchFrom(`${base}/api/voice-call${path}`, {
        ...(init as object),
        dispatcher: agent,
      }) as unknown as Promise<Response>;
    };

  const mounts: Record<(typeof RECIPES)[number], () => Promise<Send>> = {
    express: async () => {
      const server = createExpressApp(config()).listen(0, '127.0.0.1');
      servers.push(server);
      return httpFrom(await listening(server));
    },
    hono: async () => {
      const server = serve({ fetch: createHonoApp(config()).fetch, port: 0, hostname: '127.0.0.1' }) as Server;
      servers.push(server);
      return httpFrom(await listening(server));
    },
    fetch: async () => {
      const handler = createFetchHandler(config());
      return (path, init, address) =>
        handler(
          new Request(`https://site.example/api/voice-call${path}`, {
            ...init,
            headers: { ...(init.headers as Record<string, string>), 'cf-connecting-ip': address },
          }),
        );
    },
  };

  for (const name of RECIPES) {
    test(`${name}: create a dial, get a token, hang up; the client address reaches the rate limit`, async () => {
      const send = await mounts[name]();
      const created = await call(send, '/dials', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(created.status, 200, JSON.stringify(created.json));
      const { dialId, handle } = created.json as { dialId: string; handle: string };
      assert.equal(typeof dialId, 'string');
      const auth = { authorization: `Bearer ${handle}` };

      const token = await call(send, `/dials/${dialId}/token`, { method: 'POST', headers: auth });
      assert.equal(token.status, 200, JSON.stringify(token.json));
      assert.equal(typeof token.json.serverUrl, 'string');
      assert.equal(typeof token.json.participantToken, 'string');

      const hangup = await call(send, `/dials/${dialId}/hangup`, { method: 'POST', headers: auth });
      assert.equal(hangup.status, 200, JSON.stringify(hangup.json));
      assert.equal(hangup.json.success, true);
      assert.equal((await emulatorDial(emulator, dialId)).status, 'canceled');

      const again = await call(send, '/dials', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(again.status, 429, 'a second dial from the same address is over its limit of 1');
      const other = await call(
        send,
        '/dials',
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' },
        '127.0.0.8',
      );
      assert.equal(other.status, 200, 'another address has its own limit');
    });
  }

  test("the README's recipes are these files, word for word", async () => {
    const readme = readDocs();
    for (const name of RECIPES) {
      const source = await readFile(new URL(`recipes/${name}.ts`, import.meta.url), 'utf8');
      const asPublished = source.replaceAll('../../../src/server/index.js', 'voice-agent-call/server');
      assert.ok(
        readme.includes('```ts\n' + asPublished + '```'),
        `README.md does not quote test/node/recipes/${name}.ts (with 'voice-agent-call/server' as the import)`,
      );
    }
  });
});
