// One lazily imported chunk (the call chunk, the media chunk, the consent gate), shared by every
// element and session of the page: imported once, on the first `load()`; a failed import (offline,
// a deploy replaced the chunk) is tried again by the next `load()`.

/** A lazily imported chunk: `now()` once it has arrived (else null), `load()` to import it. */
export interface LazyChunk<T> {
  now(): T | null;
  load(): Promise<T>;
}

export function lazyChunk<T>(load: () => Promise<T>): LazyChunk<T> {
  let value: T | null = null;
  let pending: Promise<T> | null = null;
  return {
    now: () => value,
    load() {
      if (!pending) {
        const attempt = load().then((loaded) => (value = loaded));
        pending = attempt;
        attempt.catch(() => {
          if (pending === attempt) pending = null;
        });
      }
      return pending;
    },
  };
}
