// The dial handles the companion signs (src/server/handles.ts): verified for their dial until they
// expire, carrying the session id, refused for any changed byte, one spelling each.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { base64UrlDecode, base64UrlEncode, createHandleSigner } from '../../src/server/handles.js';
import { present } from './companion-support.js';

describe('handles', () => {
  const signer = createHandleSigner('a-secret-that-is-long-enough-for-tests');
  const now = Date.UTC(2026, 0, 1);

  test('a signed handle verifies for its dial until it expires', async () => {
    const handle = await signer.sign('dial-1', now + 60_000);
    assert.match(handle, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    assert.equal(await signer.verify(handle, 'dial-1', now), true);
    assert.equal(await signer.verify(handle, 'dial-1', now + 59_999), true);
    assert.equal(await signer.verify(handle, 'dial-1', now + 60_000), false);
    assert.equal(await signer.verify(handle, 'dial-2', now), false);
  });

  test("a handle carries its dial's session id, so the token route needs no server-side state", async () => {
    const handle = await signer.sign('dial-1', now + 60_000, 'session-9');
    assert.deepEqual(await signer.read(handle, 'dial-1', now), {
      dialId: 'dial-1',
      sessionId: 'session-9',
      expiresAtMs: now + 60_000,
    });
    assert.equal(await signer.read(handle, 'dial-2', now), null);
    assert.equal((await signer.read(await signer.sign('dial-1', now + 60_000), 'dial-1', now))?.sessionId, null);
  });

  test('any changed byte, another secret or garbage is refused', async () => {
    const handle = await signer.sign('dial-1', now + 60_000);
    for (let i = 0; i < handle.length; i++) {
      if (handle[i] === '.') continue;
      const changed = handle.slice(0, i) + (handle[i] === 'A' ? 'B' : 'A') + handle.slice(i + 1);
      assert.equal(await signer.verify(changed, 'dial-1', now), false, `byte ${i}`);
    }
    assert.equal(await createHandleSigner('another-secret-that-is-long-enough!!').verify(handle, 'dial-1', now), false);
    for (const garbage of ['', '.', 'a.b', 'a.b.c', '!!.??', '\u0000.\u0000', 'x'.repeat(2000)]) {
      assert.equal(await signer.verify(garbage, 'dial-1', now), false, garbage);
    }
  });

  test('base64url round-trips and refuses non-alphabet input', () => {
    const bytes = new Uint8Array([0, 1, 250, 251, 252, 253, 254, 255]);
    assert.deepEqual(base64UrlDecode(base64UrlEncode(bytes)), bytes);
    assert.equal(base64UrlDecode('ab+c'), null);
    assert.equal(base64UrlDecode('a'), null);
  });

  test('a handle has one spelling: a last character that differs only in unused bits is refused', async () => {
    const now = Date.now();
    const handle = await signer.sign('dial-1', now + 60_000);
    const [payload, signature] = handle.split('.') as [string, string];
    // 32 bytes are 43 characters; the last one carries 4 bits and 2 unused ones.
    const last = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.indexOf(present(signature.at(-1)));
    const sibling = present('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[last ^ 1]);
    const respelled = `${payload}.${signature.slice(0, -1)}${sibling}`;
    assert.equal(base64UrlDecode(present(respelled.split('.')[1])), null);
    assert.equal(await signer.verify(handle, 'dial-1', now), true);
    assert.equal(await signer.verify(respelled, 'dial-1', now), false);
  });
});
