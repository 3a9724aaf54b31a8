// Finds the caller's turns in the microphone's level, 10 ms frame by frame. There is no speech
// recognition: a turn is voice above a threshold, ended by a stretch of quiet (the hangover) or by
// a maximum length, since Chromium's fake microphone never stops beeping.

export interface TurnOptions {
  /** Peak level (0…1) above which a frame counts as voice. */
  voiceThreshold: number;
  /** Quiet that ends a turn. Longer than the gaps between words (and the fake mic's beeps). */
  hangoverMs: number;
  /** A turn is cut here even when the voice goes on. */
  maxTurnMs: number;
}

export const DEFAULT_TURN_OPTIONS: TurnOptions = { voiceThreshold: 0.02, hangoverMs: 700, maxTurnMs: 2000 };

export class TurnDetector {
  readonly #options: TurnOptions;
  #turnStart: number | null = null;
  #lastVoice: number;

  constructor(options: TurnOptions, nowMs: number) {
    this.#options = options;
    this.#lastVoice = nowMs;
  }

  get inTurn(): boolean {
    return this.#turnStart !== null;
  }

  /** Forgets everything before `nowMs` (the agent was talking, nobody was listening). */
  reset(nowMs: number): void {
    this.#turnStart = null;
    this.#lastVoice = nowMs;
  }

  /** Feeds one frame; returns 'started' when it begins a turn. */
  frame(peak: number, nowMs: number): 'started' | undefined {
    if (peak < this.#options.voiceThreshold) return undefined;
    this.#lastVoice = nowMs;
    if (this.#turnStart !== null) return undefined;
    this.#turnStart = nowMs;
    return 'started';
  }

  /** Checks the clock; returns the length of a turn that just ended. */
  tick(nowMs: number): number | undefined {
    const start = this.#turnStart;
    if (start === null) return undefined;
    if (nowMs - start >= this.#options.maxTurnMs) return this.#end(start, start + this.#options.maxTurnMs);
    // A turn lasts to the end of its last voiced frame.
    if (nowMs - this.#lastVoice >= this.#options.hangoverMs) return this.#end(start, this.#lastVoice + 10);
    return undefined;
  }

  /** Ends a turn under way at `nowMs` (the listener stopped waiting); its length so far. */
  cut(nowMs: number): number | undefined {
    const start = this.#turnStart;
    return start === null ? undefined : this.#end(start, nowMs);
  }

  /** How long the microphone has had no voice (muted and absent frames count as quiet). */
  silentForMs(nowMs: number): number {
    return this.#turnStart !== null ? 0 : nowMs - this.#lastVoice;
  }

  #end(startMs: number, endMs: number): number {
    this.#turnStart = null;
    return Math.max(0, endMs - startMs);
  }
}
