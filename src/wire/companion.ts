// The companion's wire contract: what the browser (src/call/companion-client.ts) sends to the
// companion (src/server) and what it answers, as types both sides import, and the limits both
// enforce. Pure: no runtime import, nothing of the DOM or Node, so the browser's chunks and the
// companion (Workers, Deno, Bun, Node) take it alike. Changing a shape here is changing the wire.

/** The companion's routes for visitors (README: "Routes and rules"), under the site's prefix. */
export type CompanionRoute =
  | 'POST /dials'
  | 'POST /dials/:id/token'
  | 'GET /dials/:id'
  | 'POST /dials/:id/hangup'
  | 'POST /dials/:id/leave'
  | 'POST /dials/:id/feedback'
  | 'GET /service';

/** The routes on one dial, as the path's tail after `/dials/:id`. */
export type DialRouteTail = '' | '/token' | '/hangup' | '/leave' | '/feedback' | '/metrics' | '/transfer';

/** `POST /dials`'s body (JSON; none is `{}`). */
export interface CreateDialBody {
  /** The agent's name, which the companion maps to an agent id; `default` when absent. */
  agent?: string;
  /** Inputs for the agent; the companion keeps only the allowed keys. */
  inputs?: Record<string, string>;
}

/** An RTCIceServer as the browser's RTCPeerConnection takes it. */
export interface WireIceServer {
  urls: string | string[];
  username?: string;
  credential?: string;
}

/**
 * A dial's media credentials, flat: LiveKit's token-endpoint shape (`serverUrl`,
 * `participantToken`) plus the grant of the service's session protocol the browser runs itself
 * (`dialToken`, `graphqlUrl`, `sessionId`), and ICE servers when the service sent some. The token
 * route's answer, and the create's `media`.
 */
export interface MediaCredentials {
  serverUrl: string;
  participantToken: string;
  dialToken: string;
  graphqlUrl: string;
  sessionId: string;
  iceServers?: WireIceServer[];
}

/** The part of the credentials that grants the session protocol (GraphQL with the dial token). */
export type SessionGrant = Pick<MediaCredentials, 'dialToken' | 'graphqlUrl' | 'sessionId'>;

/** `POST /dials`'s answer: the dial, its handle (`Authorization: Bearer <handle>` on its routes) and, when fetched, its media. */
export interface CreateDialAnswer {
  dialId: string;
  handle: string;
  /** When the handle stops being accepted (ISO 8601, whole seconds). */
  expiresAt: string;
  media?: MediaCredentials;
  /** The service ended the dial at once (busy): no media credentials, nothing to join. */
  ended?: true;
}

/** `GET /service`'s answer: the service's GraphQL URL (HTTP; its WebSocket is the same with ws(s)), before any dial. */
export interface ServiceAnswer {
  graphqlUrl: string;
}

/** `POST /dials/:id/token`'s answer. */
export type TokenAnswer = MediaCredentials;

/** A visitor's rating of a call. */
export type Rating = 'up' | 'down';

/** Longest comment a rating may carry, in characters (UTF-16 units, as a textarea's `maxlength` counts). */
export const MAX_FEEDBACK_COMMENT = 500;

/** `POST /dials/:id/feedback`'s body (JSON): a rating, and a comment of at most `MAX_FEEDBACK_COMMENT` characters. */
export interface FeedbackBody {
  rating: Rating;
  comment?: string;
}

/** `POST /dials/:id/hangup`'s (and `/leave`'s) body from `navigator.sendBeacon`, which cannot set the `Authorization` header. */
export interface BeaconHangupBody {
  handle: string;
}

/**
 * `POST /dials/:id/leave`'s body: the handle (from `sendBeacon`, which cannot set a header) and
 * `leftAt`, when the page left (`Date.now()` of the browser). A beacon may arrive after the next
 * page's rejoin: the rejoin names the leave it follows (`TokenBody.resumeOf`), so that leave,
 * arriving late, schedules nothing.
 */
export interface LeaveBody {
  handle?: string;
  leftAt?: number;
}

/** `POST /dials/:id/token`'s optional body (JSON): a rejoin after a leave names it by its `leftAt`. */
export interface TokenBody {
  resumeOf?: number;
}

/**
 * `POST /dials/:id/leave`'s answer: the browser left without hanging up (a page with `persist` going
 * away); the companion hangs the dial up at `endsAt` (ISO 8601) unless the browser rejoins through
 * the token route before then.
 */
export interface LeaveAnswer {
  success: true;
  /** Null when the browser had already rejoined after this leave (a late beacon): nothing is scheduled. */
  endsAt: string | null;
}

/** The `code` of every error answer (README: "Error codes: the companion and the service"). */
export type CompanionErrorCode =
  | 'invalid_request'
  | 'invalid_handle'
  | 'origin_not_allowed'
  | 'host_not_allowed'
  | 'not_found'
  | 'method_not_allowed'
  | 'duplicate_request'
  | 'payload_too_large'
  | 'rate_limited'
  | 'upstream_error'
  | 'unsupported_media_provider'
  | 'upstream_timeout'
  | 'internal_error'
  | 'client_closed';

/** Every error answer's body. */
export interface ErrorAnswer {
  error: { code: CompanionErrorCode; message: string };
}
