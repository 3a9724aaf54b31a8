// Decodes the `join_request` query parameter that livekit-client (v1 signal path) sends on the
// WebSocket upgrade: base64url(WrappedJoinRequest{ joinRequest: gzip?(JoinRequest), compression }).
import { gunzipSync, gzipSync } from 'node:zlib';
import { JoinRequest, WrappedJoinRequest, WrappedJoinRequest_Compression } from '@livekit/protocol';

export class JoinRequestError extends Error {
  override name = 'JoinRequestError';
}

export function decodeJoinRequest(param: string): JoinRequest {
  try {
    const wrapped = WrappedJoinRequest.fromBinary(Buffer.from(param, 'base64url'));
    const raw =
      wrapped.compression === WrappedJoinRequest_Compression.GZIP
        ? gunzipSync(wrapped.joinRequest)
        : wrapped.joinRequest;
    return JoinRequest.fromBinary(raw);
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
