// The REST dial token is the service's own token for one dial (it authorises GraphQL), never a
// LiveKit token; the media token comes from GraphQL `browserDialToken` and is verified by the same
// code the media server uses (`verifyToken`), refused when tampered, foreign, expired or not yet valid.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { createMediaKeys, signParticipantToken, verifyParticipantToken } from '../../src/emulator/media-token.js';
import { createDialTokenKeys, signDialToken, verifyDialToken } from '../../src/emulator/dial-token.js';
import { graphql, livekitCredentials } from '../support/media-credentials.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON answer, read field by field by the assertions
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
  const piece = pieces[part];
  if (piece === undefined) throw new Error(`the token has no part ${part}`);
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

  test('name the dial and its session, and are not LiveKit tokens: the media verifier refuses them', async () => {
    const created = await post(emu, '/dials', { callAgentId: 'emu-demo', browserCall: true, timeoutMinutes: 10 });
    const { dialToken } = await post(emu, `/dials/${created.dialId}/token`);
    for (const token of [dialToken, created.dialToken]) {
      const claims = decodeJwt(token);
      assert.equal(claims.sub, created.dialId);
      assert.equal(claims['sessionId'], created.sessionId);
      assert.equal(claims['video'], undefined, 'no LiveKit grant');
      const now = Math.floor(Date.now() / 1000);
      assert.ok((claims.exp ?? 0) >= now + 60 + 600, 'valid for the join window and the whole time cap');
      await assert.rejects(emu.verifyToken(token));
    }
  });

  test("browserDialToken's token carries LiveKit's claims for the dial's room and verifies with verifyToken", async () => {
    const created = await post(emu, '/dials', { callAgentId: 'emu-demo', browserCall: true, timeoutMinutes: 10 });
    const { token, url } = await livekitCredentials(emu.graphqlUrl, created.dialToken, created.sessionId);
    assert.equal(url, emu.mediaUrl);
    assert.deepEqual(decodeProtectedHeader(token), { alg: 'HS256', typ: 'JWT' });
    const claims = decodeJwt(token);
    const now = Math.floor(Date.now() / 1000);
    assert.equal(typeof claims.iss, 'string');
    assert.match(claims.sub ?? '', /^caller-/);
    assert.equal(typeof claims.name, 'string');
    assert.ok(claims.nbf !== undefined && claims.nbf <= now && claims.nbf >= now - 60);
    assert.ok((claims.exp ?? 0) >= now + 60 + 600);
    assert.deepEqual(claims.video, {
      room: `dial-${created.dialId}`,
      roomJoin: true,
      canPublish: true,
      canSubscribe: true,
      canPublishData: true,
    });
    assert.deepEqual(await emu.verifyToken(token), { identity: claims.sub, roomName: `dial-${created.dialId}` });
  });

  test('a tampered media token does not verify', async () => {
    const created = await post(emu, '/dials', { callAgentId: 'emu-demo', browserCall: true });
    const { token } = await livekitCredentials(emu.graphqlUrl, created.dialToken, created.sessionId);
    await assert.rejects(emu.verifyToken(tamper(token, 2)));
    await assert.rejects(emu.verifyToken(tamper(token, 1)));
    await assert.rejects(emu.verifyToken('not.a.token'));
    await assert.rejects(emu.verifyToken(''));
  });

  test("another emulator's tokens do not verify: neither its media token nor its dial token", async () => {
    const other = await startEmulator({ logger: false });
    try {
      const created = await post(other, '/dials', { callAgentId: 'emu-demo', browserCall: true });
      const { token } = await livekitCredentials(other.graphqlUrl, created.dialToken, created.sessionId);
      await other.verifyToken(token);
      await assert.rejects(emu.verifyToken(token));
      const refused = await graphql(emu.graphqlUrl, created.dialToken, 'StartDialSession', {
        sessionId: created.sessionId,
      });
      assert.equal(refused.data, undefined);
      assert.equal(refused.errors?.[0]?.extensions?.code, 'UNAUTHENTICATED');
    } finally {
      await other.close();
    }
  });
});

describe('dial-token', () => {
  const keys = createDialTokenKeys();

  test('signs and verifies; refuses an expired, foreign or tampered token', async () => {
    const token = await signDialToken(keys, { dialId: 'd1', sessionId: 's1' }, 60);
    assert.deepEqual(await verifyDialToken(keys, token), { dialId: 'd1', sessionId: 's1' });
    await assert.rejects(
      verifyDialToken(keys, await signDialToken(keys, { dialId: 'd1', sessionId: 's1' }, -5)),
      /exp/,
    );
    await assert.rejects(verifyDialToken(createDialTokenKeys(), token));
    await assert.rejects(verifyDialToken(keys, tamper(token, 1)));
  });

  test('a LiveKit participant token signed with the same secret is still not a dial token', async () => {
    const media = await signParticipantToken(
      { apiKeyName: 'EMU', secret: keys.secret },
      { identity: 'caller-1', name: 'Caller', roomName: 'dial-1', ttlSeconds: 60 },
    );
    await assert.rejects(verifyDialToken(keys, media));
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
      const jwt = new SignJWT(payload)
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(issuer)
        .setNotBefore(now)
        .setExpirationTime(now + 60);
      if (subject !== null) jwt.setSubject(subject);
      return jwt.sign(keys.secret);
    };
    await assert.rejects(verifyParticipantToken(keys, await build({})));
    await assert.rejects(verifyParticipantToken(keys, await build({ video: { room: 'dial-1', roomJoin: false } })));
    await assert.rejects(verifyParticipantToken(keys, await build({ video: { roomJoin: true } })));
    await assert.rejects(
      verifyParticipantToken(keys, await build({ video: { room: 'dial-1', roomJoin: true } }, 'someone-else')),
    );
    await assert.rejects(
      verifyParticipantToken(keys, await build({ video: { room: 'dial-1', roomJoin: true } }, keys.apiKeyName, null)),
    );
    // The same claims, correctly built, do verify: the refusals above are about what they change.
    assert.equal(
      (await verifyParticipantToken(keys, await build({ video: { room: 'dial-1', roomJoin: true } }))).roomName,
      'dial-1',
    );
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
