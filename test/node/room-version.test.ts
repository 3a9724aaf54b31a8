// The loopback room builds livekit-client's signal messages with @livekit/protocol. The two are
// tightly coupled (offer-with-join, single PC, data tracks…): this fails when they drift apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

const modules = new URL('../../node_modules/', import.meta.url);

async function version(path: URL): Promise<string> {
  return (JSON.parse(await readFile(path, 'utf8')) as { version: string }).version;
}

test('the installed @livekit/protocol is exactly the version livekit-client depends on', async () => {
  const client = JSON.parse(await readFile(new URL('livekit-client/package.json', modules), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const wanted = client.dependencies['@livekit/protocol'];
  assert.match(wanted ?? '', /^\d+\.\d+\.\d+$/, 'livekit-client pins an exact protocol version');
  const usedByRoom = await version(new URL('@livekit/protocol/package.json', modules));
  assert.equal(usedByRoom, wanted, 'the room must build messages with the protocol version livekit-client pins');
  // A nested copy under livekit-client would mean the client and the room speak different versions.
  const nested = new URL('livekit-client/node_modules/@livekit/protocol/package.json', modules);
  if (existsSync(nested))
    assert.equal(await version(nested), usedByRoom, 'livekit-client resolves another protocol copy');
});
