// A push-fed async iterator: what a subscription resolver returns. The source pushes events and
// ends it; the subscriber's `return()` (the client unsubscribed or went away) runs `onClose`, so
// a watcher is removed exactly once, whoever stops first.
export class EventStream<T> implements AsyncIterableIterator<T> {
  readonly #queue: T[] = [];
  readonly #onClose: () => void;
  #wake: ((result: IteratorResult<T, undefined>) => void) | undefined;
  #ended = false;

  constructor(onClose: () => void) {
    this.#onClose = onClose;
  }

  push(value: T): void {
    if (this.#ended) return;
    const wake = this.#wake;
    this.#wake = undefined;
    if (wake) wake({ value, done: false });
    else this.#queue.push(value);
  }

  /** No more events; those already pushed are still delivered. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#onClose();
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.#queue.length > 0) return Promise.resolve({ value: this.#queue.shift() as T, done: false });
    if (this.#ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.#wake = resolve));
  }

  return(): Promise<IteratorResult<T, undefined>> {
    this.#queue.length = 0;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
