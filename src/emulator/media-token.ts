// LiveKit access tokens for the emulator's media rooms: JWT HS256 with LiveKit's claims
// (`iss` = API key name, `sub` = identity, `video` grant), signed with a secret that is random
// per emulator instance, so a token from one emulator never opens a room of another.
import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

export interface MediaKeys {
  /** LiveKit's "API key": the token's `iss`. Not a secret. */
  apiKeyName: string;
  secret: Uint8Array;
}

export interface ParticipantClaims {
  identity: string;
  name: string;
  roomName: string;
  ttlSeconds: number;
}

export interface VerifiedParticipant {
  identity: string;
  roomName: string;
}

/** LiveKit's `VideoGrant`, the part the emulator issues and checks. */
interface VideoGrant {
  room: string;
  roomJoin: boolean;
  canPublish: boolean;
  canSubscribe: boolean;
  canPublishData: boolean;
}

export function createMediaKeys(): MediaKeys {
  return { apiKeyName: `EMU${randomBytes(6).toString('hex')}`, secret: randomBytes(32) };
}

export async function signParticipantToken(keys: MediaKeys, claims: ParticipantClaims): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const video: VideoGrant = {
    room: claims.roomName,
    roomJoin: true,
    canPublish: true,
    canSubscribe: true,
    canPublishData: true,
  };
  return new SignJWT({ name: claims.name, video })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(keys.apiKeyName)
    .setSubject(claims.identity)
    .setJti(claims.identity)
    .setNotBefore(now)
    .setExpirationTime(now + claims.ttlSeconds)
    .sign(keys.secret);
}

/**
 * Checks the signature, `iss`, `exp`, `nbf` and the room-join grant; throws on any bad token.
 * The media server gets this (bound to its emulator's keys) as `verifyToken`.
 */
export async function verifyParticipantToken(keys: MediaKeys, token: string): Promise<VerifiedParticipant> {
  const { payload } = await jwtVerify(token, keys.secret, {
    algorithms: ['HS256'],
    issuer: keys.apiKeyName,
    requiredClaims: ['sub', 'exp', 'nbf'],
  });
  const video = payload['video'] as Partial<VideoGrant> | undefined;
  if (!video || video.roomJoin !== true || typeof video.room !== 'string' || video.room === '') {
    throw new Error('token carries no room-join grant');
  }
  if (typeof payload.sub !== 'string' || payload.sub === '') throw new Error('token carries no identity');
  return { identity: payload.sub, roomName: video.room };
}
