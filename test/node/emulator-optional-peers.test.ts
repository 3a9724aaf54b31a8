// The emulator's room and GraphQL packages are optional peers: a missing one gets a message that names it
// and says how to install them, instead of a bare "module not found".
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { explainMissingPeer } from '../../src/emulator/optional-peers.js';

/** The error Node really throws for a module importing `name` where it is not installed. */
async function realImportError(name: string): Promise<unknown> {
  const dir = await mkdtemp(join(tmpdir(), 'vac-peers-'));
  try {
    await writeFile(join(dir, 'probe.mjs'), `import ${JSON.stringify(name)};\n`);
    await import(pathToFileURL(join(dir, 'probe.mjs')).href);
  } catch (error) {
    return error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  throw new Error(`importing ${name} from an empty folder unexpectedly worked`);
}

for (const name of ['ws', '@livekit/protocol', '@roamhq/wrtc', 'graphql', 'graphql-ws']) {
  test(`a missing ${name} is named, with the install command`, async () => {
    const original = await realImportError(name);
    const explained = explainMissingPeer(original) as Error;
    assert.notEqual(explained, original);
    assert.match(explained.message, new RegExp(`missing: ${name.replace('/', '\\/')}`));
    assert.match(
      explained.message,
      /npm install --save-dev -E ws@8\.23\.0 @livekit\/protocol@1\.52\.1 @roamhq\/wrtc@0\.10\.0 graphql@17\.1\.0 graphql-ws@6\.4\.2/,
    );
    assert.equal(explained.cause, original);
  });
}

test('other failures pass through unchanged', async () => {
  const other = await realImportError('left-pad-not-a-peer');
  assert.equal(explainMissingPeer(other), other);
  const plain = new TypeError('boom');
  assert.equal(explainMissingPeer(plain), plain);
});
