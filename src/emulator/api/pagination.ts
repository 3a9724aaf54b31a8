// The seed's pagination: `limit` (default and maximum 100) and an opaque `cursor` handed back
// verbatim. Cursors are offsets in base64url JSON; one this API did not issue is a 400.
import { badRequest } from './errors.js';

export const MAX_PAGE_LIMIT = 100;

function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

function decodeCursor(cursor: string): number {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const offset = (parsed as { o?: unknown } | null)?.o;
    if (typeof offset === 'number' && Number.isInteger(offset) && offset >= 0) return offset;
  } catch {
    // fall through: any cursor we did not issue is refused the same way
  }
  throw badRequest('cursor is not one this API issued');
}

/** `limit` from the query: a positive integer, capped at `max`; `fallback` when absent. */
export function queryLimit(query: URLSearchParams, fallback = MAX_PAGE_LIMIT, max = MAX_PAGE_LIMIT): number {
  const text = query.get('limit');
  if (text === null) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw badRequest('limit must be a positive integer');
  return Math.min(Number(text), max);
}

/** One page of `items` as `{ items, cursor }`; `cursor` is null on the last page. */
export function paginate<T>(items: readonly T[], query: URLSearchParams): { items: T[]; cursor: string | null } {
  const limit = queryLimit(query);
  const cursor = query.get('cursor');
  const offset = cursor ? decodeCursor(cursor) : 0;
  const next = offset + limit;
  return { items: items.slice(offset, next).map((item) => structuredClone(item)), cursor: next < items.length ? encodeCursor(next) : null };
}

/** The seed's usual `{ data, cursor }` envelope. */
export function page<T>(items: readonly T[], query: URLSearchParams): { data: T[]; cursor: string | null } {
  const { items: data, cursor } = paginate(items, query);
  return { data, cursor };
}
