// The service's own dial tokens: what `POST /dials` and `POST /dials/{id}/token` answer. A dial
// token authorises the GraphQL endpoint for one dial and its session; it is NOT a LiveKit token
// (the media credentials come from the `browserDialToken` mutation). JWT HS256 with its own
// random secret, issuer and audience, so neither the media room nor another emulator accepts it.
import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

const ISSUER = 'voice-agent-emulator';
const AUDIENCE = 'voice-agent-emulator/graphql';

export interface DialTokenKeys {
  secret: Uint8Array;
}

export interface DialTokenClaims {
  dialId: string;
  sessionId: string;
}

export function createDialTokenKeys(): DialTokenKeys {
  return { secret: randomBytes(32) };
}

export async function signDialToken(keys: DialTokenKeys, claims: DialTokenClaims, ttlSeconds: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sessionId: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(claims.dialId)
    .setIssuedAt(now)
    .setExpirationTime(now + ttlSeconds)
    .sign(keys.secret);
}

/** The dial and session a token names; throws on a bad, foreign or expired token. */
export async function verifyDialToken(keys: DialTokenKeys, token: string): Promise<DialTokenClaims> {
  const { payload } = await jwtVerify(token, keys.secret, {
    algorithms: ['HS256'],
    issuer: ISSUER,
    audience: AUDIENCE,
    requiredClaims: ['sub', 'exp'],
  });
  const sessionId = payload['sessionId'];
  if (typeof payload.sub !== 'string' || payload.sub === '' || typeof sessionId !== 'string' || sessionId === '') {
    throw new Error('token names no dial');
  }
  return { dialId: payload.sub, sessionId };
}
