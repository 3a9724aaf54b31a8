// Listings: the page envelope most of them answer, and the options every listing takes.

/** The usual listing envelope. Pass `cursor` back verbatim for the next page; null on the last. */
export interface Page<T> {
  data: T[];
  cursor: string | null;
}

/**
 * `limit` (the seed: default 100, maximum not shown; the emulator answers at most 100) and the
 * opaque `cursor` of the previous page, passed back verbatim to the same listing with the same filters.
 */
export interface ListOptions {
  limit?: number;
  cursor?: string | null;
}
