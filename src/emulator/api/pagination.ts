// Pagination. The seed: `limit` (default 100; its maximum is not shown) and an opaque `cursor`
// handed back verbatim. The emulator's own choices: `limit` is capped at MAX_PAGE_LIMIT (a larger
// one answers that many, no error), and a cursor is signed and names the listing that issued it
// (path and filters), so a made-up cursor, or one carried over from another listing, is a 400.
import { createHmac, randomBytes } from 'node:crypto';
import { badRequest } from './errors.js';
import { timingSafeEqual } from '../../shared/secret.js';

/** The emulator's cap (the seed shows no maximum). */
export const MAX_PAGE_LIMIT = 100;

/** The seed's default page size. */
export const DEFAULT_PAGE_LIMIT = 100;

/** Which listing a page belongs to: the request path and its query (filters, limit, cursor). */
export interface Listing {
  path: string;
  query: URLSearchParams;
}

// Per process: a cursor outlives neither the emulator process nor a change of listing.
const cursorKey = randomBytes(32);

/** The listing a cursor continues: the path and every filter, not `limit` or `cursor`. */
function listingKey({ path, query }: Listing): string {
  const filters = [...query.entries()]
    .filter(([name]) => name !== 'limit' && name !== 'cursor')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${path}?${new URLSearchParams(filters).toString()}`;
}

function mac(payload: string): Buffer {
  return createHmac('sha256', cursorKey).update(payload).digest().subarray(0, 16);
}

function encodeCursor(listing: Listing, offset: number): string {
  const payload = Buffer.from(JSON.stringify({ l: listingKey(listing), o: offset })).toString('base64url');
  return `${payload}.${mac(payload).toString('base64url')}`;
}

function decodeCursor(cursor: string, listing: Listing): number {
  const [payload, signature, extra] = cursor.split('.');
  const given = Buffer.from(signature ?? '', 'base64url');
  const expected = payload === undefined ? Buffer.alloc(0) : mac(payload);
  if (extra !== undefined || payload === undefined || !timingSafeEqual(given, expected)) {
    throw badRequest('cursor is not one this API issued; pass back the cursor of the previous page verbatim');
  }
  const { l, o } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { l: string; o: number };
  if (l !== listingKey(listing)) {
    throw badRequest(
      `cursor belongs to another listing (GET ${l.replace(/\?$/, '')}); a cursor only continues the listing, with the same filters, that issued it`,
    );
  }
  return o;
}

/** `limit` from the query: a positive integer, capped at `max`; `fallback` when absent. */
export function queryLimit(query: URLSearchParams, fallback = DEFAULT_PAGE_LIMIT, max = MAX_PAGE_LIMIT): number {
  const text = query.get('limit');
  if (text === null) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw badRequest('limit must be a positive integer');
  return Math.min(Number(text), max);
}

/** One page of `items` as `{ items, cursor }`; `cursor` is null on the last page. */
export function paginate<T>(items: readonly T[], listing: Listing): { items: T[]; cursor: string | null } {
  const limit = queryLimit(listing.query);
  const cursor = listing.query.get('cursor');
  const offset = cursor ? decodeCursor(cursor, listing) : 0;
  const next = offset + limit;
  return {
    items: items.slice(offset, next).map((item) => structuredClone(item)),
    cursor: next < items.length ? encodeCursor(listing, next) : null,
  };
}

/** The seed's usual `{ data, cursor }` envelope. */
export function page<T>(items: readonly T[], listing: Listing): { data: T[]; cursor: string | null } {
  const { items: data, cursor } = paginate(items, listing);
  return { data, cursor };
}
