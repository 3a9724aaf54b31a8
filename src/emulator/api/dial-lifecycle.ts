// The dials' lifecycle, a state machine over the store's dial table, driven by the REST routes,
// the media half (through `DialControl`) and two timers per dial:
//
//   queued ──token──▶ ringing ──joined──▶ in-progress ──hangup──▶ completed / USER_HANGUP
//                                             ├──transfer──▶ in-progress with a person ──any end──▶ completed / TRANSFERRED
//     │                 │                     ├──time cap──▶ completed / TIMEOUT
//     │                 │                     └──room end──▶ (what the media half reports)
//     ├─────────────────┴──hangup──▶ canceled / CANCELLED
//     ├─────────────────┴──join window──▶ no-answer / NO_ANSWER
//     └──agent emu-busy, at creation──▶ failed / RATE_LIMITED
//
// Phone dials (a `toNumber`, no browser) have the same statuses without media (phone-dial.ts).
// The dial as the store holds it, and its record: dial-state.ts; the bounded history of ended
// dials: dial-history.ts.
//
// An agent's scenario is its id for the scenario agents, else its `metadata.scenario`, else emu-demo.
// Terminal dials never change again: a late hangup, transcript line or end is ignored.
//
// The GraphQL half watches a dial (`watch`): every status change, the browser joining its room,
// `startDialSession`, and each transcript line, interim (LIVE) or final (FINAL).
import { randomUUID } from 'node:crypto';
import type { DialControl, DialEnd, DialSession, DialStatus, TranscriptLine } from '../seam.js';
import { EMU_BUSY } from './agents.js';
import { EndedDials, MAX_TIMER_MS, type EndedDialRetention } from './dial-history.js';
import type { DialInput } from './dial-input.js';
import {
  isTerminal,
  recordOf,
  scenarioOf,
  sessionOf,
  type DialState,
  type DialUpdate,
  type DialWatcher,
} from './dial-state.js';
import { ringPhone, type PhoneSteps } from './phone-dial.js';
import type { DialRecord } from './records.js';
import type { Table } from './table.js';

export { isTerminal, type DialState, type DialUpdate, type DialWatcher } from './dial-state.js';
export type { EndedDialRetention } from './dial-history.js';

export interface DialLifecycleOptions {
  /** How long a browser has to join the dial's room before it ends `no-answer`. */
  joinWindowMs: number;
  /** How many ms one minute of `timeoutMinutes` (and 60 s of `maxDurationSeconds`) lasts; tests shorten it. */
  minuteMs: number;
  /** A phone dial rings this long after creation, and is answered this long after ringing. Default 500. */
  phoneRingMs?: number;
  /** An answered phone dial lasts this long before the agent hangs up. Default 3000. */
  phoneTalkMs?: number;
  /** How many ended dials are kept, and how long: the history is bounded (see `EndedDialRetention`). */
  endedDialRetention?: EndedDialRetention;
  /** Told each dial the history lets go of (the idempotency cache forgets its key). */
  onForgotten?: (dialId: string) => void;
  /** Reports lifecycle transitions (never secrets). */
  log: (line: string) => void;
}

/** A promise it returns is the room letting go of the dial (see `hangup`); anything else is ignored. */
export type EndListener = (dialId: string, end: DialEnd) => unknown;
export type PauseListener = (dialId: string, paused: boolean) => void;
export type TransferListener = (dialId: string) => void;

/**
 * How long an API hang-up waits at most for the room to let go of the dial (in its own process, one
 * IPC round trip) before it answers.
 */
const LET_GO_WAIT_MS = 2000;

export class DialLifecycle implements DialControl {
  private readonly dials: Table<DialState>;
  private readonly watchers = new Map<string, Set<DialWatcher>>();
  private readonly endListeners = new Set<EndListener>();
  /** Dials whose end the room is still acting on (their listeners' promises), until it has. */
  private readonly lettingGo = new Map<string, Promise<void>>();
  private readonly pauseListeners = new Set<PauseListener>();
  private readonly transferListeners = new Set<TransferListener>();
  private readonly options: DialLifecycleOptions;
  private readonly endedDials: EndedDials;
  /** What a phone dial's steps do, through this lifecycle (phone-dial.ts). */
  private readonly phoneSteps: PhoneSteps;

  /** `dials`: the store's dial table, which this lifecycle alone writes. */
  constructor(dials: Table<DialState>, options: DialLifecycleOptions) {
    this.dials = dials;
    this.options = options;
    this.endedDials = new EndedDials(options.endedDialRetention, (dialId) => this.forget(dialId));
    this.phoneSteps = {
      ringMs: options.phoneRingMs ?? 500,
      talkMs: options.phoneTalkMs ?? 3000,
      capMs: (dial) => this.capMs(dial),
      schedule: (dial, ms, step) => this.schedule(dial, ms, step),
      arm: (dial, ms, end) => this.arm(dial, ms, end),
      setStatus: (dial, status) => this.setStatus(dial, status),
      recordLine: (dial, line) => this.recordLine(dial, line),
      setAiResult: (dialId, aiResult) => this.setAiResult(dialId, aiResult),
      end: (dialId, end) => this.end(dialId, end),
    };
  }

  /** Creates a dial in `queued` (or ends it at once for a busy workspace) and returns its id. */
  create(input: DialInput): { dialId: string; sessionId: string; roomName: string } {
    const now = Date.now();
    const id = randomUUID();
    const dial: DialState = {
      id,
      scenario: scenarioOf(input.agent),
      phone: !input.browserCall,
      sessionId: randomUUID(),
      roomName: `dial-${id}`,
      input,
      status: 'queued',
      systemResultType: null,
      createdAt: now,
      updatedAt: now,
      startedAt: null,
      endedAt: null,
      transcript: [],
      aiResult: null,
      maxDurationSeconds: input.timeoutMinutes !== null ? input.timeoutMinutes * 60 : input.agent.maxDurationSeconds,
      timer: null,
      browserJoined: false,
      sessionStarted: false,
      aiPaused: false,
      transferredAt: null,
      transferNumber: null,
    };
    this.dials.set(id, dial);
    this.options.log(`dial ${id} queued (agent ${input.agent.id})`);
    if (dial.scenario === EMU_BUSY) {
      this.finish(dial, { status: 'failed', systemResultType: 'RATE_LIMITED' });
    } else if (dial.phone) {
      ringPhone(dial, this.phoneSteps);
    } else {
      this.arm(dial, this.options.joinWindowMs, { status: 'no-answer', systemResultType: 'NO_ANSWER' });
    }
    return { dialId: id, sessionId: dial.sessionId, roomName: dial.roomName };
  }

  has(dialId: string): boolean {
    return this.dials.has(dialId);
  }

  session(dialId: string): DialSession | undefined {
    const dial = this.dials.get(dialId);
    return dial && sessionOf(dial);
  }

  /** A token was issued: the browser is connecting, so a queued dial is now `ringing`. */
  tokenIssued(dialId: string): void {
    const dial = this.dials.get(dialId);
    if (dial?.status === 'queued' && !dial.phone) this.setStatus(dial, 'ringing');
  }

  /**
   * `POST /dials/{id}/hangup`: cancels a dial not yet joined, completes one in progress. Resolves
   * once the room has let go of it (it sends the caller nothing more), at most `LET_GO_WAIT_MS`
   * later: the caller's page, told the hang-up is done, disconnects, and the room must not be
   * sending to it then (libwebrtc's binding can crash on a send that meets the far side closing).
   */
  hangup(dialId: string): Promise<void> {
    const dial = this.dials.get(dialId);
    if (dial && !isTerminal(dial.status)) {
      this.finish(
        dial,
        dial.status === 'in-progress'
          ? { status: 'completed', systemResultType: 'USER_HANGUP' }
          : { status: 'canceled', systemResultType: 'CANCELLED' },
      );
    }
    const lettingGo = this.lettingGo.get(dialId);
    if (!lettingGo) return Promise.resolve();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const cap = new Promise<void>((resolve) => (timer = setTimeout(resolve, LET_GO_WAIT_MS)));
    return Promise.race([lettingGo, cap]).finally(() => clearTimeout(timer));
  }

  record(dialId: string): DialRecord | undefined {
    const dial = this.dials.get(dialId);
    return dial && recordOf(dial);
  }

  /** The dial of a dial session (`sessionId` of the create answer). */
  dialForSession(sessionId: string): string | undefined {
    return this.dials.find((dial) => dial.sessionId === sessionId)?.id;
  }

  hasBrowserJoined(dialId: string): boolean {
    return this.dials.get(dialId)?.browserJoined ?? false;
  }

  /** `startDialSession`: lets the agent speak. false for an ended dial; repeating it changes nothing. */
  startSession(dialId: string): boolean {
    const dial = this.dials.get(dialId);
    if (!dial || isTerminal(dial.status)) return false;
    if (!dial.sessionStarted) {
      dial.sessionStarted = true;
      this.options.log(`dial ${dial.id} session started`);
      this.emit(dial.id, { kind: 'session-started' });
    }
    return true;
  }

  /** `pauseAI`: the agent goes silent, or comes back. Ignored for an ended dial (GraphQL refuses it first). */
  setAiPaused(dialId: string, paused: boolean): void {
    const dial = this.dials.get(dialId);
    if (!dial || isTerminal(dial.status) || dial.aiPaused === paused) return;
    dial.aiPaused = paused;
    dial.updatedAt = Date.now();
    this.options.log(`dial ${dial.id} AI ${paused ? 'paused' : 'resumed'}`);
    for (const listener of [...this.pauseListeners]) {
      try {
        listener(dial.id, paused);
      } catch (error) {
        this.options.log(`an onAiPaused listener threw for dial ${dial.id}: ${String(error)}`);
      }
    }
  }

  /**
   * `hangupCall` with a `transferNumber`: the agent's part of a live browser dial ends and a person
   * takes the call (the room's agent script hands over). The caller of this checked that it may.
   */
  transfer(dialId: string, transferNumber: string): void {
    const dial = this.dials.get(dialId);
    if (!dial || dial.status !== 'in-progress' || dial.transferredAt !== null) return;
    dial.transferredAt = Date.now();
    dial.transferNumber = transferNumber;
    dial.aiPaused = false;
    dial.updatedAt = dial.transferredAt;
    this.options.log(`dial ${dial.id} transferred to a person`);
    for (const listener of [...this.transferListeners]) {
      try {
        listener(dial.id);
      } catch (error) {
        this.options.log(`an onTransferred listener threw for dial ${dial.id}: ${String(error)}`);
      }
    }
  }

  /** The dial was handed to a person (`transfer`). */
  transferred(dialId: string): boolean {
    return (this.dials.get(dialId)?.transferredAt ?? null) !== null;
  }

  aiPaused(dialId: string): boolean {
    return this.dials.get(dialId)?.aiPaused ?? false;
  }

  /** Reports what happens to one dial until the returned function is called. */
  watch(dialId: string, watcher: DialWatcher): () => void {
    let set = this.watchers.get(dialId);
    if (!set) this.watchers.set(dialId, (set = new Set()));
    set.add(watcher);
    return () => {
      set.delete(watcher);
      if (set.size === 0 && this.watchers.get(dialId) === set) this.watchers.delete(dialId);
    };
  }

  /** How many watchers a dial has (tests check that subscriptions let go). */
  watcherCount(dialId: string): number {
    return this.watchers.get(dialId)?.size ?? 0;
  }

  /** Stops every timer; dials keep their current state. */
  close(): void {
    for (const dial of this.dials.values()) this.disarm(dial);
    this.endedDials.close();
    this.endListeners.clear();
    this.pauseListeners.clear();
    this.transferListeners.clear();
    this.watchers.clear();
  }

  // ── DialControl (used by the media half) ──

  sessionForRoom(roomName: string): DialSession | undefined {
    const dial = this.dials.find((candidate) => candidate.roomName === roomName);
    return dial && sessionOf(dial);
  }

  joined(dialId: string): void {
    const dial = this.dials.get(dialId);
    // A phone dial has no media: a browser in its room does not answer it.
    if (!dial || dial.phone || (dial.status !== 'queued' && dial.status !== 'ringing')) return;
    dial.startedAt = Date.now();
    dial.browserJoined = true;
    this.setStatus(dial, 'in-progress');
    this.arm(dial, this.capMs(dial), { status: 'completed', systemResultType: 'TIMEOUT' });
    this.emit(dial.id, { kind: 'joined' });
  }

  addTranscript(dialId: string, line: TranscriptLine): void {
    const dial = this.dials.get(dialId);
    if (!dial || isTerminal(dial.status)) return;
    this.recordLine(dial, line);
  }

  liveTranscript(dialId: string, line: TranscriptLine): void {
    const dial = this.dials.get(dialId);
    if (!dial || isTerminal(dial.status)) return;
    this.emit(dial.id, { kind: 'transcript', eventType: 'LIVE', line: { ...line } });
  }

  sessionStarted(dialId: string, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      if (this.dials.get(dialId)?.sessionStarted) return resolve();
      const onAbort = () => {
        unwatch();
        reject(signal.reason);
      };
      const unwatch = this.watch(dialId, (update) => {
        if (update.kind !== 'session-started') return;
        unwatch();
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  setAiResult(dialId: string, aiResult: Record<string, unknown>): void {
    const dial = this.dials.get(dialId);
    if (!dial || isTerminal(dial.status)) return;
    dial.aiResult = structuredClone(aiResult);
    dial.updatedAt = Date.now();
  }

  end(dialId: string, end: DialEnd): void {
    const dial = this.dials.get(dialId);
    if (!dial || isTerminal(dial.status)) return;
    this.finish(dial, end);
  }

  onEnded(listener: EndListener): () => void {
    this.endListeners.add(listener);
    return () => {
      this.endListeners.delete(listener);
    };
  }

  onAiPaused(listener: PauseListener): () => void {
    this.pauseListeners.add(listener);
    return () => {
      this.pauseListeners.delete(listener);
    };
  }

  onTransferred(listener: TransferListener): () => void {
    this.transferListeners.add(listener);
    return () => {
      this.transferListeners.delete(listener);
    };
  }

  // ── internals ──

  private setStatus(dial: DialState, status: DialStatus): void {
    dial.status = status;
    dial.updatedAt = Date.now();
    this.options.log(`dial ${dial.id} ${status}`);
    this.emit(dial.id, { kind: 'status' });
  }

  private recordLine(dial: DialState, line: TranscriptLine): void {
    dial.transcript.push({ ...line });
    dial.updatedAt = Date.now();
    this.emit(dial.id, { kind: 'transcript', eventType: 'FINAL', line: { ...line } });
  }

  private emit(dialId: string, update: DialUpdate): void {
    for (const watcher of [...(this.watchers.get(dialId) ?? [])]) {
      try {
        watcher(update);
      } catch (error) {
        this.options.log(`a watcher of dial ${dialId} threw: ${String(error)}`);
      }
    }
  }

  /** One timer per dial: the join window before the join, the time cap after it. */
  private arm(dial: DialState, ms: number, end: DialEnd): void {
    this.schedule(dial, ms, () => this.end(dial.id, end));
  }

  private schedule(dial: DialState, ms: number, step: () => void): void {
    this.disarm(dial);
    // setTimeout fires at once for anything past 2^31-1 ms: a longer wait (only a very long
    // `minuteMs`) is cut to the longest it can keep.
    dial.timer = setTimeout(
      () => {
        dial.timer = null;
        step();
      },
      Math.min(ms, MAX_TIMER_MS),
    );
    dial.timer.unref();
  }

  /** How long a dial may last, in ms: its `maxDurationSeconds` at `minuteMs` a minute. */
  private capMs(dial: DialState): number {
    return (dial.maxDurationSeconds / 60) * this.options.minuteMs;
  }

  private disarm(dial: DialState): void {
    if (dial.timer) clearTimeout(dial.timer);
    dial.timer = null;
  }

  private finish(dial: DialState, end: DialEnd): void {
    // Handed to a person: however the call then ends normally (either side hangs up, the time
    // cap), the service's record says TRANSFERRED. A failure stays a failure.
    if (dial.transferredAt !== null && end.status === 'completed') end = { ...end, systemResultType: 'TRANSFERRED' };
    this.disarm(dial);
    dial.endedAt = Date.now();
    dial.updatedAt = dial.endedAt;
    dial.status = end.status;
    dial.systemResultType = end.systemResultType;
    this.options.log(`dial ${dial.id} ${end.status} (${end.systemResultType})`);
    this.emit(dial.id, { kind: 'status' });
    const acting: Promise<unknown>[] = [];
    for (const listener of [...this.endListeners]) {
      try {
        const pending = listener(dial.id, { ...end });
        if (pending instanceof Promise) acting.push(pending);
      } catch (error) {
        this.options.log(`an onEnded listener threw for dial ${dial.id}: ${String(error)}`);
      }
    }
    if (acting.length > 0) {
      const id = dial.id;
      const done = Promise.allSettled(acting).then(() => {
        if (this.lettingGo.get(id) === done) this.lettingGo.delete(id);
      });
      this.lettingGo.set(id, done);
    }
    this.endedDials.retire(dial.id, dial.endedAt);
  }

  /** The history let go of an ended dial: it answers 404 from now on. */
  private forget(dialId: string): void {
    this.dials.delete(dialId);
    this.watchers.delete(dialId);
    this.options.onForgotten?.(dialId);
  }
}
