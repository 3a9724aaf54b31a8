// Dial handles: the visitor's capability for exactly one dial. A handle is
// `base64url(payload) "." base64url(HMAC-SHA256(secret, payload))` with payload
// `{"v":1,"d":dialId,"s":sessionId,"e":expiresAtSeconds}`: the dial's session id travels inside
// the handle, so the token route needs no server-side state (`s` is absent from older handles). WebCrypto only, so it runs in Workers, Deno and Bun.
// The signature is checked with `crypto.subtle.verify` (constant time) before the payload is parsed.

/** Longest handle accepted; anything longer is refused without touching the key. */
const MAX_HANDLE_LENGTH = 1024;

/** What a valid handle says. */
export interface HandleClaims {
  dialId: string;
  /** The dial session the service created with the dial, when the handle carries it. */
  sessionId: string | null;
  expiresAtMs: number;
}

export interface HandleSigner {
  /** A handle for `dialId` (and its session), valid until `expiresAtMs` (rounded down to a second). */
  sign(dialId: string, expiresAtMs: number, sessionId?: string): Promise<string>;
  /** True when `handle` was signed with this secret, names `dialId` and has not expired at `nowMs`. */
  verify(handle: string, dialId: string, nowMs: number): Promise<boolean>;
  /** The claims of a handle that `verify` accepts, else null. */
  read(handle: string, dialId: string, nowMs: number): Promise<HandleClaims | null>;
}

const encoder = new TextEncoder();

export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function base64UrlDecode(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  // Only the canonical spelling: a last character that differs in its unused bits decodes to the
  // same bytes, and one handle must have exactly one string.
  return base64UrlEncode(bytes) === text ? bytes : null;
}

export function createHandleSigner(secret: string): HandleSigner {
  if (!secret) throw new TypeError('createHandleSigner: a secret is required');
  const key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);

  async function read(handle: string, dialId: string, nowMs: number): Promise<HandleClaims | null> {
    if (typeof handle !== 'string' || handle.length > MAX_HANDLE_LENGTH) return null;
    const [encodedPayload, encodedSignature, extra] = handle.split('.');
    if (encodedPayload === undefined || encodedSignature === undefined || extra !== undefined) return null;
    const payload = base64UrlDecode(encodedPayload);
    const signature = base64UrlDecode(encodedSignature);
    if (!payload || !signature || signature.length !== 32) return null;
    if (!(await crypto.subtle.verify('HMAC', await key, signature, payload))) return null;
    let claims: unknown;
    try {
      claims = JSON.parse(new TextDecoder().decode(payload));
    } catch {
      return null;
    }
    if (typeof claims !== 'object' || claims === null) return null;
    const { v, d, s, e } = claims as { v?: unknown; d?: unknown; s?: unknown; e?: unknown };
    if (v !== 1 || d !== dialId || typeof e !== 'number' || e * 1000 <= nowMs) return null;
    return { dialId, sessionId: typeof s === 'string' && s ? s : null, expiresAtMs: e * 1000 };
  }

  return {
    async sign(dialId, expiresAtMs, sessionId) {
      const claims = { v: 1, d: dialId, ...(sessionId ? { s: sessionId } : {}), e: Math.floor(expiresAtMs / 1000) };
      const payload = encoder.encode(JSON.stringify(claims));
      const signature = new Uint8Array(await crypto.subtle.sign('HMAC', await key, payload));
      return `${base64UrlEncode(payload)}.${base64UrlEncode(signature)}`;
    },
    async verify(handle, dialId, nowMs) {
      return (await read(handle, dialId, nowMs)) !== null;
    },
    read,
  };
}

/** A random secret for dev mode: 32 bytes, base64url. */
export function randomSecret(): string {
  return base64UrlEncode(crypto.getRandomValues(new Uint8Array(32)));
}

const hmacKeys = new Map<string, Promise<CryptoKey>>();

/** HMAC-SHA256 of `message` under `secret`, base64url — used to derive scoped idempotency keys. */
export async function hmacBase64Url(secret: string, message: string): Promise<string> {
  // Imported once per secret (there is one per handler), not once per call.
  let key = hmacKeys.get(secret);
  if (!key) {
    if (hmacKeys.size >= 16) hmacKeys.clear();
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    hmacKeys.set(secret, key);
  }
  return base64UrlEncode(new Uint8Array(await crypto.subtle.sign('HMAC', await key, encoder.encode(message))));
}
