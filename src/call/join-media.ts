// Joining a call's media once the companion has given its token: the service's session protocol
// (GraphQL) first, as the service's own client does, then the LiveKit room, both from the media
// chunk. The service's GLOBAL_CALL_CONNECT comes once both hold, and only then is
// startDialSession sent.
import type { MediaToken } from './companion-client.js';
import type { MediaModule } from './media-loader.js';
import type {
  MediaCallbacks,
  MediaConnection,
  ServiceSession,
  ServiceSessionCallbacks,
} from './media/livekit-media.js';
import type { CallOptions } from './call-options.js';

export interface MediaJoin {
  token: MediaToken;
  dialId: string;
  microphone: MediaStreamTrack;
  muted: boolean;
  /** The call's signal: aborting it leaves the room, or stops the join. */
  signal: AbortSignal;
  options: CallOptions;
  media: MediaCallbacks;
  service: ServiceSessionCallbacks;
}

/** The service session at once (null when the companion granted none), and the room once joined. */
export function joinMedia(
  module: MediaModule,
  join: MediaJoin,
): { service: ServiceSession | null; media: Promise<MediaConnection> } {
  const { token, options } = join;
  const service = token.session
    ? module.openServiceSession({
        ...token.session,
        dialId: join.dialId,
        transcript: options.transcript === 'live',
        requestTimeoutMs: options.requestTimeoutMs,
        callbacks: join.service,
      })
    : null;
  const { maxReconnectAttempts, mediaConnectTimeoutMs } = options;
  const media = module.connectMedia({
    serverUrl: token.serverUrl,
    participantToken: token.participantToken,
    microphone: join.microphone,
    muted: join.muted,
    signal: join.signal,
    callbacks: join.media,
    ...(token.iceServers ? { iceServers: token.iceServers } : {}),
    debug: options.debug ?? false,
    ...(maxReconnectAttempts === undefined ? {} : { maxReconnectAttempts }),
    ...(mediaConnectTimeoutMs === undefined ? {} : { connectTimeoutMs: mediaConnectTimeoutMs }),
  });
  return { service, media };
}
