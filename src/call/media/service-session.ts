// The service's browser protocol (research/service-graphql.md), run in the browser with the dial
// token as the service's own web client runs it: `connectSession` for the dial's status, on
// `GLOBAL_CALL_CONNECT` one `startDialSession`, and `watchLiveTranscriptEvents` for the live
// transcript. Subscriptions use graphql-ws (graphql-transport-ws); mutations a plain HTTP POST.
// Part of the lazily loaded media chunk: a page pays for it only when a call starts.
import { createClient, type Client } from 'graphql-ws/client';
import type { LiveSegment } from '../transcript.js';
import type { NonSpeechLine } from '../types.js';
import { LiveEventSegments, type ServiceTranscriptEvent } from './live-events.js';

export type { ServiceTranscriptEvent };

/** The operation texts the service's own web client sends, character for character. */
export const CONNECT_SESSION =
  'subscription ConnectSession($sessionId: ID!) { connectSession(sessionId: $sessionId) { messageType content { __typename ... on DialsUpdatedMessage { contactId dials { id status answerType callDispositionId systemResultType toNumber } contactComplete } ... on DialConnectMessage { dialId } ... on SessionUpdatedMessage { dialSession { id status } reason } } } }';
export const START_DIAL_SESSION =
  'mutation StartDialSession($sessionId: ID!) { startDialSession(dialSessionId: $sessionId) }';
export const SET_PAUSED =
  'mutation SetPaused($dialId: ID!, $pauseStatus: Boolean!) { pauseAI(dialId: $dialId, pauseStatus: $pauseStatus) { id } }';
/** A query that reads nothing, sent with startDialSession's headers so its CORS preflight is made early. */
export const WARM_QUERY = 'query Warm { __typename }';
export const REFRESH_TRANSCRIPT =
  'subscription RefreshTranscript($dialId: ID!) { watchLiveTranscriptEvents(dialId: $dialId) { eventType transcriptLine { role speaker text detailType audioStart audioEnd functionCalls { name arguments } } } }';

/** `url`'s origin when it is not the page's (null for the page's own, or a URL that does not parse). */
function otherOrigin(url: string): string | null {
  try {
    const { origin } = new URL(url, location.href);
    return origin === location.origin ? null : origin;
  } catch {
    return null;
  }
}

/** Dial statuses after which the official client stops listening. */
const TERMINAL_DIAL_STATUSES = new Set(['completed', 'canceled', 'no-answer', 'failed', 'busy']);

export interface ServiceSessionCallbacks {
  /** A `SESSION_CONTACT_UPDATE` named this dial with a terminal status. Fires at most once. */
  onDialEnded(status: string, systemResultType: string | null): void;
  /** `startDialSession` was not accepted (after one retry): the agent will not start. */
  onStartFailed(detail: string): void;
  /** A live transcript event as the segment it updates (only when `transcript` is on; not for non-speech lines). */
  onTranscript(segment: LiveSegment): void;
  /** The transcript subscription could not be opened, or ended early: poll instead. Fires at most once. */
  onTranscriptLost(): void;
  /** The status subscription could not be opened, or ended before the dial did. Fires at most once. */
  onStatusLost(): void;
}

export interface ServiceSessionOptions {
  /** The service's GraphQL endpoint (HTTP); the WebSocket URL is the same with ws(s). */
  graphqlUrl: string;
  dialToken: string;
  sessionId: string;
  dialId: string;
  /** Subscribe to the live transcript too. */
  transcript: boolean;
  /** Timeout of one `startDialSession` request. */
  requestTimeoutMs: number;
  callbacks: ServiceSessionCallbacks;
}

export interface ServiceSession {
  /** The browser is in the media room: if the status stream is gone before `GLOBAL_CALL_CONNECT`, start anyway. */
  roomJoined(): void;
  /** The live transcript's FUNCTION_RESULT, IVR and NODE_TRANSITION lines so far (kept after `close`). */
  readonly nonSpeechLines: NonSpeechLine[];
  /**
   * Pauses (`true`) or resumes the AI with the service's `pauseAI`, as the service's own client's
   * `setPaused` does; rejects with a reason (no service words) when it was not accepted.
   */
  pauseAI(paused: boolean): Promise<void>;
  /** Ends both subscriptions and closes the socket; idempotent. */
  close(): void;
}

const RETRY_DELAY_MS = 500;

/** How long `startDialSession` waits at most for the warm query's connection (`sendStart`). */
const WARM_WAIT_MS = 500;

/**
 * How long a socket opened ahead (`openEarlySocket`) waits for a session to take it: under
 * graphql-ws's default `connectionInitWaitTimeout` (3 s, the emulator's; the service's own wait is
 * not known), so a server with that default never times it out first. A session then opens its own
 * socket, as without one; it does the same when the server closed this one first.
 */
export const EARLY_SOCKET_WAIT_MS = 2500;

/** A socket opened ahead that no session has taken yet. */
interface EarlySocket {
  url: string;
  client: Client;
  /** Sends `connection_init` with this dial token. */
  grant(dialToken: string): void;
  expiry: ReturnType<typeof setTimeout>;
}
const earlySockets = new Set<EarlySocket>();

/** The graphql-transport-ws client of a session (`lazy`), or of a socket opened ahead (not lazy). */
function serviceClient(url: string, lazy: boolean, connectionParams: () => Promise<Record<string, unknown>>): Client {
  return createClient({
    url: url.replace(/^http/i, 'ws'),
    connectionParams,
    // A drop is not retried: the transcript falls back to polling through the companion and the
    // status to the media room and the dial record, so a reconnect could only duplicate them.
    retryAttempts: 0,
    lazy,
    lazyCloseTimeout: 0,
    // A socket opened ahead that fails before a session takes it is simply not used.
    onNonLazyError: () => undefined,
  });
}

/**
 * Opens the service's GraphQL socket before the dial's token is known (the call does, beside its
 * create, once the companion named the URL): its connection and WebSocket upgrade run while the
 * create is under way, and nothing is sent until `openServiceSession` takes it with the dial token.
 * Closed after `EARLY_SOCKET_WAIT_MS` if no session took it.
 */
export function openEarlySocket(graphqlUrl: string): void {
  let grant: (dialToken: string) => void = () => undefined;
  const token = new Promise<string>((resolve) => (grant = resolve));
  const client = serviceClient(graphqlUrl, false, async () => ({ authToken: await token }));
  const socket: EarlySocket = {
    url: graphqlUrl,
    client,
    grant,
    expiry: setTimeout(() => drop(socket), EARLY_SOCKET_WAIT_MS),
  };
  earlySockets.add(socket);
  // Closed before a session took it (the service refused it, the network dropped): not usable.
  client.on('closed', () => drop(socket));
  // The HTTP connection for the mutations is warmed beside it, by the call chunk's preconnect
  // (call-setup.ts). Not here when the session opens: the warm query goes out at once then, and
  // opens that connection itself.
}

/** Closes a socket opened ahead that no session took. */
function drop(socket: EarlySocket): void {
  if (!earlySockets.delete(socket)) return;
  clearTimeout(socket.expiry);
  // `dispose` alone would wait for an acknowledgement that cannot come before the token: the
  // socket is closed at once (4499), and the wait's rejection is expected.
  Promise.resolve(socket.client.dispose()).catch(() => undefined);
  socket.client.terminate();
}

/** A socket opened ahead for this URL, with `connection_init` sent with this token; null when none is open. */
function takeEarly(graphqlUrl: string, dialToken: string): Client | null {
  for (const socket of earlySockets) {
    if (socket.url !== graphqlUrl) continue;
    earlySockets.delete(socket);
    clearTimeout(socket.expiry);
    socket.grant(dialToken);
    return socket.client;
  }
  return null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Opens the subscriptions at once (as the official client does in `start()`, before it joins the
 * room), on a socket opened ahead for this URL (`openEarlySocket`) when one is open, else on a new one.
 */
export function openServiceSession(options: ServiceSessionOptions): ServiceSession {
  const { callbacks } = options;
  let closed = false;
  let started = false;
  let joined = false;
  let statusLost = false;
  let dialEnded = false;
  let transcriptLost = false;
  const stops: (() => void)[] = [];
  const liveEvents = new LiveEventSegments();
  const client =
    takeEarly(options.graphqlUrl, options.dialToken) ??
    serviceClient(options.graphqlUrl, true, () => Promise.resolve({ authToken: options.dialToken }));

  const start = (): void => {
    if (started || closed) return;
    started = true;
    void sendStart();
  };

  async function sendStart(): Promise<void> {
    let detail = '';
    // A warm query still on its way holds the connection it opened: the mutation waits for its
    // answer and takes that connection, instead of a new one (two round trips, the handshake and
    // the request, on the agent's first word; the network benchmark saw both go out together). At
    // most WARM_WAIT_MS: a warm query that stalls costs no more than a new connection would.
    let waited: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([warming, new Promise((resolve) => (waited = setTimeout(resolve, WARM_WAIT_MS)))]);
    clearTimeout(waited);
    for (let attempt = 0; attempt < 2 && !closed; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
      detail = await startDialSession();
      if (!detail || closed) return;
    }
    if (!closed) callbacks.onStartFailed(detail);
  }

  /** '' when the service accepted it, else why not. */
  function startDialSession(): Promise<string> {
    return mutate(
      'StartDialSession',
      'startDialSession',
      START_DIAL_SESSION,
      { sessionId: options.sessionId },
      (data) => data === true,
    );
  }

  /**
   * One mutation over HTTP with the dial token: '' when the service answered it and `accepted`
   * holds for its field, else why not (the service's own words stay out: they may reach a page's UI).
   */
  async function mutate(
    operationName: string,
    field: string,
    query: string,
    variables: Record<string, unknown>,
    accepted: (field: unknown) => boolean,
  ): Promise<string> {
    // Not AbortSignal.timeout: the browser keeps that alive until it fires; this one goes with the request.
    const timeout = new AbortController();
    const timer = setTimeout(
      () => timeout.abort(new DOMException(`${field} timed out`, 'TimeoutError')),
      options.requestTimeoutMs,
    );
    try {
      const response = await fetch(options.graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${options.dialToken}` },
        body: JSON.stringify({ operationName, query, variables }),
        signal: timeout.signal,
      });
      if (!response.ok) return `${field} answered HTTP ${response.status}`;
      const answer: unknown = await response.json();
      if (isObject(answer) && Array.isArray(answer.errors) && answer.errors.length > 0)
        return `${field} answered GraphQL errors`;
      if (!isObject(answer) || !isObject(answer.data) || !accepted(answer.data[field]))
        return `${field} answered without data`;
      return '';
    } catch (error) {
      return `${field} could not be sent (${error instanceof Error ? error.name : 'error'})`;
    } finally {
      clearTimeout(timer);
    }
  }

  // startDialSession's POST carries Authorization, so from a page on another origin the browser
  // sends a CORS preflight before it: on GLOBAL_CALL_CONNECT, a round trip more before the agent may
  // start. A query with the same headers now, beside the room's join, has that preflight made (and
  // its answer kept: Access-Control-Max-Age, 5 s when the service sends none) while nothing waits.
  // `{ __typename }` reads nothing of the dial; its answer is not used.
  const warming = otherOrigin(options.graphqlUrl)
    ? mutate('Warm', '__typename', WARM_QUERY, {}, () => true)
    : Promise.resolve('');

  const loseStatus = (): void => {
    if (statusLost || dialEnded || closed) return;
    statusLost = true;
    callbacks.onStatusLost();
    // Without the status stream GLOBAL_CALL_CONNECT cannot come: once in the room, start anyway.
    if (joined) start();
  };

  const loseTranscript = (): void => {
    if (transcriptLost || closed) return;
    transcriptLost = true;
    callbacks.onTranscriptLost();
  };

  stops.push(
    client.subscribe(
      { operationName: 'ConnectSession', query: CONNECT_SESSION, variables: { sessionId: options.sessionId } },
      {
        next: (result) => {
          if (closed) return;
          const message = isObject(result.data) ? result.data.connectSession : undefined;
          if (!isObject(message)) {
            if (result.errors) loseStatus();
            return;
          }
          if (message.messageType === 'GLOBAL_CALL_CONNECT') {
            start();
          } else if (
            message.messageType === 'SESSION_CONTACT_UPDATE' &&
            isObject(message.content) &&
            Array.isArray(message.content.dials)
          ) {
            const dials = message.content.dials.filter(isObject);
            // The official client reads the update only when it names one dial; ours is a one-dial session.
            const dial =
              dials.find((candidate) => candidate.id === options.dialId) ?? (dials.length === 1 ? dials[0] : undefined);
            const status = typeof dial?.status === 'string' ? dial.status : '';
            if (!dialEnded && TERMINAL_DIAL_STATUSES.has(status)) {
              dialEnded = true;
              callbacks.onDialEnded(status, typeof dial?.systemResultType === 'string' ? dial.systemResultType : null);
            }
          }
        },
        error: loseStatus,
        complete: loseStatus,
      },
    ),
  );

  if (options.transcript) {
    stops.push(
      client.subscribe(
        { operationName: 'RefreshTranscript', query: REFRESH_TRANSCRIPT, variables: { dialId: options.dialId } },
        {
          next: (result) => {
            if (closed) return;
            const event = isObject(result.data) ? result.data.watchLiveTranscriptEvents : undefined;
            if (!isObject(event)) {
              if (result.errors) loseTranscript();
              return;
            }
            const line = event.transcriptLine;
            if (!isObject(line) || typeof line.text !== 'string' || typeof line.role !== 'string') return;
            const parsed: ServiceTranscriptEvent = {
              final: event.eventType === 'FINAL',
              role: line.role,
              text: line.text,
            };
            if (typeof line.audioStart === 'number' && Number.isFinite(line.audioStart))
              parsed.startTimeMs = line.audioStart;
            if (typeof line.audioEnd === 'number' && Number.isFinite(line.audioEnd)) parsed.endTimeMs = line.audioEnd;
            if (Array.isArray(line.functionCalls)) {
              parsed.functionCalls = line.functionCalls
                .filter(isObject)
                .map((call) => ({ name: String(call.name ?? ''), arguments: String(call.arguments ?? '') }));
            }
            const segment = liveEvents.toSegment(parsed);
            if (segment) callbacks.onTranscript(segment);
          },
          error: loseTranscript,
          complete: loseTranscript,
        },
      ),
    );
  }

  return {
    roomJoined() {
      joined = true;
      if (statusLost) start();
    },
    get nonSpeechLines() {
      return liveEvents.nonSpeechLines;
    },
    async pauseAI(paused) {
      if (closed) throw new Error('pauseAI: the service session is closed');
      const variables = { dialId: options.dialId, pauseStatus: paused };
      const failure = await mutate('SetPaused', 'pauseAI', SET_PAUSED, variables, (dial) => isObject(dial));
      if (failure) throw new Error(failure);
    },
    close() {
      if (closed) return;
      closed = true;
      for (const stop of stops) stop();
      // Rejects when the socket fails while still connecting: it is gone either way.
      Promise.resolve(client.dispose()).catch(() => undefined);
    },
  };
}
