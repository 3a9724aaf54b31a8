// The media room in a supervised child process (room/child.ts). libwebrtc (@roamhq/wrtc) is
// native code: when it crashes, only the child dies. The REST and GraphQL API in this process
// keep answering; the child is started again, so the next call works with the same `mediaUrl`.
// The calls that were in the room drop as emu-blip's does: their connection goes without a
// LeaveRequest, and the restarted room takes each caller back for `rejoinGraceMs` (livekit-client's
// full reconnect, or a `persist` page's next page); a dial whose caller does not come back ends
// `failed` / `FAILED`.
//
// This process holds the room's port and hands each connection to the room process (a socket
// handle over IPC, unread): a connection made while the room starts again waits for it instead of
// being refused, so a call started in that moment connects a little later rather than failing.
import { fork, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { MediaKeys } from '../media-token.js';
import { explainMissingPeer } from '../optional-peers.js';
import type { DialControl, MediaServer } from '../seam.js';
import type { ChildMessage, ParentMessage } from './ipc.js';
import type { RoomTimings } from './timings.js';

export interface MediaHealth {
  /** `up`: the room answers; `restarting`: it crashed and is starting again; `down`: it could not be restarted. */
  state: 'up' | 'restarting' | 'down';
  /** The room process's id while it runs. */
  pid: number | null;
  /** How many times the room was started again after a crash. */
  restarts: number;
  /** The last crash (the last of `exits`): its exit code or signal, when, and how long the restart took. */
  lastExit: MediaExit | null;
  /** The last crashes, oldest first (at most 50). */
  exits: MediaExit[];
}

export interface MediaExit {
  code: number | null;
  signal: string | null;
  /** ISO time of the exit. */
  at: string;
  /** How long until the room listened again; null while restarting or when it could not. */
  restartMs: number | null;
}

const EXITS_KEPT = 50;

export interface SupervisedMedia extends MediaServer {
  health(): MediaHealth;
}

export interface SupervisorOptions {
  host: string;
  port: number;
  control: DialControl;
  keys: MediaKeys;
  timings: Partial<RoomTimings>;
  /** After a crash, a dropped call's caller may rejoin this long; then its dial ends `failed` (as emu-blip's). */
  rejoinGraceMs: number;
  log(line: string): void;
}

/** Waits between restart attempts that fail (the process dying at once). */
const RESTART_BACKOFF_MS = [0, 250, 500, 1000, 2000, 4000];
/** How long `close` waits for the room to close its calls before it is killed. */
const CLOSE_WAIT_MS = 5000;
/** A connection made while the room is starting again waits this long for it, then is closed. */
const CONNECTION_WAIT_MS = 10_000;
/** At most this many connections wait; later ones are closed at once. */
const CONNECTIONS_WAITING_MAX = 256;

const CHILD_ENTRY = fileURLToPath(
  new URL(import.meta.url.endsWith('.ts') ? './child.ts' : './child.js', import.meta.url),
);
/** The parent's loaders (`--import tsx` when run from source) without its test runner, inspector or watch flags. */
const CHILD_EXEC_ARGV = process.execArgv.filter((arg) => !/^--(test|inspect|watch)/.test(arg));

/** One run of the room process: the work it has asked the parent for. */
interface Run {
  child: ChildProcess;
  /** `sessionStarted` waits the child asked for, by request id. */
  waits: Map<number, AbortController>;
  /** Dials whose browser joined through this run and that have not ended, with their room names. */
  inRoom: Map<string, string>;
  /** Ends told to this run and not yet acted on, by id (see `endHandled`). */
  endsPending: Map<number, () => void>;
}

export async function startSupervisedMedia(options: SupervisorOptions): Promise<SupervisedMedia> {
  const { control, log } = options;
  const roomOfDial = new Map<string, string>();
  /** When each dial's browser first joined (ms since the epoch): a rejoin's transcript clock goes on from it. */
  const firstJoined = new Map<string, number>();
  /** Calls a crash dropped, by dial: the room takes their caller back until the timer ends the dial. */
  const rejoinable = new Map<string, { roomName: string; timer: ReturnType<typeof setTimeout> }>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let run: Run | undefined;
  let closing = false;
  const health: Omit<MediaHealth, 'lastExit'> = { state: 'up', pid: null, restarts: 0, exits: [] };

  let nextEndId = 1;
  const unsubscribeEnded = control.onEnded((dialId, end) => {
    run?.inRoom.delete(dialId);
    roomOfDial.delete(dialId);
    firstJoined.delete(dialId);
    rejoined(dialId);
    const current = run;
    if (!current?.child.connected) return;
    // Resolves once the room has acted on the end (its `endHandled`), or is gone.
    const id = nextEndId++;
    const handled = new Promise<void>((resolve) => current.endsPending.set(id, resolve));
    tell(current, { type: 'ended', dialId, end, id });
    return handled;
  });
  const unsubscribePaused = control.onAiPaused((dialId, paused) => tell(run, { type: 'aiPaused', dialId, paused }));
  const unsubscribeTransferred = control.onTransferred((dialId) => tell(run, { type: 'transferred', dialId }));
  const unsubscribe = () => {
    unsubscribeEnded();
    unsubscribePaused();
    unsubscribeTransferred();
  };

  function tell(target: Run | undefined, message: ParentMessage): void {
    if (target?.child.connected) target.child.send(message);
  }

  function onMessage(current: Run, message: ChildMessage): void {
    switch (message.type) {
      case 'sessionForRoom': {
        // The room is in use: have the next process ready (REST-only users never pay for one).
        prepareStandby();
        const session = control.sessionForRoom(message.roomName);
        if (session) roomOfDial.set(session.dialId, session.roomName);
        tell(current, { type: 'reply', id: message.id, session: session ?? null });
        return;
      }
      case 'waitSessionStarted': {
        const controller = new AbortController();
        current.waits.set(message.id, controller);
        control.sessionStarted(message.dialId, controller.signal).then(
          () => {
            current.waits.delete(message.id);
            tell(current, { type: 'sessionStarted', id: message.id });
          },
          () => current.waits.delete(message.id),
        );
        return;
      }
      case 'endHandled':
        current.endsPending.get(message.id)?.();
        current.endsPending.delete(message.id);
        return;
      case 'unwait':
        current.waits.get(message.id)?.abort();
        current.waits.delete(message.id);
        return;
      case 'log':
        log(message.line);
        return;
      case 'command':
        switch (message.name) {
          case 'joined': {
            const [dialId] = message.args;
            const roomName = roomOfDial.get(dialId);
            if (roomName) current.inRoom.set(dialId, roomName);
            if (!firstJoined.has(dialId)) firstJoined.set(dialId, Date.now());
            rejoined(dialId);
            return control.joined(...message.args);
          }
          case 'addTranscript':
            return control.addTranscript(...message.args);
          case 'liveTranscript':
            return control.liveTranscript(...message.args);
          case 'setAiResult':
            return control.setAiResult(...message.args);
          case 'end':
            return control.end(...message.args);
        }
    }
  }

  /** A room process, forked and loading its modules, not yet listening. */
  function forkRoom(): ChildProcess {
    const child = fork(CHILD_ENTRY, [], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], execArgv: CHILD_EXEC_ARGV });
    // The room writes nothing on purpose; anything it prints goes to stderr, never to a CLI's stdout.
    child.stdout?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    // A standby that dies before it is needed is simply not used.
    child.on('error', () => {});
    return child;
  }

  /**
   * The next room process, forked while the current one runs (once a browser has asked to join),
   * so that a restart after a crash only has to listen (milliseconds) instead of starting Node and
   * loading the room (~0.5 s).
   */
  let standby: ChildProcess | undefined;
  function prepareStandby(): void {
    if (closing || (standby && standby.exitCode === null && standby.signalCode === null)) return;
    standby = forkRoom();
  }
  function takeStandby(): ChildProcess {
    const ready =
      standby && standby.connected && standby.exitCode === null && standby.signalCode === null ? standby : undefined;
    standby = undefined;
    return ready ?? forkRoom();
  }

  // The room's port, held here for every run of the room process.
  const listener = createServer({ pauseOnConnect: true }, (socket) => hand(socket));
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(options.port, options.host, () => {
      listener.off('error', reject);
      resolve();
    });
  });
  const port = (listener.address() as AddressInfo).port;
  const url = `ws://${options.host}:${port}`;
  /** Connections made while no room process is ready, oldest first, each with its give-up timer. */
  const waiting = new Map<Socket, ReturnType<typeof setTimeout>>();

  function hand(socket: Socket): void {
    if (closing) return void socket.destroy();
    const current = run;
    if (!current?.child.connected) return wait(socket);
    // keepOpen: a room that died before this process noticed leaves the connection here, to wait
    // for the next one; once sent, the room holds its own copy and this one is let go.
    current.child.send({ type: 'connection' } satisfies ParentMessage, socket, { keepOpen: true }, (error) => {
      if (error) wait(socket);
      else socket.destroy();
    });
  }

  function wait(socket: Socket): void {
    if (closing || health.state === 'down' || waiting.size >= CONNECTIONS_WAITING_MAX) {
      socket.destroy();
      return;
    }
    const timer = setTimeout(() => {
      waiting.delete(socket);
      socket.destroy();
    }, CONNECTION_WAIT_MS);
    waiting.set(socket, timer);
  }

  /** The connections that waited, to the room that is ready now (`hand` closes them when none will be). */
  function handWaiting(): void {
    const sockets = [...waiting];
    waiting.clear();
    for (const [socket, timer] of sockets) {
      clearTimeout(timer);
      hand(socket);
    }
  }

  /** Starts one run of the room (in the standby process when there is one); resolves once it is ready. */
  function spawnRun(child: ChildProcess = forkRoom()): Promise<{ run: Run }> {
    const current: Run = { child, waits: new Map(), inRoom: new Map(), endsPending: new Map() };
    return new Promise((resolve, reject) => {
      let failure: Error | undefined;
      const onExit = (code: number | null, signal: string | null) => {
        reject(failure ?? new Error(`the media room exited (${signal ?? `code ${code}`}) before it was ready`));
      };
      child.once('exit', onExit);
      child.on('message', (message: ChildMessage) => {
        if (message.type === 'ready') {
          child.off('exit', onExit);
          resolve({ run: current });
        } else if (message.type === 'failed') {
          failure = Object.assign(new Error(message.message), { code: message.code });
        } else {
          onMessage(current, message);
        }
      });
      tell(current, {
        type: 'start',
        host: options.host,
        port,
        keys: { apiKeyName: options.keys.apiKeyName, secret: Buffer.from(options.keys.secret).toString('base64') },
        timings: options.timings,
      });
    });
  }

  function adopt(started: { run: Run }): void {
    run = started.run;
    health.state = 'up';
    health.pid = run.child.pid ?? null;
    const current = run;
    current.child.once('exit', (code, signal) => crashed(current, code, signal));
    // Before the connections that waited: a dropped caller's rejoin may be among them.
    tellRejoinable(current);
    handWaiting();
  }

  /** A dropped call's caller is back (or its dial ended): it no longer waits to fail. */
  function rejoined(dialId: string): void {
    const dropped = rejoinable.get(dialId);
    if (!dropped) return;
    clearTimeout(dropped.timer);
    timers.delete(dropped.timer);
    rejoinable.delete(dialId);
  }

  /** The calls a crash dropped, to the room process that is ready now: their callers may rejoin there. */
  function tellRejoinable(current: Run): void {
    for (const [dialId, { roomName }] of rejoinable)
      tell(current, { type: 'rejoinable', roomName, dialId, joinedAt: firstJoined.get(dialId) ?? Date.now() });
  }

  /** A room process that is gone sends nothing more: the ends it was told of are acted on. */
  function endsActedOn(gone: Run): void {
    for (const resolve of gone.endsPending.values()) resolve();
    gone.endsPending.clear();
  }

  function crashed(current: Run, code: number | null, signal: string | null): void {
    if (closing || run !== current) return;
    run = undefined;
    const at = Date.now();
    health.state = 'restarting';
    health.pid = null;
    health.exits = [...health.exits, { code, signal, at: new Date(at).toISOString(), restartMs: null }].slice(
      -EXITS_KEPT,
    );
    for (const controller of current.waits.values()) controller.abort();
    endsActedOn(current);
    log(
      `media room exited (${signal ? `signal ${signal}` : `code ${code}`}); ${current.inRoom.size} call(s) dropped, their callers may rejoin for ${options.rejoinGraceMs} ms; restarting it on port ${port}`,
    );
    // Its calls dropped as emu-blip's do: the next room process takes their callers back, and a
    // dial whose caller does not come back in time fails. (A call dropped by an earlier crash and
    // not back yet keeps its timer.)
    for (const [dialId, roomName] of current.inRoom) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        rejoinable.delete(dialId);
        control.end(dialId, { status: 'failed', systemResultType: 'FAILED' });
      }, options.rejoinGraceMs);
      timers.add(timer);
      rejoinable.set(dialId, { roomName, timer });
    }
    void restart(at);
  }

  async function restart(crashedAt: number): Promise<void> {
    for (const wait of RESTART_BACKOFF_MS) {
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (closing) return;
      try {
        const started = await spawnRun(takeStandby());
        if (closing) {
          started.run.child.kill('SIGKILL');
          return;
        }
        adopt(started);
        health.restarts += 1;
        const restartMs = Date.now() - crashedAt;
        const exit = health.exits.at(-1);
        if (exit) exit.restartMs = restartMs;
        log(`media room back on port ${port} after ${restartMs} ms (restart ${health.restarts})`);
        prepareStandby();
        return;
      } catch (error) {
        log(`media room restart failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    health.state = 'down';
    handWaiting();
    log(`media room could not be restarted on port ${port}; media is down until the emulator restarts`);
  }

  try {
    adopt(await spawnRun());
  } catch (error) {
    unsubscribe();
    listener.close();
    throw explainMissingPeer(error);
  }

  return {
    get url() {
      return url;
    },
    accept: hand,
    health: () => structuredClone({ ...health, lastExit: health.exits.at(-1) ?? null }),
    async close() {
      if (closing) return;
      closing = true;
      unsubscribe();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      listener.close();
      handWaiting();
      // The standby has nothing open: cutting its channel ends it (child.ts exits on 'disconnect').
      if (standby?.connected) standby.disconnect();
      standby = undefined;
      const child = run?.child;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const killer = setTimeout(() => child.kill('SIGKILL'), CLOSE_WAIT_MS);
      if (child.connected) child.send({ type: 'close' } satisfies ParentMessage);
      else child.kill('SIGKILL');
      await exited;
      clearTimeout(killer);
      if (run) endsActedOn(run);
    },
  };
}
