// A dial the service ends as it is created (a busy workspace: the emulator's emu-busy) answers the
// create with `ended: true` and no media credentials (issue 40): the browser reads the dial for why
// instead of asking the token route, whose 409 the browser would log as a red console error on
// the site. The companion over real HTTP in front of the real emulator.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import type { CompanionLogEntry } from '../../src/server/log.js';
import { createCompanionHandler } from '../../src/server/handler.js';
import { listen, type CompanionServer } from '../../src/server/node.js';
import { present, SECRET } from './companion-support.js';

describe('a create the service ends at once', () => {
  let emulator: Emulator;
  let companion: CompanionServer;
  const logs: CompanionLogEntry[] = [];

  before(async () => {
    emulator = await startEmulator({ logger: false });
    const handler = createCompanionHandler({
      apiKey: emulator.apiKey,
      baseUrl: emulator.apiUrl,
      agents: { default: 'emu-quick', busy: 'emu-busy' },
      secret: SECRET,
      logger: (entry) => logs.push(entry),
    });
    companion = await listen(handler, { port: 0 });
  });
  after(async () => {
    await companion.close();
    await emulator.close();
  });

  async function create(agent: string): Promise<Record<string, unknown>> {
    const response = await fetch(`${companion.url}/dials`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent }),
    });
    assert.equal(response.status, 200);
    return (await response.json()) as Record<string, unknown>;
  }

  test('emu-busy: 200 with `ended: true`, a handle and no media; its record says RATE_LIMITED', async () => {
    const created = await create('busy');
    assert.equal(created.ended, true);
    assert.equal(created.media, undefined);
    assert.equal(typeof created.handle, 'string');
    const read = await fetch(`${companion.url}/dials/${String(created.dialId)}`, {
      headers: { authorization: `Bearer ${String(created.handle)}` },
    });
    assert.equal(read.status, 200);
    assert.equal(((await read.json()) as { systemResultType?: string }).systemResultType, 'RATE_LIMITED');
    const entry = present(logs.find((line) => line.dialId === created.dialId && line.route === 'POST /dials'));
    assert.match(entry.reason ?? '', /already ended/);
  });

  test('a dial that goes on: media, and no `ended`', async () => {
    const created = await create('default');
    assert.equal(created.ended, undefined);
    assert.notEqual(created.media, undefined);
  });
});
