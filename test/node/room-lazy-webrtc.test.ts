// REST and GraphQL users of the emulator never load libwebrtc: it is imported on the first media session.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { startEmulator } from '../../src/emulator/index.js';
import { livekitCredentials } from '../support/media-credentials.js';

async function libwebrtcLoaded(pid: number | 'self'): Promise<boolean> {
  // The native binding shows up among the process's mapped files once loaded (Linux).
  return (await readFile(`/proc/${pid}/maps`, 'utf8')).includes('wrtc');
}

test('the emulator serves REST, GraphQL and the room HTTP routes without loading libwebrtc', async () => {
  const emulator = await startEmulator({ logger: false });
  try {
    const headers = { authorization: `Bearer ${emulator.apiKey}`, 'content-type': 'application/json' };
    const created = await fetch(`${emulator.apiUrl}/dials`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ callAgentId: 'emu-demo', browserCall: true }),
    });
    const { dialId, sessionId } = (await created.json()) as { dialId: string; sessionId: string };
    const tokenAnswer = await fetch(`${emulator.apiUrl}/dials/${dialId}/token`, { method: 'POST', headers });
    const { dialToken } = (await tokenAnswer.json()) as { dialToken: string };
    const { token } = await livekitCredentials(emulator.graphqlUrl, dialToken, sessionId);
    const http = emulator.mediaUrl.replace(/^ws:/, 'http:');
    assert.equal((await fetch(`${http}/`, { method: 'HEAD' })).status, 200);
    assert.equal((await fetch(`${http}/rtc/v1/validate?access_token=${token}`)).status, 200);
    assert.equal(await libwebrtcLoaded('self'), false, 'the emulator process never loads it');
    const { pid } = emulator.health().media;
    assert.ok(pid !== null, 'the media room process runs');
    assert.equal(await libwebrtcLoaded(pid), false, 'its media room process has not yet');
  } finally {
    await emulator.close();
  }
});
