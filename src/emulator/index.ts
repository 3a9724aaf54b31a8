// `voice-agent-call/emulator`: a local stand-in for the Voice Agent Calling Service — its REST
// API (api/), its GraphQL browser protocol at `/query` (graphql/) and a LiveKit-protocol loopback
// media server with scripted agents (room/, agent/). Everything binds 127.0.0.1 (the media room
// another address when `mediaHost` asks for one).
import type { AddressInfo } from 'node:net';
import { createApiServer, GRAPHQL_PATH } from './api/server.js';
import type { EndedDialRetention } from './api/dial-lifecycle.js';
import type { IdempotencyMode } from './api/idempotency.js';
import { Store, tokenTtlSeconds } from './api/store.js';
import { createDialTokenKeys } from './dial-token.js';
import { createMediaKeys, signParticipantToken, verifyParticipantToken, type MediaKeys } from './media-token.js';
import { explainMissingPeer } from './optional-peers.js';
import type { MediaHealth, SupervisedMedia } from './room/supervisor.js';
import { DEFAULT_REJOIN_GRACE_MS, type RoomTimings } from './room/timings.js';
import type { DialControl } from './seam.js';

export { SCENARIO_AGENT_IDS, type ScenarioAgentId } from './api/agents.js';
export type {
  AgentRecord,
  AIModelRecord,
  AIVoiceRecord,
  BatchDialJobRecord,
  BatchDialSpecRecord,
  CreateDialOutput,
  DialRecord,
  DialTaskRecord,
  DialTokenOutput,
  EvalConfigRecord,
  EvalRecordRecord,
  EvalResultRecord,
  EvalRunRecord,
  ExtractorRecord,
  FunctionRecord,
  Page,
  PhoneNumberPoolRecord,
  PhoneNumberRecord,
  TranscriptRecord,
  VersionedPromptRecord,
} from './api/records.js';
export type { IdempotencyMode } from './api/idempotency.js';
export type { EndedDialRetention } from './api/dial-lifecycle.js';
export type { RoomTimings } from './room/timings.js';
export type { MediaExit, MediaHealth } from './room/supervisor.js';
export type { DialControl, DialEnd, DialSession, DialStatus, SystemResultType, TranscriptLine } from './seam.js';

export const DEFAULT_API_KEY = 'emu-dev-key';
const HOST = '127.0.0.1';

export interface EmulatorOptions {
  /** REST port; 0 (the default) picks a free one. */
  port?: number;
  /** Media (LiveKit signalling) port; 0 (the default) picks a free one. */
  mediaPort?: number;
  /**
   * The address the media room listens on and takes ICE candidates on. Default `127.0.0.1`.
   * LiveKit's Rust-core SDKs (`@livekit/rtc-node`, Python, Rust) gather no loopback candidates:
   * give them an address of a non-loopback interface, e.g. a veth pair kept inside a test's own
   * network namespace. The REST and GraphQL API stay on 127.0.0.1.
   */
  mediaHost?: string;
  /** The API key every REST call must carry as `Authorization: Bearer <apiKey>`. Default `emu-dev-key`. */
  apiKey?: string;
  /** How long a dial waits for the browser to join its room before it ends `no-answer`. Default 60 000. */
  joinWindowMs?: number;
  /** How many ms one minute of a dial's time cap lasts (tests shorten it). Default 60 000. */
  minuteMs?: number;
  /** A phone dial (a `toNumber`) rings this long after creation and is answered this long after ringing. Default 500. */
  phoneRingMs?: number;
  /** An answered phone dial lasts this long before the agent hangs up. Default 3000. */
  phoneTalkMs?: number;
  /** How long an evaluation run stays PENDING before it completes. Default 200. */
  evalRunMs?: number;
  /**
   * What `POST /dials` with a reused idempotency key gets: `replay` (default) answers the first
   * dial again for the same body; `strict` answers 409 naming the first dial for every reuse.
   */
  idempotency?: IdempotencyMode;
  /**
   * The bounded history of ended dials: at most `maxCount` (default 1 000) are kept, each for
   * `maxAgeMs` (default an hour) after it ended; a dropped dial answers 404. Running dials are
   * always kept. CLI: `--keep-ended-dials N`, `--keep-ended-dials-minutes N`.
   */
  endedDialRetention?: EndedDialRetention;
  /** Largest accepted request body in bytes. Default 64 KiB. */
  maxBodyBytes?: number;
  /** Shorter or longer scenario timings for the media room (tests shorten them). */
  roomTimings?: Partial<RoomTimings>;
  /**
   * `iceConfig` of `browserDialToken` answers for LiveKit dials, passed through as given (the
   * service's format is not known). Default null.
   */
  iceConfig?: string | null;
  /**
   * Run the media room (native WebRTC) in a supervised child process, restarted on the same port
   * if it crashes, so that a crash there never takes the REST and GraphQL API down. Default true;
   * `false` runs it in this process (one process, no restart).
   */
  isolateMedia?: boolean;
  /** Receives one line per request, GraphQL operation and dial transition; `false` silences it. Default: stderr. */
  logger?: ((line: string) => void) | false;
}

export interface Emulator {
  /** `http://127.0.0.1:PORT` */
  apiUrl: string;
  /** `ws://127.0.0.1:PORT` */
  mediaUrl: string;
  /** `http://127.0.0.1:PORT/query`: the GraphQL endpoint (HTTP POST; `graphql-transport-ws` at the same path with `ws:`). */
  graphqlUrl: string;
  apiKey: string;
  /** The store's dial lifecycle, as the media half drives it (tests use it to play the media half). */
  control: DialControl;
  /** Verifies a media-room participant token issued by this emulator (`browserDialToken`); throws on a bad one. */
  verifyToken(token: string): Promise<{ identity: string; roomName: string }>;
  /** Whether the API and the media room are up (also `GET /healthz`, which needs no key). */
  health(): EmulatorHealth;
  /** Stops every timer and both servers. */
  close(): Promise<void>;
}

export interface EmulatorHealth {
  /** True while the media room is up (the API answering is what lets anyone ask). */
  ok: boolean;
  media: MediaHealth;
}

/** The media room, loaded on start so that the REST-only parts never need its optional peers. */
async function loadRoom(): Promise<typeof import('./room/server.js')> {
  try {
    return await import('./room/server.js');
  } catch (error) {
    throw explainMissingPeer(error);
  }
}

/** The GraphQL endpoint, loaded on start for the same reason (graphql, graphql-ws). */
async function loadGraphql(): Promise<typeof import('./graphql/endpoint.js')> {
  try {
    return await import('./graphql/endpoint.js');
  } catch (error) {
    throw explainMissingPeer(error);
  }
}
/** The media room: a supervised child process (default), or in this process. */
async function startMedia(
  options: EmulatorOptions,
  control: DialControl,
  keys: MediaKeys,
  verifyToken: (token: string) => Promise<{ identity: string; roomName: string }>,
  log: (line: string) => void,
): Promise<SupervisedMedia> {
  const port = options.mediaPort ?? 0;
  const host = options.mediaHost ?? HOST;
  const timings = options.roomTimings ?? {};
  if (options.isolateMedia ?? true) {
    const { startSupervisedMedia } = await import('./room/supervisor.js');
    return startSupervisedMedia({
      host,
      port,
      control,
      keys,
      timings,
      rejoinGraceMs: timings.rejoinGraceMs ?? DEFAULT_REJOIN_GRACE_MS,
      log,
    });
  }
  const { startMediaServer } = await loadRoom();
  const media = await startMediaServer({ host, port, control, verifyToken, log }, timings);
  return {
    url: media.url,
    close: () => media.close(),
    accept: (socket) => media.accept(socket),
    health: () => ({ state: 'up', pid: process.pid, restarts: 0, lastExit: null, exits: [] }),
  };
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const apiKey = options.apiKey ?? DEFAULT_API_KEY;
  if (apiKey === '') throw new Error('apiKey must not be empty');
  const joinWindowMs = options.joinWindowMs ?? 60_000;
  const log =
    options.logger === false
      ? () => undefined
      : (options.logger ?? ((line: string) => process.stderr.write(`[emulator] ${line}\n`)));
  const mediaKeys = createMediaKeys();
  const dialTokens = createDialTokenKeys();
  const verifyToken = (token: string) => verifyParticipantToken(mediaKeys, token);
  const store = new Store({
    joinWindowMs,
    minuteMs: options.minuteMs ?? 60_000,
    phoneRingMs: options.phoneRingMs ?? 500,
    phoneTalkMs: options.phoneTalkMs ?? 3000,
    evalRunMs: options.evalRunMs ?? 200,
    idempotency: options.idempotency ?? 'replay',
    endedDialRetention: options.endedDialRetention,
    dialTokens,
    log,
  });

  const maxBodyBytes = options.maxBodyBytes ?? 64 * 1024;
  const { createGraphqlEndpoint } = await loadGraphql();
  const media = await startMedia(options, store.dials, mediaKeys, verifyToken, log);
  const health = (): EmulatorHealth => {
    const room = media.health();
    return { ok: room.state === 'up', media: room };
  };
  const graphql = createGraphqlEndpoint({
    dials: store.dials,
    apiKey,
    dialTokens,
    maxBodyBytes,
    log,
    mediaUrl: () => media.url,
    iceConfig: options.iceConfig ?? null,
    // The LiveKit participant token for the dial's room: the only token the room accepts.
    async issueMediaToken(dialId) {
      const session = store.dials.session(dialId);
      if (!session) throw new Error(`no dial ${dialId} to issue a media token for`);
      return signParticipantToken(mediaKeys, {
        identity: `caller-${dialId.slice(0, 8)}`,
        name: 'Caller',
        roomName: session.roomName,
        ttlSeconds: tokenTtlSeconds(joinWindowMs, session.maxDurationSeconds),
      });
    },
  });
  const server = createApiServer({ apiKey, store, graphql, maxBodyBytes, health, log });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, HOST, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await Promise.all([media.close(), graphql.close()]);
    throw error;
  }
  const { port } = server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  return {
    apiUrl: `http://${HOST}:${port}`,
    mediaUrl: media.url,
    graphqlUrl: `http://${HOST}:${port}${GRAPHQL_PATH}`,
    apiKey,
    control: store.dials,
    verifyToken,
    health,
    close() {
      closing ??= (async () => {
        store.dials.close();
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await Promise.all([stopped, media.close(), graphql.close()]);
      })();
      return closing;
    },
  };
}
