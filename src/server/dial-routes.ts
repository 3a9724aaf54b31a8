// What each route does once the handler has matched it and checked host and origin: create a dial
// (and sign its handle), give a dial's tokens, read it, hang it up, take the visitor's rating, name
// the service's GraphQL URL. Each answers JSON or throws an
// `HttpError`; a failed service call is answered through upstream-errors.ts.
import { ServiceError } from '../api/service-error.js';
import type { ServiceDial } from '../api/types/dials.js';
import { readBeaconHandle, readDialRequest, readFeedbackRequest, readLeaveBody, readTokenBody } from './body.js';
import { isDialId, mediaUrlProblem } from './checks.js';
import { transferOffered, warn, type CompanionFeedback, type CompanionSettings } from './config.js';
import { HttpError, jsonAnswer } from './errors.js';
import type { CompanionAnswer, CompanionRequest } from './exchange.js';
import { hmacBase64Url, type HandleClaims } from './handles.js';
import { parseIceConfig, type IceServer } from './ice-config.js';
import type { ClientCallMetrics } from './metrics.js';
import type { RateLimitResult, RateLimiter } from './rate-limit.js';
import type { CreateDialAnswer, LeaveAnswer, MediaCredentials, ServiceAnswer } from '../wire/companion.js';
import { graphqlFailure, upstreamFailure } from './upstream-errors.js';

/** One request on its way through the handler, and what its log line says of it. */
export interface Exchange {
  request: CompanionRequest;
  address: string;
  /** The address as rate limits count it (IPv6 by /64). */
  addressKey: string;
  dialId?: string;
  /** Logged with a successful answer that needs explaining. */
  reason?: string;
  /** The rating a feedback route took (counted in `ratings_total`). */
  rating?: 'up' | 'down';
  /** The call timings a metrics route took (recorded into the client histograms). */
  callMetrics?: ClientCallMetrics;
}

const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:+/=-]{1,255}$/;

/** The 429 for a refused verdict of the limiter `name`, with its Retry-After. */
export function rateLimited(message: string, verdict: RateLimitResult, name: string): HttpError {
  return new HttpError('rate_limited', message, {
    headers: { 'retry-after': String(Math.max(1, Math.ceil(verdict.retryAfterSeconds))) },
    // An outage must not read as an attack: say which it was.
    reason: verdict.storeUnreachable ? 'rate limit store unreachable (failing closed)' : `${name} limit`,
  });
}

/**
 * Counts the request against each limiter in turn; the first that refuses answers 429. With
 * `passWhenStoreDown`, a refusal only because the shared store cannot be asked lets the request
 * through and says so in its log line.
 */
async function limit(
  message: string,
  checks: ReadonlyArray<readonly [RateLimiter, string, string]>,
  passWhenStoreDown?: Exchange,
): Promise<void> {
  for (const [limiter, key, name] of checks) {
    const verdict = await limiter.take(key);
    if (verdict.allowed) continue;
    if (verdict.storeUnreachable && passWhenStoreDown) {
      passWhenStoreDown.reason =
        'rate limit store unreachable; let through: a store outage must never keep a dial alive';
      continue;
    }
    throw rateLimited(message, verdict, name);
  }
}

type DialRoute = 'token' | 'read' | 'hangup' | 'leave' | 'feedback' | 'metrics' | 'transfer';

/**
 * The routes that stop a dial spending money (hang-up, and leave, which schedules the end): a
 * store outage must never keep a dial alive, so while the store is unreachable they go through,
 * still guarded by the dial's handle. Over their limit with the store up, they are refused as before.
 */
const ENDS_A_DIAL: ReadonlySet<DialRoute> = new Set(['hangup', 'leave']);

/** Token, read, hang-up and rating: counted per dial, and token and read per client address too. */
export async function limitDialCall(
  settings: CompanionSettings,
  exchange: Exchange,
  dialId: string,
  route: DialRoute,
): Promise<void> {
  const { perDial, readsPerAddress } = settings.limiters;
  const perAddress = route === 'token' || route === 'read';
  await limit(
    'too many requests for this call; try again later',
    [
      [perDial, dialId, 'per-dial'],
      ...(perAddress ? ([[readsPerAddress, exchange.addressKey, 'reads-per-address']] as const) : []),
    ],
    ENDS_A_DIAL.has(route) ? exchange : undefined,
  );
}

/** The claims of the request's handle (Bearer header, else `bodyHandle`) if it is valid for `dialId`; else 401. */
export async function authorize(
  settings: CompanionSettings,
  exchange: Exchange,
  dialId: string,
  bodyHandle?: string,
): Promise<HandleClaims> {
  const header = exchange.request.header('authorization');
  let handle = bodyHandle;
  if (header !== null) {
    const match = /^Bearer +([^\s]+)$/i.exec(header.trim());
    handle = match?.[1];
  }
  const claims = handle ? await settings.signer.read(handle, dialId, settings.now()) : null;
  if (!claims) throw new HttpError('invalid_handle', 'the handle is missing, malformed, expired or for another dial');
  return claims;
}

/** The dial the service created, with the dial token it answered (none for a dial adopted from a 409). */
interface CreatedDial {
  dialId: string;
  sessionId: string;
  dialToken?: string;
}

/** `POST /dials`: a browser dial for the mapped agent, a handle for it, and its media credentials. */
export async function createDial(settings: CompanionSettings, exchange: Exchange): Promise<CompanionAnswer> {
  const { request } = exchange;
  const { service, signingSecret } = settings;
  const { callAgentId, callAgentInput } = await readDialRequest(request, settings);
  const idempotencyKey = request.header('idempotency-key');
  if (idempotencyKey !== null && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
    throw new HttpError('invalid_request', 'Idempotency-Key must be 1-255 characters of A-Z a-z 0-9 . _ : + / = -');
  }

  await limit('too many calls started; try again later', [
    [settings.limiters.perAddress, exchange.addressKey, 'per-address'],
    [settings.limiters.total, 'total', 'total'],
  ]);

  let created: CreatedDial;
  try {
    created = await service.createDial(
      { callAgentId, browserCall: true, callAgentInput, timeoutMinutes: settings.timeoutMinutes },
      {
        signal: request.signal,
        // Scoped to the client address, so one visitor cannot replay another visitor's dial by reusing its key.
        ...(idempotencyKey !== null
          ? {
              idempotencyKey: await hmacBase64Url(signingSecret, `idempotency\n${exchange.address}\n${idempotencyKey}`),
            }
          : {}),
      },
    );
  } catch (error) {
    // The key is scoped to this client address (HMAC above), so the dial a 409 names is this
    // visitor's own earlier attempt, e.g. one whose answer was lost: adopt it. A service that
    // answers a reused key with a 409 instead of a replay then works like one that replays.
    const named =
      error instanceof ServiceError && error.code === 'conflict' && idempotencyKey !== null
        ? error.conflictingDial
        : null;
    if (!named?.sessionId) throw upstreamFailure(error, 'create');
    created = { dialId: named.dialId, sessionId: named.sessionId };
    exchange.reason = "adopted the dial named by the service's 409 (idempotency key already in use)";
  }
  if (!isDialId(created.dialId)) {
    // No handle is signed for an id the companion's own routes refuse: the visitor could never
    // hang that dial up. Cancel it instead of leaving it to run to its time cap.
    await service.hangupDial(created.dialId).catch(() => {});
    throw new HttpError('upstream_error', 'the calling service could not handle the request', {
      reason: 'the service answered POST /dials with a dial id the companion cannot route; the dial was hung up',
    });
  }
  exchange.dialId = created.dialId;
  const expiresAtMs = settings.now() + settings.handleLifetimeMs;
  const handle = await settings.signer.sign(created.dialId, expiresAtMs, created.sessionId || undefined);
  // Issued in this answer only, to the visitor whose request created (or, by its own key, replayed) the dial.
  const media = created.sessionId ? await mediaOnCreate(settings, exchange, created) : null;
  const answer: CreateDialAnswer = {
    dialId: created.dialId,
    handle,
    expiresAt: new Date(Math.floor(expiresAtMs / 1000) * 1000).toISOString(),
    ...(media === 'ended' ? { ended: true } : media ? { media } : {}),
    // Talk to a person is offered: a number is configured for this agent (transfer-route.ts).
    ...(transferOffered(settings, callAgentId) ? { transfer: true } : {}),
  };
  return jsonAnswer(200, answer);
}

/**
 * A dial's media credentials. REST `POST /dials/{id}/token` (API key) gives a dial token, unless
 * the create has just answered one (`dialToken`: "use this token to authorize any requests for
 * this dial"); the GraphQL mutation `browserDialToken`, authorised by it, gives the media
 * credentials. The browser gets both: the media credentials to join the room, and the dial token,
 * GraphQL URL and session id for the session protocol it runs itself (connectSession,
 * startDialSession, the live transcript).
 */
async function mediaCredentials(
  settings: CompanionSettings,
  exchange: Exchange,
  dialId: string,
  sessionId: string,
  /** The dial token the create answered, when this is the create's step. */
  createdToken?: string,
): Promise<MediaCredentials> {
  const { service } = settings;
  let dialToken: string;
  try {
    dialToken = createdToken || (await service.getDialToken(dialId, { signal: exchange.request.signal })).dialToken;
  } catch (error) {
    throw upstreamFailure(error, 'token');
  }
  let media;
  try {
    media = await service.browserDialToken(dialToken, sessionId, { signal: exchange.request.signal });
  } catch (error) {
    // The create's own token refused (an answer: not a timeout or a failed connection, which would
    // only fail again): the token route's way, whose fresh REST token first says why when it is the
    // dial (a 409 for a dial the service ended at once).
    if (createdToken && error instanceof ServiceError && error.status > 0)
      return mediaCredentials(settings, exchange, dialId, sessionId);
    throw graphqlFailure(error);
  }
  if (media.telephonyProvider !== 'livekit') {
    const provider = JSON.stringify(media.telephonyProvider.slice(0, 40));
    throw new HttpError(
      'unsupported_media_provider',
      `the calling service offers this call over ${provider}; this widget supports only "livekit"`,
      {
        reason: `browserDialToken answered telephonyProvider ${provider}`,
      },
    );
  }
  const serverUrl = settings.mediaUrl ?? media.url;
  if (!serverUrl) {
    throw new HttpError('upstream_error', 'the media server is not known', {
      reason: 'browserDialToken sent no url and VOICE_AGENT_MEDIA_URL (mediaUrl) is not configured',
    });
  }
  const problem = mediaUrlProblem(serverUrl);
  if (problem)
    throw new HttpError('upstream_error', 'the media server is not known', {
      reason: `the service's media url ${problem}`,
    });
  let iceServers: IceServer[] | null = null;
  try {
    iceServers = parseIceConfig(media.iceConfig);
  } catch (error) {
    warn(
      settings,
      `${error instanceof Error ? error.message : 'iceConfig unreadable'}; joining with the browser's default ICE servers`,
      dialId,
    );
  }
  return {
    serverUrl,
    participantToken: media.token,
    dialToken,
    graphqlUrl: settings.graphqlUrl,
    sessionId,
    ...(iceServers ? { iceServers } : {}),
  };
}

/**
 * The create's answer carries the media credentials too, so a first call needs one request to the
 * site before joining: `browserDialToken` with the dial token the create answered (one service
 * call after the create; a dial adopted from a 409 has none, and when that call is refused the
 * token route's way is taken, REST token first). A failure here does not fail the create (the dial
 * exists and the visitor holds its handle): the answer goes without them, the reason is logged, and
 * the browser asks the token route, which answers that failure as its own. Except a dial the
 * service ended at once (a busy workspace): the answer says `ended: true`, and the browser reads the
 * dial for why instead of asking for a token it would be refused (a 409 the browser would log as a
 * red console error).
 */
async function mediaOnCreate(
  settings: CompanionSettings,
  exchange: Exchange,
  created: CreatedDial,
): Promise<MediaCredentials | 'ended' | null> {
  try {
    return await mediaCredentials(settings, exchange, created.dialId, created.sessionId, created.dialToken);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    if (error.code === 'duplicate_request') {
      const why = 'the dial had already ended: answered `ended`, without media credentials';
      exchange.reason = exchange.reason === undefined ? why : `${exchange.reason}; ${why}`;
      return 'ended';
    }
    const why = `media credentials not sent (${error.code}${error.reason ? `: ${error.reason}` : ''}); the token route gives them`;
    exchange.reason = exchange.reason === undefined ? why : `${exchange.reason}; ${why}`;
    return null;
  }
}

/** `POST /dials/:id/token`: the dial's media credentials again (a rejoin, or a create that could not send them). */
export async function token(settings: CompanionSettings, exchange: Exchange, dialId: string): Promise<CompanionAnswer> {
  const claims = await authorize(settings, exchange, dialId);
  const sessionId = claims.sessionId;
  if (!sessionId) {
    throw new HttpError('invalid_handle', 'this handle predates the session protocol; start a new call', {
      reason: 'handle without a session id',
    });
  }
  const { resumeOf } = await readTokenBody(exchange.request, settings.maxBodyBytes);
  await limitDialCall(settings, exchange, dialId, 'token');
  // A browser that left (`/leave`) and rejoins: its dial is no longer to be ended.
  if (await clearPendingEnd(settings, exchange, dialId, resumeOf))
    exchange.reason = 'rejoined: the pending end was cleared';
  return jsonAnswer(200, await mediaCredentials(settings, exchange, dialId, sessionId));
}

/** Forgets a pending end of `dialId`, in the shared store and this process's; true when there was one. */
async function clearPendingEnd(
  settings: CompanionSettings,
  exchange: Exchange,
  dialId: string,
  resumeOf: number | undefined,
): Promise<boolean> {
  // The leave this rejoin follows is remembered for two graces: its beacon, arriving late, ends nothing.
  const keepMs = settings.resumeGraceMs * 2;
  const local = await settings.localEnds.clear(dialId, resumeOf, keepMs);
  if (settings.pendingEnds === settings.localEnds) return local;
  try {
    return (await settings.pendingEnds.clear(dialId, resumeOf, keepMs)) || local;
  } catch {
    // The rejoin goes on; the end may still come (the visitor then sees the call end).
    exchange.reason = 'the pending-ends store is unreachable: a pending end of this dial could not be cleared';
    return local;
  }
}

/**
 * `POST /dials/:id/leave`: the browser left the call without hanging up (a page with `persist` going
 * away; the handle in the header or, from `sendBeacon`, the body). The dial is hung up after the
 * resume grace unless the browser rejoins through the token route first.
 */
export async function leave(settings: CompanionSettings, exchange: Exchange, dialId: string): Promise<CompanionAnswer> {
  const body = await readLeaveBody(exchange.request, settings.maxBodyBytes);
  const header = exchange.request.header('authorization') !== null;
  await authorize(settings, exchange, dialId, header ? undefined : body.handle);
  await limitDialCall(settings, exchange, dialId, 'leave');
  const dueAtMs = settings.now() + settings.resumeGraceMs;
  let scheduled: boolean;
  try {
    scheduled = await settings.pendingEnds.schedule(dialId, dueAtMs, body.leftAt);
  } catch {
    // A store outage must never keep a dial alive: this instance keeps the end itself.
    scheduled = await settings.localEnds.schedule(dialId, dueAtMs, body.leftAt);
    exchange.reason = "the pending-ends store is unreachable: this instance's timer ends the dial";
  }
  // The beacon came after the next page's rejoin (which named this leave): nothing to end.
  if (!scheduled) exchange.reason = 'a leave the browser had already rejoined after: nothing scheduled';
  const answer: LeaveAnswer = { success: true, endsAt: scheduled ? new Date(dueAtMs).toISOString() : null };
  return jsonAnswer(200, answer);
}

/**
 * Ends a dial whose browser left and did not come back within the grace (a pending end that came
 * due): the service's hang-up, and a log line either way. A dial already over answers the hang-up
 * with a refusal, which is logged as such, not as a failure.
 */
export async function endLeftDial(settings: CompanionSettings, dialId: string): Promise<void> {
  let outcome: string;
  let level: 'info' | 'warn' = 'info';
  try {
    await settings.service.hangupDial(dialId);
    outcome = 'ended a dial whose visitor left and did not rejoin within the resume grace';
  } catch (error) {
    level = 'warn';
    outcome = `could not end a dial whose visitor left (${error instanceof ServiceError ? error.code : error instanceof Error ? error.name : 'unknown error'}); its time cap ends it`;
  }
  try {
    settings.log({
      time: new Date(settings.now()).toISOString(),
      level,
      message: outcome,
      dialId,
      reason: 'resume grace over',
    });
  } catch {
    // A broken logger must not break the end.
  }
}

/** `GET /dials/:id`: the dial as visitors see it. */
export async function read(settings: CompanionSettings, exchange: Exchange, dialId: string): Promise<CompanionAnswer> {
  await authorize(settings, exchange, dialId);
  await limitDialCall(settings, exchange, dialId, 'read');
  let dial: ServiceDial;
  try {
    dial = await settings.service.getDial(dialId, { signal: exchange.request.signal });
  } catch (error) {
    throw upstreamFailure(error, 'read');
  }
  return jsonAnswer(200, publicDial(dialId, dial));
}

/** `POST /dials/:id/hangup`, with the handle in the header or (from `sendBeacon`) the body. */
export async function hangup(
  settings: CompanionSettings,
  exchange: Exchange,
  dialId: string,
): Promise<CompanionAnswer> {
  const bodyHandle =
    exchange.request.header('authorization') === null
      ? await readBeaconHandle(exchange.request, settings.maxBodyBytes)
      : undefined;
  await authorize(settings, exchange, dialId, bodyHandle);
  await limitDialCall(settings, exchange, dialId, 'hangup');
  let answer;
  try {
    answer = await settings.service.hangupDial(dialId, { signal: exchange.request.signal });
  } catch (error) {
    throw upstreamFailure(error, 'hangup');
  }
  return jsonAnswer(200, { success: answer.success });
}

/**
 * `POST /dials/:id/feedback`: the visitor's rating of the call, one per dial (the rate limiter
 * `feedbackPerDial`, shared across instances when it is Redis's), handed to `onFeedback` or logged
 * without its comment.
 */
export async function feedback(
  settings: CompanionSettings,
  exchange: Exchange,
  dialId: string,
): Promise<CompanionAnswer> {
  await authorize(settings, exchange, dialId);
  // Read first: a body refused as invalid does not count against the per-dial budget the call's
  // token route needs (the body is capped, and only the handle's holder gets this far).
  const { rating, comment } = await readFeedbackRequest(exchange.request, settings.maxBodyBytes);
  await limitDialCall(settings, exchange, dialId, 'feedback');
  const verdict = await settings.limiters.feedbackPerDial.take(dialId);
  if (!verdict.allowed) {
    // Nothing says the dial was rated while the store cannot be asked: a 429, not a 409.
    if (verdict.storeUnreachable)
      throw rateLimited('ratings cannot be taken right now; try again later', verdict, 'feedback-per-dial');
    throw new HttpError('duplicate_request', 'this call was rated already', { reason: 'feedback-per-dial limit' });
  }
  exchange.rating = rating;
  const at = new Date(settings.now()).toISOString();
  const received: CompanionFeedback = { dialId, rating, ...(comment !== undefined ? { comment } : {}), at };
  if (settings.onFeedback) {
    try {
      await settings.onFeedback(received);
    } catch (error) {
      throw new HttpError('internal_error', 'the companion failed to handle the request', {
        reason: `the onFeedback hook failed (${error instanceof Error ? error.name : 'unknown error'})`,
      });
    }
  } else {
    try {
      settings.log({
        time: at,
        level: 'info',
        message: 'visitor feedback (no onFeedback hook set)',
        dialId,
        rating,
        commented: comment !== undefined,
      });
    } catch {
      // A broken logger must not break the answer.
    }
  }
  return jsonAnswer(200, { success: true });
}

/**
 * `GET /service`: what a page may know of the service before it has a dial, which is the GraphQL URL
 * its dial tokens work on (no secret: every token answer names it too). The widget asks on intent, so
 * it can open the GraphQL socket beside the create and send `connection_init` once the dial token is in.
 */
export function serviceAnswer(settings: CompanionSettings): CompanionAnswer {
  const answer: ServiceAnswer = { graphqlUrl: settings.graphqlUrl };
  return jsonAnswer(200, answer);
}

const numberOrNull = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const stringOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

/** The dial as visitors see it: status, result, times and transcript — nothing else of the record. */
function publicDial(dialId: string, dial: ServiceDial) {
  const transcript = (Array.isArray(dial.transcript) ? dial.transcript : [])
    .filter(
      (line) =>
        typeof line === 'object' && line !== null && typeof line.text === 'string' && typeof line.speaker === 'string',
    )
    .map((line) => ({
      text: line.text,
      speaker: line.speaker,
      startTimeMs: numberOrNull(line.startTimeMs),
      endTimeMs: numberOrNull(line.endTimeMs),
    }));
  const answer: Record<string, unknown> = {
    dialId,
    status: dial.status,
    systemResultType: stringOrNull(dial.systemResultType),
    durationSeconds: numberOrNull(dial.durationSeconds),
    aiDurationSeconds: numberOrNull(dial.aiDurationSeconds),
    startedAt: stringOrNull(dial.startedAt),
    endedAt: stringOrNull(dial.endedAt),
    transcript,
  };
  if (dial.aiResult !== undefined && dial.aiResult !== null) answer.aiResult = dial.aiResult;
  return answer;
}
