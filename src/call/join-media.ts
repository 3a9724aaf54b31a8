// Joining a call's media once the companion has given its token: the LiveKit room (made while the
// dial's request was out: call-setup.ts, `prepareMedia`) and the service's session protocol (GraphQL),
// both from the media chunk. The room's join starts first: its signal connection is the longer
// wait, and the session's subscriptions go over the socket the create opened beside it. The
// service's GLOBAL_CALL_CONNECT comes once both hold, and only then is startDialSession sent.
import type { MediaToken } from './companion-client.js';
import type { MediaModule } from './media-loader.js';
import type { MediaConnection, PreparedMedia, ServiceSession, ServiceSessionCallbacks } from './media/livekit-media.js';
import type { CallOptions } from './call-options.js';

export interface MediaJoin {
  token: MediaToken;
  dialId: string;
  microphone: MediaStreamTrack;
  muted: boolean;
  options: CallOptions;
  service: ServiceSessionCallbacks;
}

/** The room's join, and the service session at once (null when the companion granted none). */
export function joinMedia(
  module: MediaModule,
  room: PreparedMedia,
  join: MediaJoin,
): { service: ServiceSession | null; media: Promise<MediaConnection> } {
  const { token, options } = join;
  const media = room.join({
    microphone: join.microphone,
    serverUrl: token.serverUrl,
    participantToken: token.participantToken,
    muted: join.muted,
    iceServers: token.iceServers,
  });
  const service = token.session
    ? module.openServiceSession({
        ...token.session,
        dialId: join.dialId,
        transcript: options.transcript === 'live',
        requestTimeoutMs: options.requestTimeoutMs,
        callbacks: join.service,
      })
    : null;
  return { service, media };
}
