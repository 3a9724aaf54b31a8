// The emulator's media half: a LiveKit-protocol loopback room server (a test double, see
// README.md). HTTP + WebSocket on one port, 127.0.0.1 only:
//   HEAD/GET /          200 (livekit-client's prepareConnection)
//   GET /rtc/v1         the signal WebSocket, v1 path (token + join_request in the query; one peer connection)
//   GET /rtc            the signal WebSocket, v0 path (token + options in the query; publisher + subscriber connections)
//   GET /rtc/v1/validate, /rtc/validate  why an upgrade failed: 401 bad token, 404 "requested room does not exist", else 200
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { DialSession, MediaServer, MediaServerOptions } from '../seam.js';
import { DEFAULT_SCENARIO_TIMINGS } from '../agent/scenarios.js';
import { DEFAULT_TURN_OPTIONS } from '../agent/turn-detector.js';
import { decodeJoinRequest, joinFromV0Query } from './protocol/join-request.js';
import { DisconnectReason, leave } from './protocol/responses.js';
import { Session, type Dropped, type Rejoin, type SignalPath } from './session.js';
import { DEFAULT_DROP_GRACE_MS, DEFAULT_REJOIN_GRACE_MS, type RoomTimings } from './timings.js';

export type { RoomTimings } from './timings.js';

export const DEFAULT_ROOM_TIMINGS: RoomTimings = {
  ...DEFAULT_SCENARIO_TIMINGS,
  turn: DEFAULT_TURN_OPTIONS,
  thinkMs: 400,
  leaveCloseDelayMs: 150,
  timeUpLineMaxMs: 2500,
  dropGraceMs: DEFAULT_DROP_GRACE_MS,
  rejoinGraceMs: DEFAULT_REJOIN_GRACE_MS,
  ignoredPacketLogMs: 10000,
  qualityIntervalMs: 5000,
  peerLostGraceMs: 2000,
  departureTimeoutMs: 20_000,
};

const ROOM_MISSING = 'requested room does not exist';
/** The signal WebSocket's path for each signal path, and the validate route beside it. */
const SIGNAL_PATHS: Readonly<Record<string, SignalPath>> = { '/rtc/v1': 'v1', '/rtc': 'v0' };
const VALIDATE_PATHS: ReadonlySet<string> = new Set(['/rtc/v1/validate', '/rtc/validate']);
const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'canceled', 'busy', 'no-answer']);
/** The room in this process: a `MediaServer` that can also be told of a call a crashed room process held. */
export interface RoomServer extends MediaServer {
  /**
   * A call this process never held comes back: the room process that held it crashed (see
   * supervisor.ts). The caller's next join takes the dial up as a returning caller's (the agent
   * carries on); `joinedAt` (ms since the epoch, `wallClock`) is its first join, the transcript's
   * clock. Awaited until the dial ends; the supervisor times the wait.
   */
  awaitRejoin(roomName: string, rejoin: { dialId: string; joinedAt: number }): void;
}

/**
 * The largest signal frame the room reads: no LiveKit client message comes near it (an offer's SDP
 * is a few KiB). Past it the socket is closed with 1009 before the frame is buffered, so one
 * participant's frame cannot hold up the event loop every call in the room (and the agent's audio
 * pump) shares; ws's own default is 100 MiB.
 */
export const MAX_SIGNAL_FRAME_BYTES = 1024 * 1024;

type Admission = { ok: true; identity: string; dial: DialSession } | { ok: false; status: 401 | 404; body: string };

export async function startMediaServer(
  options: MediaServerOptions,
  timings: Partial<RoomTimings> = {},
): Promise<RoomServer> {
  const roomTimings: RoomTimings = { ...DEFAULT_ROOM_TIMINGS, ...timings };
  const { control } = options;
  /** The one browser in each room, by room name. */
  const active = new Map<string, Session>();
  /** Rooms whose connection dropped (emu-drop): refused from then on. */
  const dropped = new Set<string>();
  /** Rooms whose connection dropped once (emu-blip): the caller's rejoin carries the dial on. */
  const awaitingRejoin = new Map<string, Rejoin & { timer?: ReturnType<typeof setTimeout>; dialId?: string }>();
  const graceTimers = new Set<ReturnType<typeof setTimeout>>();
  /** `pauseAI` changes heard while a dial's room is in use (they may arrive while its caller is being admitted). */
  const pauses = new Map<string, boolean>();
  const stopHearingPauses = control.onAiPaused((dialId, paused) => {
    pauses.set(dialId, paused);
    for (const session of active.values()) if (session.dial.dialId === dialId) session.pauseAgent(paused);
  });
  const stopHearingTransfers = control.onTransferred((dialId) => {
    for (const session of active.values()) if (session.dial.dialId === dialId) session.transferAgent();
  });
  const stopHearingEnds = control.onEnded((dialId) => {
    pauses.delete(dialId);
    // A caller away (its page gone) whose dial ended meanwhile (the companion's grace) is not awaited any more.
    for (const [roomName, rejoin] of awaitingRejoin)
      if (rejoin.dialId === dialId && rejoin.away) stopAwaiting(roomName);
  });

  /** The room no longer waits for its caller's rejoin (taken, or its dial ended): its timer goes too. Returns what it waited with. */
  function stopAwaiting(roomName: string) {
    const rejoin = awaitingRejoin.get(roomName);
    if (!rejoin) return undefined;
    awaitingRejoin.delete(roomName);
    if (rejoin.timer !== undefined) {
      clearTimeout(rejoin.timer);
      graceTimers.delete(rejoin.timer);
    }
    return rejoin;
  }

  /** Ends the dial `ms` from now, as `failed` / `FAILED` unless `outcome` says otherwise, after `then`. */
  function endLater(
    dialId: string,
    ms: number,
    then = () => {},
    outcome: Parameters<typeof control.end>[1] = { status: 'failed', systemResultType: 'FAILED' },
  ): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => {
      graceTimers.delete(timer);
      then();
      control.end(dialId, outcome);
    }, ms);
    graceTimers.add(timer);
    return timer;
  }

  async function admit(request: IncomingMessage, url: URL): Promise<Admission> {
    const token = tokenOf(request, url);
    if (!token.ok) return { ok: false, status: 401, body: token.reason };
    let claims: { identity: string; roomName: string };
    try {
      claims = await options.verifyToken(token.token);
    } catch {
      return { ok: false, status: 401, body: 'invalid token' };
    }
    const dial = await control.sessionForRoom(claims.roomName);
    if (!dial || TERMINAL.has(dial.status) || dropped.has(claims.roomName)) {
      return { ok: false, status: 404, body: ROOM_MISSING };
    }
    return { ok: true, identity: claims.identity, dial };
  }

  const log = options.log ?? ((line: string) => process.stderr.write(`voice-agent-emulator: ${line}\n`));
  /** A refused signal connection, with why (never the token: only where it was looked for). */
  function refuse(socket: Duplex, request: IncomingMessage, url: URL, status: number, body: string): void {
    log(`media room: refused the ${url.pathname} upgrade: ${status} ${body} (${tokenPlace(request, url)})`);
    refuseUpgrade(socket, status, body);
  }

  const host = {
    control,
    timings: roomTimings,
    addresses: () => listeningAddresses(options.host),
    lingering: new Set<Promise<void>>(),
    log,
    closed(session: Session, how: Dropped | undefined) {
      const roomName = session.dial.roomName;
      if (active.get(roomName) === session) active.delete(roomName);
      if (how === 'for good') {
        dropped.add(roomName);
        endLater(session.dial.dialId, roomTimings.dropGraceMs);
      } else if (how === 'once') {
        // A caller that never comes back leaves the dial failed, as emu-drop does.
        const timer = endLater(session.dial.dialId, roomTimings.rejoinGraceMs, () => awaitingRejoin.delete(roomName));
        awaitingRejoin.set(roomName, { joinedAt: session.joinedAt, timer });
      } else if (how === 'lost') {
        // Gone without a goodbye: back within the departure timeout, or the dial ends as a hang-up.
        const dialId = session.dial.dialId;
        const timer = endLater(dialId, roomTimings.departureTimeoutMs, () => awaitingRejoin.delete(roomName), {
          status: 'completed',
          systemResultType: 'USER_HANGUP',
        });
        awaitingRejoin.set(roomName, { joinedAt: session.joinedAt, away: true, dialId, timer });
      } else if (how === 'away') {
        // Kept, with no timer of its own: the companion's grace (or the dial's time cap) ends a
        // dial whose caller does not come back.
        awaitingRejoin.set(roomName, { joinedAt: session.joinedAt, away: true, dialId: session.dial.dialId });
      }
    },
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const reply = (status: number, body: string) => {
      // livekit-client fetches these from the page's origin (validate classifies a failed upgrade).
      response.writeHead(status, {
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-store',
        'access-control-allow-origin': '*',
      });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    if (url.pathname === '/' && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply(200, 'voice-agent-emulator media room (a LiveKit-protocol test double)\n');
    }
    if (VALIDATE_PATHS.has(url.pathname) && request.method === 'GET') {
      admit(request, url).then(
        (admission) => (admission.ok ? reply(200, 'success') : reply(admission.status, admission.body)),
        () => reply(500, 'internal error'),
      );
      return;
    }
    reply(404, 'not found');
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_SIGNAL_FRAME_BYTES });

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const path = Object.hasOwn(SIGNAL_PATHS, url.pathname) ? SIGNAL_PATHS[url.pathname] : undefined;
    if (!path) return refuse(socket, request, url, 404, 'not found');
    void admit(request, url).then((admission) => {
      if (!admission.ok) return refuse(socket, request, url, admission.status, admission.body);
      const param = url.searchParams.get('join_request');
      let join;
      try {
        if (path === 'v0') join = joinFromV0Query(url.searchParams);
        else if (!param) throw new Error('no join_request');
        else join = decodeJoinRequest(param);
      } catch {
        return refuse(socket, request, url, 400, 'join_request missing or malformed');
      }
      wss.handleUpgrade(request, socket, head, (ws) => {
        const roomName = admission.dial.roomName;
        // No resume (the double keeps no session state to resume; livekit-client answers the refusal
        // with a full rejoin, which emu-blip takes), and one human per room: a second identity is
        // refused, while the same identity again replaces the connection it had, as a LiveKit server
        // does (the older one gets DUPLICATE_IDENTITY; the dial goes on with the newcomer).
        const current = active.get(roomName);
        const refusal = join.reconnect
          ? DisconnectReason.STATE_MISMATCH
          : current && current.identity !== admission.identity
            ? DisconnectReason.DUPLICATE_IDENTITY
            : undefined;
        if (refusal !== undefined) {
          log(
            `media room: refused ${admission.identity}'s ${join.reconnect ? 'resume' : 'join'} of ${roomName} (${DisconnectReason[refusal]})`,
          );
          ws.send(leave(refusal).toBinary());
          setTimeout(() => ws.close(), roomTimings.leaveCloseDelayMs).unref();
          return;
        }
        const replaced = current?.replace();
        const rejoin = stopAwaiting(roomName);
        const dial = admission.dial;
        const session = new Session(
          ws,
          join,
          path,
          admission.identity,
          { ...dial, aiPaused: pauses.get(dial.dialId) ?? dial.aiPaused },
          host,
          replaced ?? (rejoin && { joinedAt: rejoin.joinedAt, ...(rejoin.away ? { away: true as const } : {}) }),
        );
        active.set(roomName, session);
        log(
          `media room: ${admission.identity} joined ${roomName} on ${url.pathname} (${tokenPlace(request, url)})${current ? ', replacing its older connection (DUPLICATE_IDENTITY)' : ''}`,
        );
        session.start();
      });
    });
  });

  let port = options.port;
  if (options.connections !== 'handed') {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    port = (server.address() as AddressInfo).port;
  }

  return {
    url: `ws://${options.host}:${port}`,
    accept(socket) {
      server.emit('connection', socket);
    },
    awaitRejoin(roomName, { dialId, joinedAt }) {
      awaitingRejoin.set(roomName, { joinedAt, away: true, dialId });
    },
    async close() {
      stopHearingPauses();
      stopHearingTransfers();
      stopHearingEnds();
      for (const session of [...active.values()]) session.shutdown();
      await Promise.all(host.lingering);
      for (const timer of graceTimers) clearTimeout(timer);
      graceTimers.clear();
      awaitingRejoin.clear();
      if (wss.clients.size > 0) await new Promise((resolve) => setTimeout(resolve, roomTimings.leaveCloseDelayMs));
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The IPv4 addresses a server bound to `host` is reached on: `host` itself, or every interface's for 0.0.0.0. */
function listeningAddresses(host: string): readonly string[] {
  if (host !== '0.0.0.0' && host !== '::') return [host];
  return Object.values(networkInterfaces())
    .flat()
    .flatMap((info) => (info?.family === 'IPv4' ? [info.address] : []));
}

/**
 * The participant token as a LiveKit server reads it (its API-key auth middleware, in front of
 * rtcservice): the `Authorization: Bearer` header when there is one (LiveKit's Rust-core SDKs send
 * it there), else the `access_token` query parameter (livekit-client's).
 */
function tokenOf(request: IncomingMessage, url: URL): { ok: true; token: string } | { ok: false; reason: string } {
  const header = request.headers.authorization;
  if (header === undefined) return { ok: true, token: url.searchParams.get('access_token') ?? '' };
  const match = /^Bearer (.*)$/.exec(header);
  if (!match?.[1]) return { ok: false, reason: 'invalid authorization header' };
  return { ok: true, token: match[1] };
}

/** Where the token was looked for, for the log (never the token itself). */
function tokenPlace(request: IncomingMessage, url: URL): string {
  if (request.headers.authorization !== undefined) return 'token in the Authorization header';
  return url.searchParams.has('access_token') ? 'token in access_token' : 'no token';
}

function refuseUpgrade(socket: Duplex, status: number, body: string): void {
  const reason = { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found' }[status] ?? 'Error';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
