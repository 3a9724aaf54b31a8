// Idempotent `POST /dials`: the first request with a key stores its answer as a promise *before*
// any await, so concurrent repeats (which Node runs one at a time up to their first await) all
// find it and share one dial. A repeat with another body is a conflict naming that dial.
import { ApiError } from './errors.js';

interface Entry<T> {
  fingerprint: string;
  answer: Promise<T>;
  dialId: string;
}

export class IdempotencyCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  /**
   * Runs `create` once per key. `create` must register the dial synchronously and return its id
   * with a promise of the answer; a repeat with the same fingerprint gets the same promise.
   */
  run(key: string, fingerprint: string, create: () => { dialId: string; answer: Promise<T> }): Promise<T> {
    const existing = this.entries.get(key);
    if (existing) {
      if (existing.fingerprint !== fingerprint) {
        return Promise.reject(
          new ApiError(409, 'idempotency_conflict', `this idempotency key was already used, with another body, for dial ${existing.dialId}`, {
            dialId: existing.dialId,
          }),
        );
      }
      return existing.answer;
    }
    const { dialId, answer } = create();
    this.entries.set(key, { fingerprint, answer, dialId });
    // A failed first attempt must not pin the key to an error forever.
    answer.catch(() => {
      if (this.entries.get(key)?.answer === answer) this.entries.delete(key);
    });
    return answer;
  }
}
