// Walks any cursor listing: asks for the first page, then hands each page's `cursor` back
// verbatim until it is null. Works for `{data, cursor}` pages and the voices' `{voices, cursor}`.
import { ServiceError } from './service-error.js';
import type { ListOptions, Page } from './types/pagination.js';
import type { VoicePage } from './types/voices.js';

export interface PaginateOptions {
  /** Page size asked for (the service's default is 100). */
  limit?: number;
  /** Stops the walk between pages (and is passed to each page's call). */
  signal?: AbortSignal;
}

type Lister<T, O extends ListOptions> = (
  options: O,
  call: { signal?: AbortSignal },
) => Promise<Page<T> | (VoicePage & { voices: T[] })>;

/**
 * Every item of a cursor listing, page by page, e.g.
 * `for await (const agent of paginate((o, c) => api.agents.list(o, c))) …`.
 * `filters` are the listing's other query options (a voice `name`, a job `status`, …).
 */
export async function* paginate<T, O extends ListOptions = ListOptions>(
  list: Lister<T, O>,
  options: PaginateOptions = {},
  filters: Omit<O, 'limit' | 'cursor'> = {} as Omit<O, 'limit' | 'cursor'>,
): AsyncGenerator<T, void, undefined> {
  let cursor: string | null = null;
  const seen = new Set<string>();
  do {
    if (options.signal?.aborted)
      throw new ServiceError('aborted', 'the listing walk was aborted', { cause: options.signal.reason });
    const query = {
      ...filters,
      ...(options.limit === undefined ? {} : { limit: options.limit }),
      ...(cursor === null ? {} : { cursor }),
    } as O;
    const page = await list(query, options.signal ? { signal: options.signal } : {});
    yield* 'voices' in page ? page.voices : page.data;
    cursor = page.cursor ?? null;
    // A service that hands back a cursor it already gave would loop forever.
    if (cursor !== null && seen.has(cursor))
      throw new ServiceError('invalid_response', 'the service repeated a pagination cursor', { status: 200 });
    if (cursor !== null) seen.add(cursor);
  } while (cursor !== null);
}
