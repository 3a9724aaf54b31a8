// The media room as a child process of the emulator (see supervisor.ts): libwebrtc is native code,
// and a crash in it must not take the REST and GraphQL API down. The dial lifecycle stays in the
// parent; this process reaches it over the IPC channel with the messages of ipc.ts. The parent
// also holds the room's port: each connection it accepts comes here as a socket handle.
import type { Socket } from 'node:net';
import { verifyParticipantToken } from '../media-token.js';
import type { DialEnd, MediaControl } from '../seam.js';
import type { ChildMessage, ParentMessage } from './ipc.js';
import type { RoomServer } from './server.js';

function send(message: ChildMessage): void {
  // The parent gone means this process has no reason to live (see 'disconnect' below).
  if (process.connected) process.send?.(message);
}

let nextId = 1;
const replies = new Map<number, (session: Awaited<ReturnType<MediaControl['sessionForRoom']>>) => void>();
/** `sessionStarted` waits by request id: the parent answers only when the session started. */
const waits = new Map<number, () => void>();
const endListeners = new Set<(dialId: string, end: DialEnd) => void>();
const pauseListeners = new Set<(dialId: string, paused: boolean) => void>();
const transferListeners = new Set<(dialId: string) => void>();

const control: MediaControl = {
  sessionForRoom(roomName) {
    const id = nextId++;
    return new Promise((resolve) => {
      replies.set(id, resolve);
      send({ type: 'sessionForRoom', id, roomName });
    });
  },
  joined: (dialId) => send({ type: 'command', name: 'joined', args: [dialId] }),
  addTranscript: (dialId, line) => send({ type: 'command', name: 'addTranscript', args: [dialId, line] }),
  liveTranscript: (dialId, line) => send({ type: 'command', name: 'liveTranscript', args: [dialId, line] }),
  setAiResult: (dialId, aiResult) => send({ type: 'command', name: 'setAiResult', args: [dialId, aiResult] }),
  end: (dialId, end) => send({ type: 'command', name: 'end', args: [dialId, end] }),
  sessionStarted(dialId, signal) {
    return new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const id = nextId++;
      const onAbort = () => {
        waits.delete(id);
        send({ type: 'unwait', id });
        reject(signal.reason);
      };
      waits.set(id, () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
      signal.addEventListener('abort', onAbort, { once: true });
      send({ type: 'waitSessionStarted', id, dialId });
    });
  },
  onEnded(listener) {
    endListeners.add(listener);
    return () => {
      endListeners.delete(listener);
    };
  },
  onAiPaused(listener) {
    pauseListeners.add(listener);
    return () => {
      pauseListeners.delete(listener);
    };
  },
  onTransferred(listener) {
    transferListeners.add(listener);
    return () => {
      transferListeners.delete(listener);
    };
  },
};

let media: RoomServer | undefined;
// Loaded as soon as this process starts, so that a standby room (see supervisor.ts) listens within
// milliseconds of its 'start'; imported, not a static import, so that a missing optional peer is
// reported to the parent instead of a silent exit. (libwebrtc itself loads on the first session.)
const serverModule = import('./server.js');
serverModule.catch(() => {}); // reported when 'start' awaits it

process.on('message', (message: ParentMessage, handle?: Socket) => {
  switch (message.type) {
    case 'connection':
      // The parent hands connections over only while this room serves; one that comes otherwise is closed.
      if (handle && media) media.accept(handle);
      else handle?.destroy();
      return;
    case 'rejoinable':
      media?.awaitRejoin(message.roomName, { dialId: message.dialId, joinedAt: message.joinedAt });
      return;
    case 'start': {
      const keys = { apiKeyName: message.keys.apiKeyName, secret: Buffer.from(message.keys.secret, 'base64') };
      serverModule
        .then(({ startMediaServer }) =>
          startMediaServer(
            {
              host: message.host,
              port: message.port,
              control,
              verifyToken: (token) => verifyParticipantToken(keys, token),
              log: (line) => send({ type: 'log', line }),
              connections: 'handed',
            },
            message.timings,
          ),
        )
        .then(
          (started) => {
            media = started;
            send({ type: 'ready', url: started.url });
          },
          (error: unknown) => {
            const failed: ChildMessage = {
              type: 'failed',
              message: error instanceof Error ? error.message : String(error),
              code: (error as { code?: string } | null)?.code,
            };
            if (process.connected && process.send) process.send(failed, () => process.exit(1));
            else process.exit(1);
          },
        );
      return;
    }
    case 'reply':
      replies.get(message.id)?.(message.session ?? undefined);
      replies.delete(message.id);
      return;
    case 'sessionStarted':
      waits.get(message.id)?.();
      waits.delete(message.id);
      return;
    case 'ended':
      for (const listener of [...endListeners]) listener(message.dialId, message.end);
      // The sessions have stopped sending to the dial's caller (Session.#finish is synchronous).
      send({ type: 'endHandled', id: message.id });
      return;
    case 'aiPaused':
      for (const listener of [...pauseListeners]) listener(message.dialId, message.paused);
      return;
    case 'transferred':
      for (const listener of [...transferListeners]) listener(message.dialId);
      return;
    case 'close':
      // process.exit, not a natural exit: libwebrtc crashes a process that winds down on its own.
      void (media?.close() ?? Promise.resolve()).finally(() => process.exit(0));
      return;
  }
});

// The emulator went away (even by SIGKILL): nothing would ever close this room.
process.on('disconnect', () => process.exit(0));
