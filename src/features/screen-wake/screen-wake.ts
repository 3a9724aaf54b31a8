// The screen stays awake during a call: a phone that locks mid-call suspends the page. A screen
// wake lock (Screen Wake Lock API) from `connecting` until the call ends, taken again when the page
// becomes visible (the browser releases it when the page is hidden). Where the browser has none,
// or refuses one (battery saver, a permissions policy), nothing happens: no error, no console line.

interface WakeLockSentinelLike extends EventTarget {
  readonly released: boolean;
  release(): Promise<void>;
}
interface WakeLockLike {
  request(type: 'screen'): Promise<WakeLockSentinelLike>;
}

function wakeLock(): WakeLockLike | null {
  const lock = (globalThis.navigator as { wakeLock?: WakeLockLike } | undefined)?.wakeLock;
  return lock && typeof lock.request === 'function' ? lock : null;
}

export class ScreenWake {
  #held = false;
  #sentinel: WakeLockSentinelLike | null = null;
  #pending: Promise<void> | null = null;

  /** Holds the screen awake until `release()`; idempotent. */
  hold(): void {
    if (this.#held) return;
    this.#held = true;
    document.addEventListener('visibilitychange', this.#onVisibility);
    this.#request();
  }

  /** Lets the screen sleep again; idempotent. */
  release(): void {
    if (!this.#held) return;
    this.#held = false;
    document.removeEventListener('visibilitychange', this.#onVisibility);
    const sentinel = this.#sentinel;
    this.#sentinel = null;
    sentinel?.release().catch(() => undefined);
  }

  #request(): void {
    const lock = wakeLock();
    if (!lock || this.#pending || document.visibilityState !== 'visible') return;
    if (this.#sentinel && !this.#sentinel.released) return;
    let request: Promise<WakeLockSentinelLike>;
    try {
      request = lock.request('screen');
    } catch {
      return;
    }
    this.#pending = request.then(
      (sentinel) => {
        this.#pending = null;
        // The call ended while the browser granted it.
        if (!this.#held) sentinel.release().catch(() => undefined);
        else this.#sentinel = sentinel;
      },
      () => {
        this.#pending = null;
      },
    );
  }

  readonly #onVisibility = (): void => {
    if (document.visibilityState === 'visible') this.#request();
  };
}
