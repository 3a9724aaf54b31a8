// The join as livekit-client sends it on the WebSocket upgrade. v1 (`/rtc/v1`): the `join_request`
// query parameter, base64url(WrappedJoinRequest{ joinRequest: gzip?(JoinRequest), compression }).
// v0 (`/rtc`): plain query parameters (`reconnect=1`, `sid`, `auto_subscribe`, `sdk`, …), no offer.
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  ClientInfo,
  ConnectionSettings,
  JoinRequest,
  WrappedJoinRequest,
  WrappedJoinRequest_Compression,
} from '@livekit/protocol';

export class JoinRequestError extends Error {
  override name = 'JoinRequestError';
}

/**
 * The largest join request inflated: livekit-client's are a few KiB (client info, options and the
 * publisher's SDP offer). Past it the request is refused: a 12 KiB gzip bomb in the URL inflated
 * to 9 MiB of unknown fields and, twenty at once, took the room process to gigabytes.
 */
export const MAX_JOIN_REQUEST_BYTES = 256 * 1024;

/** Fields this version of the protocol does not know are dropped, not kept to be written back. */
const READ_OPTIONS = { readUnknownFields: false };

/**
 * Every path that takes a join request (the v1 `join_request` parameter) decodes it here, so the
 * output limit and the dropping of unknown fields hold for all of them.
 */
export function decodeJoinRequest(param: string): JoinRequest {
  try {
    const wrapped = WrappedJoinRequest.fromBinary(Buffer.from(param, 'base64url'), READ_OPTIONS);
    const raw =
      wrapped.compression === WrappedJoinRequest_Compression.GZIP
        ? gunzipSync(wrapped.joinRequest, { maxOutputLength: MAX_JOIN_REQUEST_BYTES })
        : wrapped.joinRequest;
    if (raw.length > MAX_JOIN_REQUEST_BYTES) throw new RangeError('the join request is too large');
    return JoinRequest.fromBinary(raw, READ_OPTIONS);
  } catch (cause) {
    throw new JoinRequestError('join_request is not a valid WrappedJoinRequest', { cause });
  }
}

/** The inverse, for tests and tools: what livekit-client puts in the query. */
export function encodeJoinRequest(request: JoinRequest, compression: 'gzip' | 'none' = 'gzip'): string {
  const binary = request.toBinary();
  const wrapped = new WrappedJoinRequest({
    joinRequest: compression === 'gzip' ? gzipSync(binary) : binary,
    compression: compression === 'gzip' ? WrappedJoinRequest_Compression.GZIP : WrappedJoinRequest_Compression.NONE,
  });
  return Buffer.from(wrapped.toBinary()).toString('base64url');
}

/**
 * v0: the join livekit-client describes in the query of `/rtc` (what a LiveKit server reads from
 * it), as the JoinRequest the v1 path would have carried, without a publisher offer.
 */
export function joinFromV0Query(query: URLSearchParams): JoinRequest {
  const flag = (name: string) => query.get(name) === '1';
  const protocol = Number(query.get('protocol') ?? '0');
  return new JoinRequest({
    clientInfo: new ClientInfo({
      version: query.get('version') ?? '',
      protocol: Number.isInteger(protocol) ? protocol : 0,
      browser: query.get('browser') ?? '',
    }),
    connectionSettings: new ConnectionSettings({
      autoSubscribe: query.get('auto_subscribe') !== '0',
      adaptiveStream: flag('adaptive_stream'),
    }),
    reconnect: flag('reconnect'),
    participantSid: query.get('sid') ?? '',
  });
}
