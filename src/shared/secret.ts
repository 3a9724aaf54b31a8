// One secret comparison for the servers here (the emulator's API key on REST and GraphQL; any
// companion check of a presented secret): both sides hashed with SHA-256, and the fixed-length
// digests compared in constant time, so the time taken says nothing of where or whether a guess
// differs, nor of the secret's length. Web Crypto only: it runs in Node, Workers, Deno and Bun.

const encoder = new TextEncoder();

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

/** Equal bytes, in time that depends only on the length (as node:crypto's `timingSafeEqual`). */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return difference === 0;
}

/** A check of presented secrets against `secret`: resolves true for `secret` itself, false for anything else. */
export function secretCheck(secret: string): (given: string) => Promise<boolean> {
  const expected = digest(secret);
  return async (given) => timingSafeEqual(await digest(given), await expected);
}
