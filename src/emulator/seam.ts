// The seam between the emulator's REST half (api/) and its media half (room/, agent/).
// The REST half owns dial records and their lifecycle; the room reports what happens in the
// media session through these commands and listens for dials that end elsewhere.

import type { Socket } from 'node:net';

// The dial statuses and result types are the API client's own: the emulator answers what it reads.
import type { DialStatus, SystemResultType } from '../api/types/index.js';
export type { DialStatus, SystemResultType } from '../api/types/index.js';

/** One line of a dial's transcript, times relative to the dial's `startedAt`. */
export interface TranscriptLine {
  text: string;
  speaker: 'AI' | 'HUMAN';
  detailType?: string | null;
  startTimeMs: number;
  endTimeMs: number;
}

/** What the room needs to know about a dial when a browser joins its room. */
export interface DialSession {
  dialId: string;
  roomName: string;
  /** The scenario agent id (`emu-quick`, …) that decides how the agent behaves. */
  scenario: string;
  status: DialStatus;
  /** Time cap in seconds (from `timeoutMinutes`, else the agent's `maxDurationSeconds`). */
  maxDurationSeconds: number;
  /** `pauseAI` paused the agent (it may be paused before anyone joins). */
  aiPaused: boolean;
  /** The call was handed to a person (`hangupCall` with a `transferNumber`). */
  transferred?: boolean;
}

export interface DialEnd {
  status: Extract<DialStatus, 'completed' | 'failed' | 'canceled' | 'busy' | 'no-answer'>;
  systemResultType: SystemResultType;
}

/** Implemented by the REST half; used by the media half. */
export interface DialControl {
  /** The dial whose room has this name, if any. */
  sessionForRoom(roomName: string): DialSession | undefined;
  /** The browser joined the dial's room: `ringing`/`in-progress`, `startedAt` set. */
  joined(dialId: string): void;
  /** A line spoken or heard, recorded in the dial's transcript (a FINAL live-transcript event too). */
  addTranscript(dialId: string, line: TranscriptLine): void;
  /** A line still being spoken or heard, as far as it goes (a LIVE live-transcript event; not recorded). */
  liveTranscript(dialId: string, line: TranscriptLine): void;
  /** Resolves once the dial's session was started (`startDialSession`); rejects when `signal` aborts. */
  sessionStarted(dialId: string, signal: AbortSignal): Promise<void>;
  /** The extractor's result, set by scenarios such as `emu-quick`. */
  setAiResult(dialId: string, aiResult: Record<string, unknown>): void;
  /** Ends the dial (no-op when it is already terminal). */
  end(dialId: string, end: DialEnd): void;
  /**
   * Called with every dial that becomes terminal, whoever ended it; returns an unsubscribe. A
   * promise a listener returns is the room letting go of the dial, which an API hang-up waits for.
   */
  onEnded(listener: (dialId: string, end: DialEnd) => unknown): () => void;
  /** Called whenever `pauseAI` pauses or resumes a dial's agent (changes only); returns an unsubscribe. */
  onAiPaused(listener: (dialId: string, paused: boolean) => void): () => void;
  /** Called when `hangupCall` with a `transferNumber` hands a dial to a person; returns an unsubscribe. */
  onTransferred(listener: (dialId: string) => void): () => void;
}

/**
 * The REST half as the media half sees it: the same commands, but the room asks for a dial
 * asynchronously, since in a supervised child process (room/supervisor.ts) the answer crosses IPC.
 */
export interface MediaControl extends Omit<DialControl, 'sessionForRoom'> {
  sessionForRoom(roomName: string): DialSession | undefined | Promise<DialSession | undefined>;
}

/** Implemented by the media half; started by `startEmulator`. */
export interface MediaServer {
  /** `ws://127.0.0.1:PORT` */
  url: string;
  close(): Promise<void>;
  /** A connection accepted elsewhere (the supervisor's listening socket), served as if accepted here. */
  accept(socket: Socket): void;
}

export interface MediaServerOptions {
  host: string;
  port: number;
  control: MediaControl;
  /** Verifies a participant token (the same key the REST half signs with). */
  verifyToken(token: string): Promise<{ identity: string; roomName: string }>;
  /** Receives the room's log lines (a refused signal connection and its reason). Default: stderr. */
  log?(line: string): void;
  /**
   * `handed`: the room does not listen; another process holds `port` and hands each connection over
   * (`accept`), so a room started again after a crash takes the connections made meanwhile.
   */
  connections?: 'listen' | 'handed';
}
