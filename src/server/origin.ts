// Where a request comes from and where it was sent: its origin and host as the browser saw them
// (the Host allow-list against DNS rebinding), whether that origin may call (the CORS allow-list),
// the CORS headers of the answer and of a preflight, and the client's address. Behind a trusted
// proxy these come from the last `X-Forwarded-*` hop. Web APIs only.
import { addressKey, isRebindingSafeHostname } from './checks.js';
import type { CompanionSettings } from './config.js';
import { BASE_HEADERS, HttpError } from './errors.js';
import type { CompanionAnswer, CompanionRequest } from './exchange.js';
import { allowOf, type Route } from './routes.js';

/** Where a request was sent, as the browser saw it. */
export interface RequestOrigin {
  origin: string;
  host: string;
  hostAllowed: boolean;
}

/** An `X-Forwarded-Host` value: a host name or bracketed IPv6 literal, with an optional port. */
const FORWARDED_HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** Entries each memo (request origins, address keys) holds at most. */
const MEMO_SIZE = 1024;

/** The CORS headers of a same-origin or refused request: none. Shared, never written to. */
export const NO_CORS: Readonly<Record<string, string>> = Object.freeze({});

/** Sets `key` in a memo; a full memo is emptied first (cheaper than tracking age, and as bounded). */
function remember<V>(memo: Map<string, V>, key: string, value: V): void {
  if (memo.size >= MEMO_SIZE) memo.clear();
  memo.set(key, value);
}

/** The last value of a header a trusted proxy sets (it overwrites or appends, so its own value is last). */
const lastForwarded = (request: CompanionRequest, name: string) =>
  (request.header(name) ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean)
    .at(-1);

type OriginSettings = Pick<CompanionSettings, 'allowedOrigins' | 'publicOrigins' | 'publicOriginOfHost' | 'trustProxy'>;

export class OriginPolicy {
  readonly #settings: OriginSettings;
  // Pure functions of a request's scheme and host, and of its client address, remembered: a URL
  // parse and an IP parse per request were a few per cent of a read's CPU. Bounded, so a flood of
  // made-up hosts or addresses only empties them.
  readonly #origins = new Map<string, RequestOrigin>();
  readonly #addressKeys = new Map<string, string>();

  constructor(settings: OriginSettings) {
    this.#settings = settings;
  }

  /**
   * The origin the request was sent to and whether its host is served. A configured public origin
   * wins; otherwise the URL's (or the trusted proxy's) scheme and host. Over plain http, a host
   * name is served only when configured or when a browser cannot be tricked into sending it (IP
   * literals, loopback names): otherwise a page on an attacker's name that resolves to this server
   * would be "same-origin" (DNS rebinding). Over https the certificate binds the name.
   */
  requestOrigin(request: CompanionRequest): RequestOrigin {
    let scheme = request.protocol;
    let host = request.host;
    if (this.#settings.trustProxy) {
      const proto = lastForwarded(request, 'x-forwarded-proto')?.toLowerCase();
      if (proto === 'https' || proto === 'http') scheme = `${proto}:`;
      const forwardedHost = lastForwarded(request, 'x-forwarded-host');
      if (forwardedHost && FORWARDED_HOST.test(forwardedHost) && URL.canParse(`${scheme}//${forwardedHost}`))
        host = new URL(`${scheme}//${forwardedHost}`).host;
    }
    const origin = `${scheme}//${host}`;
    let known = this.#origins.get(origin);
    if (known === undefined) {
      const configured = this.#settings.publicOriginOfHost.get(host);
      known = configured
        ? { origin: configured, host, hostAllowed: true }
        : {
            origin,
            host,
            hostAllowed:
              isRebindingSafeHostname(new URL(origin).hostname) ||
              (this.#settings.publicOrigins.length === 0 && scheme === 'https:'),
          };
      remember(this.#origins, origin, known);
    }
    return known;
  }

  /** Same-origin (or no `Origin` at all: not a browser's cross-origin call) or an allowed origin. */
  originAllowed(request: CompanionRequest, own: RequestOrigin): boolean {
    const origin = request.header('origin');
    return origin === null || origin === own.origin || this.#settings.allowedOrigins.has(origin);
  }

  /** CORS headers for an allowed cross-origin request; none for same-origin and refused ones. */
  corsHeaders(request: CompanionRequest): Readonly<Record<string, string>> {
    const origin = request.header('origin');
    if (origin === null || !this.#settings.allowedOrigins.has(origin)) return NO_CORS;
    return { 'access-control-allow-origin': origin, vary: 'Origin', 'access-control-expose-headers': 'Retry-After' };
  }

  /**
   * The refusal of a cross-origin page that is not allowed, readable by that page: without CORS
   * headers the browser hides the answer and the widget could only say "network error". Its
   * preflight is granted (the request itself is refused, before anything is done), and the 403 is
   * readable, naming the origin. An opaque origin (`null`: a sandboxed frame, a file) gets none.
   */
  refusal(request: CompanionRequest, own: RequestOrigin): { error: HttpError; cors: Readonly<Record<string, string>> } {
    const origin = (request.header('origin') ?? '').slice(0, 200);
    const error = new HttpError(
      'origin_not_allowed',
      `this page's origin (${origin}) may not use the endpoint: the site must add it to the companion's allowed origins (COMPANION_ALLOWED_ORIGINS)`,
      {
        reason: `Origin ${JSON.stringify(origin)} refused: not the companion's own origin (${own.origin}) nor in COMPANION_ALLOWED_ORIGINS`,
      },
    );
    if (!URL.canParse(origin) || new URL(origin).origin !== origin) return { error, cors: NO_CORS };
    const cors = { 'access-control-allow-origin': origin, vary: 'Origin' };
    return { error, cors };
  }

  /** The client's address: the trusted proxy's last `X-Forwarded-For` hop, else the adapter's. */
  clientAddress(request: CompanionRequest, adapterAddress: string | undefined): string {
    if (this.#settings.trustProxy) {
      const last = lastForwarded(request, 'x-forwarded-for');
      if (last) return last;
    }
    return adapterAddress || 'unknown';
  }

  /** The address as rate limits count it (IPv6 by /64), remembered. */
  addressKey(address: string): string {
    let key = this.#addressKeys.get(address);
    if (key === undefined) remember(this.#addressKeys, address, (key = addressKey(address)));
    return key;
  }
}

/** The answer to a preflight (`OPTIONS`): the route's methods, and CORS grants for an allowed origin. */
export function preflightAnswer(route: Route, cors: Readonly<Record<string, string>>): CompanionAnswer {
  return {
    status: 204,
    body: null,
    headers: {
      ...BASE_HEADERS,
      ...cors,
      allow: allowOf(route),
      ...(cors['access-control-allow-origin']
        ? {
            'access-control-allow-methods': allowOf(route),
            'access-control-allow-headers': 'Authorization, Content-Type, Idempotency-Key',
            'access-control-max-age': '600',
          }
        : {}),
    },
  };
}
