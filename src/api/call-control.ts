// One call's clock and cancellation, and the calls following each caller's signal. Web APIs only.

/**
 * One call's clock and cancellation: it stops the call when the time is up or the caller's signal
 * fires. undici reads it as its signal (`aborted`, `reason`, one `abort` listener added and
 * removed); a fetch gets an AbortController it aborts. The timer and the caller's signal call its
 * methods, so a call makes no closure, EventTarget or Event of its own (they were a third of a
 * call's CPU here).
 */
export class CallControl {
  aborted = false;
  readonly reason = undefined;
  timedOut = false;
  readonly #caller: AbortSignal | undefined;
  #listener: (() => void) | null = null;
  #controller: AbortController | null = null;

  constructor(caller: AbortSignal | undefined) {
    this.#caller = caller;
  }

  /** Called by the timer. */
  static timeUp(control: CallControl): void {
    control.timedOut = true;
    control.#stop();
  }

  /** The caller's signal fired. */
  callerAborted(): void {
    this.#stop();
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    this.#listener = listener;
  }

  removeEventListener(): void {
    this.#listener = null;
  }

  /** For a fetch: a signal aborted with a TimeoutError, or the caller's reason. */
  fetchSignal(): AbortSignal {
    this.#controller = new AbortController();
    return this.#controller.signal;
  }

  #stop(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.#controller?.abort(this.timedOut ? new DOMException('timed out', 'TimeoutError') : this.#caller?.reason);
    const listener = this.#listener;
    this.#listener = null;
    listener?.();
  }
}

/**
 * The calls following each caller's signal. A signal gets one listener of its own, however many
 * calls it sees (the Node adapter hands one per connection to the requests on it); a call joins
 * and leaves the set, which costs far less than adding and removing an EventTarget listener.
 */
const following = new WeakMap<AbortSignal, Set<CallControl>>();

export function follow(signal: AbortSignal, control: CallControl): void {
  let calls = following.get(signal);
  if (calls === undefined) {
    const created = new Set<CallControl>();
    calls = created;
    following.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        for (const call of created) call.callerAborted();
      },
      { once: true },
    );
  }
  calls.add(control);
}

/** The call leaves its caller's signal once it has ended. */
export function unfollow(signal: AbortSignal, control: CallControl): void {
  following.get(signal)?.delete(control);
}
