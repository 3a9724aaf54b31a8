// The Node fast path of a call to the service: undici's `request` on one keep-alive Agent. Loaded
// by a name in a variable, so bundlers for runtimes without Node's `net` (Workers) leave it out
// and `fetch` does the calls there.
import type { CallControl } from './call-control.js';

interface UndiciCall {
  method: string;
  headers: Record<string, string>;
  body: string | null;
  signal: CallControl;
}

export interface UndiciAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Uint8Array> & { text(): Promise<string> };
}

/** The part of undici's API used here (undici is loaded by name at run time, see `loadUndici`). */
interface Undici {
  Agent: new (options: { keepAliveTimeout: number; connections: number }) => {
    request(options: UndiciCall & { origin: string; path: string }): Promise<UndiciAnswer>;
  };
  request(url: string, options: UndiciCall & { dispatcher: object }): Promise<UndiciAnswer>;
}

export interface FastPath {
  request: Undici['request'];
  /** One keep-alive dispatcher shared by every call to the service. */
  dispatcher: InstanceType<Undici['Agent']>;
}

/**
 * A path `new URL` leaves as it is: `/`-separated segments of characters it never encodes and
 * well-formed escapes, no `.`/`..` segment (also escaped) and no query. For such a path the call
 * goes to the dispatcher with origin and path apart, and neither undici nor this module parses a
 * URL per call; any other path is given to undici's `request` as a whole URL, as before.
 */
const PLAIN_PATH = /^(?:\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})*)+$/;
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?:\/|$)/i;
/** A base URL → its origin and path when it is written as URL writes it (else null); one entry per base. */
const bases = new Map<string, { origin: string; path: string } | null>();

function splitBase(baseUrl: string): { origin: string; path: string } | null {
  let known = bases.get(baseUrl);
  if (known === undefined) {
    known = null;
    try {
      const url = new URL(baseUrl);
      const path = url.pathname === '/' ? '' : url.pathname;
      const plain =
        (url.protocol === 'http:' || url.protocol === 'https:') &&
        !url.username &&
        !url.password &&
        !url.search &&
        !url.hash;
      if (plain && url.origin + path === baseUrl) known = { origin: url.origin, path };
    } catch {
      // Left to undici, which reports it as before.
    }
    if (bases.size >= 64) bases.clear();
    bases.set(baseUrl, known);
  }
  return known;
}

const NATIVE_FETCH = globalThis.fetch;
// The package name sits in a variable (see the top of this file).
const UNDICI = 'undici';
let fastPath: FastPath | null | undefined;
let loadingFastPath: Promise<FastPath | null> | undefined;

/**
 * On Node, calls go through undici's `request` on one keep-alive Agent: under load, fetch's own
 * work per call (Request/Response objects, web streams, an AbortSignal per call) cost the
 * companion about three times the CPU of the call itself. Elsewhere, or if undici cannot load: null.
 */
export function loadUndici(): Promise<FastPath | null> {
  const onNode =
    typeof (globalThis as { process?: { versions?: { node?: unknown } } }).process?.versions?.node === 'string';
  loadingFastPath ??= !onNode
    ? Promise.resolve(null)
    : (import(/* @vite-ignore */ UNDICI) as Promise<Undici>).then(
        (undici) => ({
          request: undici.request,
          dispatcher: new undici.Agent({ keepAliveTimeout: 10_000, connections: 256 }),
        }),
        () => null,
      );
  return loadingFastPath.then((loaded) => (fastPath = loaded));
}
// Started when this module loads, so the first call rarely waits for it.
void loadUndici();

/**
 * The fast path as far as it is known: undefined before undici has loaded (call `loadUndici`),
 * null where calls go through fetch.
 */
export function fastPathNow(): FastPath | null | undefined {
  return fastPath;
}

/** True when `fetchImpl` is the global fetch as Node made it: only then may undici stand in for it. */
export function isNativeFetch(fetchImpl: typeof fetch): boolean {
  return fetchImpl === NATIVE_FETCH && globalThis.fetch === NATIVE_FETCH;
}

/**
 * One call on the shared Agent: origin and path apart when the path is plain (no URL parsed by
 * anyone), else the whole `url` to undici's `request`.
 */
export function sendWithUndici(
  fast: FastPath,
  url: string,
  baseUrl: string,
  requestPath: string,
  method: string,
  headers: Record<string, string>,
  body: string | null,
  signal: CallControl,
): Promise<UndiciAnswer> {
  const base = url === baseUrl + requestPath ? splitBase(baseUrl) : null;
  const path = base ? base.path + requestPath : '';
  return base && PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path)
    ? fast.dispatcher.request({ origin: base.origin, path, method, headers, body, signal })
    : fast.request(url, { method, headers, body, signal, dispatcher: fast.dispatcher });
}
