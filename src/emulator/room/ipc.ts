// The messages between the emulator (parent, holding the store and its dial lifecycle) and its media room running
// as a supervised child process (room/child.ts, room/supervisor.ts).
import type { DialEnd, DialSession, TranscriptLine } from '../seam.js';
import type { RoomTimings } from './timings.js';

/** The fire-and-forget commands of `DialControl`, as the child sends them. */
export type Command =
  | { type: 'command'; name: 'joined'; args: [dialId: string] }
  | { type: 'command'; name: 'addTranscript'; args: [dialId: string, line: TranscriptLine] }
  | { type: 'command'; name: 'liveTranscript'; args: [dialId: string, line: TranscriptLine] }
  | { type: 'command'; name: 'setAiResult'; args: [dialId: string, aiResult: Record<string, unknown>] }
  | { type: 'command'; name: 'end'; args: [dialId: string, end: DialEnd] };

export type ChildMessage =
  | { type: 'ready'; url: string }
  | { type: 'failed'; message: string; code?: string }
  | { type: 'sessionForRoom'; id: number; roomName: string }
  | { type: 'waitSessionStarted'; id: number; dialId: string }
  | { type: 'unwait'; id: number }
  | { type: 'log'; line: string }
  | { type: 'endHandled'; id: number }
  | Command;

export type ParentMessage =
  | {
      type: 'start';
      host: string;
      port: number;
      keys: { apiKeyName: string; secret: string };
      timings: Partial<RoomTimings>;
    }
  | { type: 'reply'; id: number; session: DialSession | null }
  | { type: 'sessionStarted'; id: number }
  /** `id`: answered with `endHandled` once the room has acted on the end. */
  | { type: 'ended'; dialId: string; end: DialEnd; id: number }
  | { type: 'aiPaused'; dialId: string; paused: boolean }
  | { type: 'transferred'; dialId: string }
  /** A call a crashed room process held: its caller may rejoin here (`joinedAt`, ms since the epoch: its first join). */
  | { type: 'rejoinable'; roomName: string; dialId: string; joinedAt: number }
  /** Comes with a connection's socket (the handle): the parent holds the port, the room serves it. */
  | { type: 'connection' }
  | { type: 'close' };
