// Idempotent `POST /dials`. The seed says only that the service answers 409 when the key is
// already in use; what a repeat gets is the emulator's choice, one of two modes:
// - `replay` (default): a repeat with the same body gets the first answer (same dial); a repeat
//   with another body is a 409.
// - `strict`: every repeat is a 409, as the seed's sentence reads.
// Every 409 names the first dial (`dialId`, `sessionId`): the seed does not show the body of its
// 409 (CreateDialConflictOutput), so these fields are the emulator's.
// The first request with a key stores its answer as a promise *before* any await, so concurrent
// repeats (which Node runs one at a time up to their first await) all find it.
import { ApiError } from './errors.js';

export type IdempotencyMode = 'replay' | 'strict';

export const IDEMPOTENCY_MODES: readonly IdempotencyMode[] = ['replay', 'strict'];

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** JSON with object keys sorted at every level: a body's fingerprint, whatever its key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

interface Entry<T> {
  fingerprint: string;
  answer: Promise<T>;
  dialId: string;
  sessionId: string;
}

export class IdempotencyCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  readonly mode: IdempotencyMode;

  constructor(mode: IdempotencyMode = 'replay') {
    this.mode = mode;
  }

  /**
   * Runs `create` once per key. `create` must register the dial synchronously and return its ids
   * with a promise of the answer.
   */
  run(
    key: string,
    fingerprint: string,
    create: () => { dialId: string; sessionId: string; answer: Promise<T> },
  ): Promise<T> {
    const existing = this.entries.get(key);
    if (existing) {
      if (this.mode === 'strict' || existing.fingerprint !== fingerprint) {
        const why = this.mode === 'strict' ? 'is already in use' : 'was already used, with another body,';
        return Promise.reject(
          new ApiError('idempotency_conflict', `this idempotency key ${why} for dial ${existing.dialId}`, {
            dialId: existing.dialId,
            sessionId: existing.sessionId,
          }),
        );
      }
      return existing.answer;
    }
    const { dialId, sessionId, answer } = create();
    this.entries.set(key, { fingerprint, answer, dialId, sessionId });
    // A failed first attempt must not pin the key to an error forever.
    answer.catch(() => {
      if (this.entries.get(key)?.answer === answer) this.entries.delete(key);
    });
    return answer;
  }

  /** Lets go of the key that created this dial (the dial history dropped it). */
  forget(dialId: string): void {
    for (const [key, entry] of this.entries) if (entry.dialId === dialId) this.entries.delete(key);
  }
}
