// The stderr line for a caller's data packet the room ignores, throttled per participant: the
// first of a burst is written at once, the rest are counted and written as one line per interval,
// so a flood of bad packets costs the log a line a period, not a line a packet.

export class IgnoredPacketLog {
  readonly #write: (line: string) => void;
  readonly #intervalMs: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #count = 0;
  #lastReason = '';

  /** `write` gets each line without its newline; `intervalMs` is the shortest time between two lines. */
  constructor(write: (line: string) => void, intervalMs: number) {
    this.#write = write;
    this.#intervalMs = intervalMs;
  }

  /** One packet ignored, for `reason`. */
  note(reason: string): void {
    if (this.#timer === undefined) {
      this.#write(`ignored a data packet: ${reason}`);
      this.#startInterval();
      return;
    }
    this.#count += 1;
    this.#lastReason = reason;
  }

  /** Writes what is still counted and stops the timer (the participant left). */
  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#flush();
  }

  #startInterval(): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      // A flood that goes on keeps to one line per interval; a quiet interval ends the burst.
      if (this.#flush()) this.#startInterval();
    }, this.#intervalMs);
    this.#timer.unref();
  }

  /** Writes the counted packets, if any; says whether there were. */
  #flush(): boolean {
    if (this.#count === 0) return false;
    const interval =
      this.#intervalMs < 1000 ? `${this.#intervalMs} ms` : `${Math.round(this.#intervalMs / 100) / 10} s`;
    this.#write(
      `ignored ${this.#count} more data packet${this.#count === 1 ? '' : 's'} within ${interval} (the last: ${this.#lastReason})`,
    );
    this.#count = 0;
    return true;
  }
}
