// Decodes the `join_request` query parameter that livekit-client (v1 signal path) sends on the
// WebSocket upgrade: base64url(WrappedJoinRequest{ joinRequest: gzip?(JoinRequest), compression }).
import { gunzipSync, gzipSync } from 'node:zlib';
import { JoinRequest, WrappedJoinRequest, WrappedJoinRequest_Compression } from '@livekit/protocol';

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
