// The companion endpoint's routes (README: "Routes and rules"), as the browser calls them. Every request has
// a timeout and follows the call's AbortSignal; errors are `CompanionError`s.
import type { CallErrorCode, CompanionErrorCode } from './error-codes.js';
import { CompanionError, abortError } from './errors.js';
import type { ServiceLine } from './transcript.js';
import type {
  BeaconHangupBody,
  CreateDialAnswer,
  CreateDialBody,
  DialRouteTail,
  ErrorAnswer,
  FeedbackBody,
  LeaveBody,
  MediaCredentials,
  ServiceAnswer,
  SessionGrant,
  TokenBody,
} from '../wire/companion.js';

export interface DialHandle {
  dialId: string;
  handle: string;
  /** The companion offers talking to a person on this dial (its create answered `transfer: true`). */
  transfer?: boolean;
}

/** What the browser needs to run the service's session protocol itself (GraphQL, with the dial token). */
export type ServiceSessionGrant = SessionGrant;

/**
 * The wire's `MediaCredentials` (the token route's answer, a create's `media`) as the browser
 * keeps them once checked: the session grant grouped, absent when the companion sent none usable.
 */
export interface MediaToken extends Pick<MediaCredentials, 'serverUrl' | 'participantToken'> {
  /** Absent from a companion that does not hand out the session protocol: the call then runs without it. */
  session?: ServiceSessionGrant;
  iceServers?: RTCIceServer[];
}

/** A new dial: its handle, and its media credentials when the companion sent them with it. */
export interface CreatedDial extends DialHandle {
  media?: MediaToken;
  /** The service ended the dial as it was created (e.g. busy): no token to ask for; its record says why. */
  ended?: true;
}

/** The media credentials in a token answer (or a create's `media`); null when it has none the browser can use. */
function mediaTokenOf(value: unknown): MediaToken | null {
  const answer = value as (Partial<Omit<MediaCredentials, 'iceServers'>> & { iceServers?: unknown }) | null;
  if (!answer || typeof answer.serverUrl !== 'string' || typeof answer.participantToken !== 'string') return null;
  const token: MediaToken = { serverUrl: answer.serverUrl, participantToken: answer.participantToken };
  const { dialToken, graphqlUrl, sessionId } = answer;
  if (
    typeof dialToken === 'string' &&
    dialToken &&
    typeof sessionId === 'string' &&
    sessionId &&
    typeof graphqlUrl === 'string' &&
    /^https?:\/\//i.test(graphqlUrl)
  ) {
    token.session = { dialToken, graphqlUrl, sessionId };
  }
  const iceServers = iceServersOf(answer.iceServers);
  if (iceServers) token.iceServers = iceServers;
  return token;
}

/** The companion validated them; only the shape the browser needs is checked here. */
function iceServersOf(value: unknown): RTCIceServer[] | undefined {
  return Array.isArray(value) &&
    value.length > 0 &&
    value.every((server) => typeof server?.urls === 'string' || Array.isArray(server?.urls))
    ? (value as RTCIceServer[])
    : undefined;
}

/** The dial record as the companion returns it. */
export interface DialRecord {
  dialId: string;
  status: string;
  systemResultType: string | null;
  durationSeconds: number | null;
  aiDurationSeconds: number | null;
  startedAt: string | null;
  endedAt: string | null;
  transcript: ServiceLine[];
  aiResult?: Record<string, unknown> | null;
}

/** Dial statuses after which nothing changes any more. */
const TERMINAL_STATUSES = new Set(['completed', 'failed', 'canceled', 'cancelled', 'no-answer', 'busy']);

export function isTerminal(record: Pick<DialRecord, 'status'>): boolean {
  return TERMINAL_STATUSES.has(record.status);
}

/** The route of one dial: `/dials/:id` and below. */
function dialPath(dial: DialHandle, route: DialRouteTail): string {
  return `/dials/${encodeURIComponent(dial.dialId)}${route}`;
}

/** A dial's routes are authorised by its handle. */
function bearer(dial: DialHandle): Record<string, string> {
  return { authorization: `Bearer ${dial.handle}` };
}

/**
 * A signal that aborts with a `TimeoutError` after `ms`, and `clear()` to let it go sooner. Unlike
 * `AbortSignal.timeout`, which the browser keeps alive until its timer fires (10 s of a call's
 * signals at a time, the endurance bench saw), a cleared one is collected with its request.
 */
export function timeoutSignal(ms: number): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('the request timed out', 'TimeoutError')), ms);
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

/** Each endpoint's `GET /service` (the service's GraphQL URL), asked once per page; null when it named none. */
const serviceUrls = new Map<string, Promise<string | null>>();

/** Statuses worth one more attempt at creating a dial (with the same idempotency key). */
const RETRYABLE_STATUSES = new Set([502, 503, 504]);

export class CompanionClient {
  readonly endpoint: string;
  readonly requestTimeoutMs: number;

  constructor(endpoint: string, requestTimeoutMs = 10000) {
    this.endpoint = endpoint.replace(/\/+$/, '');
    this.requestTimeoutMs = requestTimeoutMs;
  }

  /**
   * `POST /dials`. Retried once on a network failure, a timeout or a 502/503/504 — with the same
   * `Idempotency-Key`, so the service replays the first dial instead of creating a second. (A
   * timed-out request may still have created the dial: the retry is how the widget learns it,
   * and so can hang it up.) The answer carries the media credentials too, from a companion that
   * could fetch them: then the call joins without asking the token route.
   */
  async createDial(body: CreateDialBody, idempotencyKey: string, signal: AbortSignal): Promise<CreatedDial> {
    const send = () =>
      this.#request('/dials', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
        body: JSON.stringify(body),
        signal,
      });
    let answer: unknown;
    try {
      answer = await send();
    } catch (error) {
      const retryable =
        error instanceof CompanionError &&
        error.code !== 'aborted' &&
        (error.status === 0
          ? error.code === 'network_error' || error.code === 'request_timeout'
          : RETRYABLE_STATUSES.has(error.status));
      if (!retryable) throw error;
      answer = await send();
    }
    const dial = answer as
      | (Partial<Omit<CreateDialAnswer, 'media' | 'ended' | 'transfer'>> & {
          media?: unknown;
          ended?: unknown;
          transfer?: unknown;
        })
      | null;
    if (!dial || typeof dial.dialId !== 'string' || typeof dial.handle !== 'string') {
      throw new CompanionError('invalid_response', 'the companion answered POST /dials without dialId and handle');
    }
    const media = mediaTokenOf(dial.media);
    return {
      dialId: dial.dialId,
      handle: dial.handle,
      ...(media ? { media } : {}),
      ...(dial.ended === true ? { ended: true as const } : {}),
      ...(dial.transfer === true ? { transfer: true } : {}),
    };
  }

  /**
   * `GET /service`: the service's GraphQL URL, which a call may open its socket to beside the
   * create. Asked once per page and endpoint (on intent, or by the first call); null for the page
   * from a companion that does not name it (an older one answers 404) or could not be reached.
   */
  serviceUrl(): Promise<string | null> {
    let known = serviceUrls.get(this.endpoint);
    if (!known) {
      known = this.#request('/service', { signal: new AbortController().signal }).then(
        (answer) => {
          const url = String((answer as Partial<ServiceAnswer> | null)?.graphqlUrl);
          return /^https?:\/\//i.test(url) ? url : null;
        },
        () => null,
      );
      serviceUrls.set(this.endpoint, known);
    }
    return known;
  }

  /** `POST /dials/:id/token`: the media credentials again (a rejoin, or a create that answered without them). */
  async token(dial: DialHandle, signal: AbortSignal, resumeOf?: number): Promise<MediaToken> {
    // A rejoin after a page left (`persist`) names that leave, so its beacon, if it arrives after
    // this request, ends nothing (src/server/pending-ends.ts).
    const body: TokenBody | undefined = resumeOf === undefined ? undefined : { resumeOf };
    const token = mediaTokenOf(await this.#onDial(dial, '/token', 'POST', signal, body));
    if (!token) {
      throw new CompanionError(
        'invalid_response',
        'the companion answered the token request without serverUrl and participantToken',
      );
    }
    return token;
  }

  /** `GET /dials/:id`: the dial record (status, result, transcript). */
  async readDial(dial: DialHandle, signal: AbortSignal): Promise<DialRecord> {
    const answer = (await this.#onDial(dial, '', 'GET', signal)) as Partial<DialRecord> | null;
    if (!answer || typeof answer.status !== 'string') {
      throw new CompanionError('invalid_response', 'the companion answered the dial read without a status');
    }
    return {
      dialId: typeof answer.dialId === 'string' ? answer.dialId : dial.dialId,
      status: answer.status,
      systemResultType: answer.systemResultType ?? null,
      durationSeconds: answer.durationSeconds ?? null,
      aiDurationSeconds: answer.aiDurationSeconds ?? null,
      startedAt: answer.startedAt ?? null,
      endedAt: answer.endedAt ?? null,
      transcript: Array.isArray(answer.transcript) ? answer.transcript : [],
      aiResult: answer.aiResult ?? null,
    };
  }

  /** `POST /dials/:id/hangup`, awaited. */
  async hangup(dial: DialHandle, signal: AbortSignal): Promise<void> {
    await this.#onDial(dial, '/hangup', 'POST', signal);
  }

  /** `POST /dials/:id/feedback`: the visitor's rating of the call (one per dial; a second is a 409 `duplicate_request`). */
  async feedback(dial: DialHandle, body: FeedbackBody, signal: AbortSignal): Promise<void> {
    await this.#onDial(dial, '/feedback', 'POST', signal, body);
  }

  /** `POST /dials/:id/transfer`: the companion asked the service to hand the call to a person, and it accepted. */
  async transfer(dial: DialHandle, signal: AbortSignal): Promise<void> {
    await this.#onDial(dial, '/transfer', 'POST', signal);
  }

  /** Hangs up with a `keepalive` fetch that outlives the page or element; fire and forget. */
  hangupKeepalive(dial: DialHandle): void {
    this.keepalive(dial, '/hangup');
  }

  /** Hangs up while the page unloads: by beacon (`beacon`), the keepalive fetch when the beacon is refused. */
  hangupBeacon(dial: DialHandle): void {
    this.beacon(dial, '/hangup');
  }

  /**
   * Tells the companion the browser left without hanging up (a page with `persist` going away):
   * `POST /dials/:id/leave` by beacon. The companion ends the dial after its grace unless the
   * token route is asked first.
   */
  leaveBeacon(dial: DialHandle, leftAt: number): void {
    this.beacon(dial, '/leave', { leftAt } satisfies LeaveBody);
  }

  /**
   * A `keepalive` POST on one dial's route, the handle in the header and `json` as the body when
   * given: it outlives the page or element. Fire and forget.
   */
  keepalive(dial: DialHandle, route: DialRouteTail, json?: object): void {
    const headers = json ? { ...bearer(dial), 'content-type': 'application/json' } : bearer(dial);
    const body = json ? JSON.stringify(json) : null;
    fetch(this.#url(dialPath(dial, route)), { method: 'POST', headers, body, keepalive: true }).catch(() => undefined);
  }

  /**
   * A POST on one dial's route while the page goes away: a beacon, which carries no headers, so
   * the handle goes in the body, beside `json`. It is `text/plain`, which the browser sends to a
   * companion on another origin without a preflight (a beacon's preflight asks for credentials,
   * which the companion's CORS does not grant, so a JSON beacon to another origin was dropped
   * while `sendBeacon` reported it queued); the companion reads it as JSON. When the browser
   * refuses the beacon, the `keepalive` POST. Fire and forget.
   */
  beacon(dial: DialHandle, route: DialRouteTail, json: object = {}): void {
    const handle: BeaconHangupBody = { handle: dial.handle };
    const blob = new Blob([JSON.stringify({ ...json, ...handle })], { type: 'text/plain' });
    const queued =
      typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(this.#url(dialPath(dial, route)), blob);
    if (!queued) this.keepalive(dial, route, Object.keys(json).length > 0 ? json : undefined);
  }

  /** A request on one dial's route, with its handle, and `json` as its body when given. */
  #onDial(
    dial: DialHandle,
    route: DialRouteTail,
    method: string,
    signal: AbortSignal,
    json?: object,
  ): Promise<unknown> {
    const init: RequestInit & { signal: AbortSignal } =
      json === undefined
        ? { method, headers: bearer(dial), signal }
        : {
            method,
            headers: { ...bearer(dial), 'content-type': 'application/json' },
            body: JSON.stringify(json),
            signal,
          };
    return this.#request(dialPath(dial, route), init);
  }

  #url(path: string): string {
    return this.endpoint + path;
  }

  async #request(path: string, init: RequestInit & { signal: AbortSignal }): Promise<unknown> {
    const { signal } = init;
    if (signal.aborted) throw abortError(signal);
    const timer = timeoutSignal(this.requestTimeoutMs);
    try {
      return await this.#exchange(path, init, timer.signal);
    } finally {
      timer.clear();
    }
  }

  async #exchange(path: string, init: RequestInit & { signal: AbortSignal }, timeout: AbortSignal): Promise<unknown> {
    const { signal } = init;
    let response: Response;
    try {
      response = await fetch(this.#url(path), { ...init, signal: AbortSignal.any([signal, timeout]) });
    } catch (error) {
      throw this.#failure(path, error, signal, timeout);
    }
    let body: unknown = null;
    try {
      const text = await response.text();
      body = text ? JSON.parse(text) : null;
    } catch (error) {
      if (signal.aborted || timeout.aborted) throw this.#failure(path, error, signal, timeout);
      if (response.ok) {
        throw new CompanionError('invalid_response', `the companion answered ${path} with a body that is not JSON`, {
          status: response.status,
          cause: error,
        });
      }
    }
    if (signal.aborted) throw abortError(signal);
    if (!response.ok) {
      const error = (body as { error?: Partial<Record<keyof ErrorAnswer['error'], unknown>> } | null)?.error;
      const message =
        typeof error?.message === 'string'
          ? error.message
          : `the companion answered ${path} with HTTP ${response.status}`;
      // The companion's codes are its contract (CompanionErrorCode); passed on as it sent them.
      const code: CallErrorCode =
        typeof error?.code === 'string' ? (error.code as CompanionErrorCode) : `http_${response.status}`;
      throw new CompanionError(code, message, { status: response.status });
    }
    return body;
  }

  #failure(path: string, error: unknown, signal: AbortSignal, timeout: AbortSignal): CompanionError {
    if (signal.aborted)
      return new CompanionError('aborted', 'the call ended before the companion answered', { cause: error });
    if (timeout.aborted) {
      return new CompanionError(
        'request_timeout',
        `the companion did not answer ${path} within ${this.requestTimeoutMs} ms`,
        { cause: error },
      );
    }
    return new CompanionError(
      'network_error',
      `the companion could not be reached (${path})${this.#crossOriginHint()}`,
      {
        cause: error,
      },
    );
  }

  /**
   * For an endpoint on another origin: a refusal without CORS headers (an older companion, a proxy
   * in front of it) reaches the page as this same network error, so say where to look.
   */
  #crossOriginHint(): string {
    const page = globalThis.location?.href;
    if (!page || !URL.canParse(this.endpoint, page)) return '';
    const origin = new URL(this.endpoint, page).origin;
    if (origin === globalThis.location.origin) return '';
    return `; it is on another origin (${origin}): if it is up, check that it allows this page's origin (${globalThis.location.origin}) in COMPANION_ALLOWED_ORIGINS, since the browser hides an answer without CORS headers`;
  }
}
