// The companion's routes and how a path finds one: under `basePath` exactly, or, without one, by
// the path's tail (`…/dials`, `…/dials/:id/token`, `…/metrics`, `…/service`), so the handler works
// under any prefix.
import { isDialId } from './checks.js';
import { HttpError } from './errors.js';

export type RouteName =
  'create' | 'token' | 'read' | 'hangup' | 'leave' | 'feedback' | 'metrics' | 'transfer' | 'scrape' | 'service';

export type Route =
  | { name: 'create'; pattern: 'POST /dials'; methods: readonly string[] }
  | { name: 'scrape'; pattern: 'GET /metrics'; methods: readonly string[] }
  | { name: 'service'; pattern: 'GET /service'; methods: readonly string[] }
  | {
      name: 'token' | 'read' | 'hangup' | 'leave' | 'feedback' | 'metrics' | 'transfer';
      pattern: string;
      methods: readonly string[];
      rawId: string;
    };

const POST = ['POST'] as const;
const GET = ['GET'] as const;

/** The route `pathname` names, or null. `basePath` as `CompanionSettings.basePath`. */
export function matchRoute(pathname: string, basePath: string | null): Route | null {
  let segments = pathname.split('/');
  if (basePath !== null) {
    if (!(pathname === basePath || pathname.startsWith(basePath + '/'))) return null;
    segments = ['', ...pathname.slice(basePath.length).split('/').slice(1)];
    if (segments.length < 2 || segments.length > 4) return null;
  }
  const n = segments.length;
  const last = segments[n - 1];
  const second = segments[n - 2];
  if (
    n >= 4 &&
    segments[n - 3] === 'dials' &&
    second !== undefined &&
    (last === 'token' ||
      last === 'hangup' ||
      last === 'leave' ||
      last === 'feedback' ||
      last === 'metrics' ||
      last === 'transfer')
  )
    return { name: last, pattern: `POST /dials/:id/${last}`, methods: POST, rawId: second };
  if (n >= 3 && second === 'dials' && last !== undefined && (basePath === null || n === 3))
    return { name: 'read', pattern: 'GET /dials/:id', methods: GET, rawId: last };
  if (n >= 2 && last === 'dials' && (basePath === null || n === 2))
    return { name: 'create', pattern: 'POST /dials', methods: POST };
  if (n >= 2 && last === 'metrics' && (basePath === null || n === 2))
    return { name: 'scrape', pattern: 'GET /metrics', methods: GET };
  if (n >= 2 && last === 'service' && (basePath === null || n === 2))
    return { name: 'service', pattern: 'GET /service', methods: GET };
  return null;
}

/** The dial id a route's path names, decoded; a 404 when it is not one the companion routes. */
export function dialIdOf(rawId: string): string {
  let dialId: string;
  try {
    dialId = decodeURIComponent(rawId);
  } catch {
    throw new HttpError('not_found', 'no such dial');
  }
  if (!isDialId(dialId)) throw new HttpError('not_found', 'no such dial');
  return dialId;
}

/** The `Allow` header of a route. */
export function allowOf(route: Route): string {
  return [...route.methods, 'OPTIONS'].join(', ');
}
