// The dial token is a LiveKit access token for the dial's room, verified by the same code the
// media server uses (`verifyToken`), and refused when tampered, foreign, expired or not yet valid.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { createMediaKeys, signParticipantToken, verifyParticipantToken } from '../../src/emulator/media-token.js';

async function post(emu: Emulator, path: string, body?: unknown): Promise<any> {
  const response = await fetch(emu.apiUrl + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.equal(response.status, 200);
  return response.json();
}

/** Flips one character of the signature (or payload) so the token no longer matches its MAC. */
function tamper(token: string, part: 1 | 2): string {
  const pieces = token.split('.');
  const piece = pieces[part]!;
  const index = Math.floor(piece.length / 2);
  pieces[part] = piece.slice(0, index) + (piece[index] === 'A' ? 'B' : 'A') + piece.slice(index + 1);
  return pieces.join('.');
}

describe('dial tokens from the REST API', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ logger: false });
  });
  after(() => emu.close());

  test("carry LiveKit's claims for the dial's room and verify with verifyToken", async () => {
    const { dialId } = await post(emu, '/dials', { callAgentId: 'emu-demo', browserCall: true, timeoutMinutes: 10 });
    const { dialToken, url } = await post(emu, `/dials/${dialId}/token`);
    assert.equal(url, emu.mediaUrl);
    assert.deepEqual(decodeProtectedHeader(dialToken), { alg: 'HS256', typ: 'JWT' });
    const claims = decodeJwt(dialToken);
    const now = Math.floor(Date.now() / 1000);
    assert.equal(typeof claims.iss, 'string');
    assert.match(claims.sub ?? '', /^caller-/);
    assert.equal(typeof claims.name, 'string');
    assert.ok(claims.nbf! <= now && claims.nbf! >= now - 60);
    // Valid for the join window and the whole time cap.
    assert.ok(claims.exp! >= now + 60 + 600);
    assert.deepEqual(claims.video, { room: `dial-${dialId}`, roomJoin: true, canPublish: true, canSubscribe: true, canPublishData: true });
    assert.deepEqual(await emu.verifyToken(dialToken), { identity: claims.sub, roomName: `dial-${dialId}` });
  });

  test('the token answered by POST /dials verifies too, for the same room', async () => {
    const { dialId, dialToken } = await post(emu, '/dials', { callAgentId: 'emu-quick', browserCall: true });
    assert.equal((await emu.verifyToken(dialToken)).roomName, `dial-${dialId}`);
  });

  test('a tampered token does not verify', async () => {
    const { dialId } = await post(emu, '/dials', { callAgentId: 'emu-demo', browserCall: true });
    const { dialToken } = await post(emu, `/dials/${dialId}/token`);
    await assert.rejects(emu.verifyToken(tamper(dialToken, 2)));
    await assert.rejects(emu.verifyToken(tamper(dialToken, 1)));
    await assert.rejects(emu.verifyToken('not.a.token'));
    await assert.rejects(emu.verifyToken(''));
  });

  test("another emulator's token does not verify", async () => {
    const other = await startEmulator({ logger: false });
    try {
      const { dialId } = await post(other, '/dials', { callAgentId: 'emu-demo', browserCall: true });
      const { dialToken } = await post(other, `/dials/${dialId}/token`);
      await other.verifyToken(dialToken);
      await assert.rejects(emu.verifyToken(dialToken));
    } finally {
      await other.close();
    }
  });
});

describe('media-token', () => {
  const keys = createMediaKeys();
  const claims = { identity: 'caller-1', name: 'Caller', roomName: 'dial-1', ttlSeconds: 60 };

  test('signs and verifies a participant token', async () => {
    const token = await signParticipantToken(keys, claims);
    assert.deepEqual(await verifyParticipantToken(keys, token), { identity: 'caller-1', roomName: 'dial-1' });
  });

  test('refuses an expired token', async () => {
    const token = await signParticipantToken(keys, { ...claims, ttlSeconds: -5 });
    await assert.rejects(verifyParticipantToken(keys, token), /exp/);
  });

  test('refuses a token that is not yet valid', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ video: { room: 'dial-1', roomJoin: true } })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(keys.apiKeyName)
      .setSubject('caller-1')
      .setNotBefore(now + 600)
      .setExpirationTime(now + 1200)
      .sign(keys.secret);
    await assert.rejects(verifyParticipantToken(keys, token), /nbf/);
  });

  test('refuses a token without a room-join grant or identity, or from another issuer', async () => {
    const now = Math.floor(Date.now() / 1000);
    const build = (payload: Record<string, unknown>, issuer = keys.apiKeyName, subject: string | null = 'caller-1') => {
      const jwt = new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).setIssuer(issuer).setNotBefore(now).setExpirationTime(now + 60);
      if (subject !== null) jwt.setSubject(subject);
      return jwt.sign(keys.secret);
    };
    await assert.rejects(verifyParticipantToken(keys, await build({})));
    await assert.rejects(verifyParticipantToken(keys, await build({ video: { room: 'dial-1', roomJoin: false } })));
    await assert.rejects(verifyParticipantToken(keys, await build({ video: { roomJoin: true } })));
    await assert.rejects(verifyParticipantToken(keys, await build({ video: { room: 'dial-1', roomJoin: true } }, 'someone-else')));
    await assert.rejects(verifyParticipantToken(keys, await build({ video: { room: 'dial-1', roomJoin: true } }, keys.apiKeyName, null)));
    // The same claims, correctly built, do verify: the refusals above are about what they change.
    assert.equal((await verifyParticipantToken(keys, await build({ video: { room: 'dial-1', roomJoin: true } }))).roomName, 'dial-1');
  });

  test('refuses a token signed with another algorithm or key', async () => {
    const other = createMediaKeys();
    const foreign = await signParticipantToken({ ...other, apiKeyName: keys.apiKeyName }, claims);
    await assert.rejects(verifyParticipantToken(keys, foreign));
    const [, payload] = (await signParticipantToken(keys, claims)).split('.');
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${payload}.`;
    await assert.rejects(verifyParticipantToken(keys, unsigned));
  });
});
