// The emulator needs packages widget users should not have to install (native WebRTC, the
// LiveKit protocol, a WebSocket server, GraphQL and its WebSocket protocol), so they are optional
// peer dependencies. When one is missing, say which and how to add them instead of a bare
// "module not found".
const PEERS = ['ws', '@livekit/protocol', '@roamhq/wrtc', 'graphql-ws', 'graphql'] as const;
const INSTALL =
  'npm install --save-dev -E ws@8.23.0 @livekit/protocol@1.52.1 @roamhq/wrtc@0.10.0 graphql@17.1.0 graphql-ws@6.4.2';

/** The error to throw for a failed import: a clear one when an optional peer is missing. */
export function explainMissingPeer(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return error;
  const message = String((error as Error).message);
  const missing = PEERS.find((name) => message.includes(`'${name}'`));
  if (!missing) return error;
  return new Error(`voice-agent-call/emulator needs its optional peer dependencies (missing: ${missing}): ${INSTALL}`, {
    cause: error,
  });
}
