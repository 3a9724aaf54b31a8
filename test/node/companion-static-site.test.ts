// The README's same-origin recipe for a plain static site (test/node/recipes/static-site.mjs,
// quoted word for word): a Node server that serves the page and the CDN files and passes
// /api/voice-call/… to the companion process, which trusts it as a proxy. A page on the site
// creates a dial, gets a token and hangs up; another site cannot; nothing above the root is served.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { createCompanionHandler, listen, type CompanionServer } from '../../src/server/index.js';
import { SECRET } from './companion-support.js';
import { readDocs } from '../../scripts/docs.js';

type CreateStaticSite = (options: { root: string; companionUrl: string; prefix?: string }) => Server;

describe('a plain static site with the companion behind it, same-origin', () => {
  let emulator: Emulator;
  let companion: CompanionServer;
  let site: Server;
  let origin: string;
  let root: string;

  before(async () => {
    emulator = await startEmulator({ logger: false });
    companion = await listen(
      createCompanionHandler({
        apiKey: emulator.apiKey,
        baseUrl: emulator.apiUrl,
        agents: { default: 'emu-demo' },
        secret: SECRET,
        trustProxy: true,
        logger: false,
      }),
    );
    root = await mkdtemp(join(tmpdir(), 'vac-static-'));
    await mkdir(join(root, 'voice-agent-call'));
    await writeFile(
      join(root, 'index.html'),
      '<script type="module" src="/voice-agent-call/voice-agent-call.js"></script><voice-agent-call endpoint="/api/voice-call"></voice-agent-call>',
    );
    await writeFile(join(root, 'voice-agent-call', 'voice-agent-call.js'), 'export {};');
    // The recipe is plain JavaScript for a site without a build step; TypeScript sees only its shape.
    const recipe = './recipes/static-site.mjs' as string;
    const { createStaticSite } = (await import(recipe)) as { createStaticSite: CreateStaticSite };
    site = createStaticSite({ root, companionUrl: companion.url }).listen(0, '127.0.0.1');
    await once(site, 'listening');
    origin = `http://localhost:${(site.address() as AddressInfo).port}`;
  });

  after(async () => {
    site.closeAllConnections();
    site.close();
    await companion.close();
    await emulator.close();
    await rm(root, { recursive: true, force: true });
  });

  test('serves the page and the widget files with the types a browser needs', async () => {
    const page = await fetch(`${origin}/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await page.text(), /<voice-agent-call endpoint="\/api\/voice-call">/);
    const script = await fetch(`${origin}/voice-agent-call/voice-agent-call.js`);
    assert.equal(script.headers.get('content-type'), 'text/javascript', 'module scripts need a JavaScript type');
    await script.body?.cancel();
    for (const path of ['/missing.js', '/..%2f..%2fetc%2fpasswd', '/%E0%A4%A']) {
      const answer = await fetch(`${origin}${path}`);
      assert.ok([400, 404].includes(answer.status), `${path} answers ${answer.status}`);
      await answer.body?.cancel();
    }
  });

  test("a page on the site creates a dial, gets a token and hangs up; another site's page is refused", async () => {
    const json = { 'content-type': 'application/json', origin };
    const created = await fetch(`${origin}/api/voice-call/dials`, { method: 'POST', headers: json, body: '{}' });
    assert.equal(created.status, 200, await created.clone().text());
    const { dialId, handle } = (await created.json()) as { dialId: string; handle: string };
    const auth = { authorization: `Bearer ${handle}`, origin };
    const token = await fetch(`${origin}/api/voice-call/dials/${dialId}/token`, { method: 'POST', headers: auth });
    assert.equal(token.status, 200, await token.clone().text());
    assert.ok(((await token.json()) as { participantToken?: string }).participantToken);
    const hangup = await fetch(`${origin}/api/voice-call/dials/${dialId}/hangup`, { method: 'POST', headers: auth });
    assert.equal(hangup.status, 200);
    assert.deepEqual(await hangup.json(), { success: true });

    const elsewhere = await fetch(`${origin}/api/voice-call/dials`, {
      method: 'POST',
      headers: { ...json, origin: 'http://other.example' },
      body: '{}',
    });
    assert.equal(elsewhere.status, 403);
    assert.equal(((await elsewhere.json()) as { error: { code: string } }).error.code, 'origin_not_allowed');
  });

  test('the README quotes the recipe word for word', async () => {
    const readme = readDocs();
    const source = await readFile(new URL('recipes/static-site.mjs', import.meta.url), 'utf8');
    assert.ok(
      readme.includes('```js\n' + source + '```'),
      'README.md does not quote test/node/recipes/static-site.mjs',
    );
  });
});
