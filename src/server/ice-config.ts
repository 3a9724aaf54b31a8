// `browserDialToken`'s `iceConfig` is a String in the service's schema with no documented format
// (its own browser client never reads it for LiveKit). Read defensively: a JSON list of
// RTCIceServer-shaped entries, or an object holding one as `iceServers`; anything else is ignored.
import type { WireIceServer } from '../wire/companion.js';
import { isPlainObject } from './checks.js';

/** An RTCIceServer as the browser's RTCPeerConnection takes it (the wire contract's). */
export type IceServer = WireIceServer;

const ICE_URL = /^(stun|stuns|turn|turns):\S+$/i;
const MAX_SERVERS = 16;

function iceServer(entry: unknown): IceServer | null {
  if (!isPlainObject(entry)) return null;
  const { urls, username, credential } = entry;
  const list = typeof urls === 'string' ? [urls] : Array.isArray(urls) ? urls : null;
  if (!list || list.length === 0 || !list.every((url) => typeof url === 'string' && ICE_URL.test(url))) return null;
  const server: IceServer = { urls: typeof urls === 'string' ? urls : (list as string[]) };
  if (typeof username === 'string') server.username = username;
  if (typeof credential === 'string') server.credential = credential;
  return server;
}

/**
 * The ICE servers `iceConfig` names, or null when it is absent. Throws a `TypeError` (whose message
 * never quotes the input: it may hold TURN credentials) when it is present but not readable.
 */
export function parseIceConfig(iceConfig: string | null): IceServer[] | null {
  if (iceConfig === null || iceConfig.trim() === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(iceConfig);
  } catch {
    throw new TypeError('iceConfig is not JSON');
  }
  const list = Array.isArray(parsed)
    ? parsed
    : isPlainObject(parsed) && Array.isArray(parsed.iceServers)
      ? parsed.iceServers
      : null;
  if (!list) throw new TypeError('iceConfig is neither a list of ICE servers nor an object with iceServers');
  const servers = list.slice(0, MAX_SERVERS).map(iceServer);
  if (servers.length === 0 || servers.some((server) => server === null))
    throw new TypeError(
      'iceConfig has an entry that is not an ICE server (urls stun:/turn:, optional username and credential strings)',
    );
  return servers as IceServer[];
}
