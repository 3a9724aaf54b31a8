// Small, pure checks the handler and the config readers share: what the companion accepts from
// the service, from the network and from its own configuration. Web APIs and ipaddr.js only, so
// they run wherever the handler runs.
import ipaddr from 'ipaddr.js';

/** A JSON object (not null, not an array). */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The dial ids the companion routes and signs handles for. */
const DIAL_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export function isDialId(value: string): boolean {
  return DIAL_ID.test(value);
}

/** Longest `Retry-After` passed on to visitors: past this, "try again later" is all they can act on. */
export const MAX_RETRY_AFTER_SECONDS = 300;

/** A `Retry-After` in whole seconds within 1 … 300, whatever the service sent (or `fallback` when nothing usable). */
export function clampRetryAfter(seconds: number | null | undefined, fallback = 30): number {
  const value = typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : fallback;
  return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, value));
}

const MEDIA_SCHEMES = new Set(['wss:', 'ws:', 'https:']);

/** Why `value` cannot be handed to a browser as the media server URL, or null when it can. */
export function mediaUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not an absolute URL';
  }
  if (!MEDIA_SCHEMES.has(url.protocol))
    return `has the scheme ${JSON.stringify(url.protocol)}; only wss:, ws: and https: are allowed`;
  if (url.username || url.password) return 'carries credentials';
  return null;
}

function parseIp(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  // Only the dotted four-part IPv4 form: `127.1` or `0x7f.1` are not how clients write addresses.
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return ipaddr.IPv4.parse(bare);
  if (ipaddr.IPv6.isValid(bare)) return ipaddr.process(bare);
  return null;
}

/**
 * The rate-limit key of a client address: an IPv4 address as such (IPv4-mapped IPv6 included),
 * an IPv6 address by its /64 — one subscriber usually holds a whole /64, so counting addresses one
 * by one would give a single visitor 2^64 of them. Anything else (`unknown`, an obfuscated
 * forwarded value) is kept as written, bounded in length.
 */
export function addressKey(address: string): string {
  const ip = parseIp(address.trim().replace(/%.*$/, ''));
  if (!ip) return address.slice(0, 100);
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts;
  return `${parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}

/** True for names only this machine answers to: `localhost`, `*.localhost`, 127.0.0.0/8, ::1. */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const ip = parseIp(name);
  return ip !== null && ip.range() === 'loopback';
}

/**
 * True when a browser can only send this Host for a page of that very host: an IP literal or a
 * loopback name. DNS rebinding needs a name the attacker controls, so these hosts are safe without
 * configuration (the same rule as Vite's `server.allowedHosts`).
 */
export function isRebindingSafeHostname(hostname: string): boolean {
  return isLoopbackHostname(hostname) || parseIp(hostname) !== null;
}

/** `scheme://host[:port]` exactly as browsers send it in `Origin`; throws a TypeError naming `what` otherwise. */
export function normalizeOrigin(value: string, what: string): string {
  const trimmed = value.trim().replace(/\/+$/, '');
  if (trimmed === '*')
    throw new TypeError(
      `${what}: "*" is not supported; list each origin (scheme://host[:port]) that may call the endpoint`,
    );
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new TypeError(`${what}: ${JSON.stringify(value)} is not an origin (scheme://host[:port])`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin.toLowerCase() !== trimmed.toLowerCase()) {
    throw new TypeError(`${what}: ${JSON.stringify(value)} is not an origin (http(s)://host[:port], no path)`);
  }
  return url.origin;
}

/** Why `value` is not a usable service base URL; `insecure` when it is plain http to another machine. */
export function serviceUrlProblem(value: string): { fatal: string } | { insecure: string } | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { fatal: `${JSON.stringify(value)} is not an absolute URL` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { fatal: `has the scheme ${JSON.stringify(url.protocol)}; use https: (or http: on loopback)` };
  if (url.username || url.password) return { fatal: 'carries credentials; the API key is sent as a header' };
  if (url.protocol === 'http:' && !isLoopbackHostname(url.hostname))
    return {
      insecure: `is plain http to ${url.hostname}: the API key would cross the network unencrypted; use https:`,
    };
  return null;
}

/** Why `secret` is unfit to sign handles, or null. */
export function secretProblem(secret: string, apiKey: string, minLength: number): string | null {
  if (secret.trim().length < minLength)
    return `the secret must be at least ${minLength} characters (not counting surrounding whitespace)`;
  if (secret === apiKey || secret.trim() === apiKey.trim())
    return 'the secret must not be the API key: use a separate random value';
  return null;
}
