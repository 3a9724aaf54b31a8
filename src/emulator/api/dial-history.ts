// The bounded history of ended dials (`EndedDialRetention`), with one timer for the oldest one's
// age: a long-running emulator holds no more than that.

/**
 * The bounded history of ended dials: past `maxCount` ended dials the oldest ended one is dropped,
 * and an ended dial is dropped `maxAgeMs` after it ended. A dropped dial answers 404. Dials that
 * have not ended are never dropped. The emulator's own rule: the service's retention is not known.
 */
export interface EndedDialRetention {
  /** Ended dials kept at most. Default 1 000. */
  maxCount?: number;
  /** How long an ended dial is kept after it ended. Default 3 600 000 (an hour). */
  maxAgeMs?: number;
}

export const DEFAULT_ENDED_DIAL_RETENTION: Required<EndedDialRetention> = { maxCount: 1000, maxAgeMs: 3_600_000 };

/** The longest delay setTimeout keeps. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export class EndedDials {
  readonly #retention: Required<EndedDialRetention>;
  /** Lets go of a dial the history drops. */
  readonly #forget: (dialId: string) => void;
  /** Ended dials still kept, by id, in the order they ended, with when. */
  readonly #ended = new Map<string, number>();
  /** Drops the oldest ended dial when it reaches `maxAgeMs`. */
  #sweepTimer: NodeJS.Timeout | null = null;

  constructor(retention: EndedDialRetention | undefined, forget: (dialId: string) => void) {
    this.#retention = { ...DEFAULT_ENDED_DIAL_RETENTION, ...retention };
    this.#forget = forget;
    const { maxCount, maxAgeMs } = this.#retention;
    if (!Number.isInteger(maxCount) || maxCount < 0)
      throw new RangeError('endedDialRetention.maxCount must be a whole number ≥ 0');
    if (!(maxAgeMs >= 0)) throw new RangeError('endedDialRetention.maxAgeMs must be a number ≥ 0');
  }

  /** Keeps an ended dial: past `maxCount` the oldest ended one goes. */
  retire(dialId: string, endedAt: number): void {
    this.#ended.set(dialId, endedAt);
    for (const id of this.#ended.keys()) {
      if (this.#ended.size <= this.#retention.maxCount) break;
      this.#drop(id);
    }
    this.#armSweep();
  }

  close(): void {
    if (this.#sweepTimer) clearTimeout(this.#sweepTimer);
    this.#sweepTimer = null;
  }

  /** One timer, for the oldest ended dial's age; a long-running emulator never holds more. */
  #armSweep(): void {
    if (this.#sweepTimer || !Number.isFinite(this.#retention.maxAgeMs)) return;
    const oldest = this.#ended.values().next();
    if (oldest.done) return;
    const dueMs = oldest.value + this.#retention.maxAgeMs - Date.now();
    this.#sweepTimer = setTimeout(
      () => {
        this.#sweepTimer = null;
        const cutoff = Date.now() - this.#retention.maxAgeMs;
        for (const [id, endedAt] of this.#ended) {
          if (endedAt > cutoff) break;
          this.#drop(id);
        }
        this.#armSweep();
      },
      Math.min(MAX_TIMER_MS, Math.max(0, dueMs)),
    );
    this.#sweepTimer.unref();
  }

  #drop(dialId: string): void {
    this.#ended.delete(dialId);
    this.#forget(dialId);
  }
}
