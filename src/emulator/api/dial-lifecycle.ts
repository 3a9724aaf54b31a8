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
// Phone dials (a `toNumber`, no browser) have the same statuses without media: they ring after
// `phoneRingMs`, are answered after another `phoneRingMs`, and the agent hangs up after
// `phoneTalkMs` (completed / AGENT_HANGUP), unless the time cap, a hangup, the number called
// (PHONE_OUTCOMES, by the last four digits) or the scenario (emu-no-agent: no-answer; emu-drop:
// failed / FAILED; emu-silent-user: LONG_SILENCE_HANGUP; emu-busy: failed / RATE_LIMITED) ends it first.
//
// An agent's scenario is its id for the scenario agents, else its `metadata.scenario`, else emu-demo.
// Terminal dials never change again: a late hangup, transcript line or end is ignored.
//
// The GraphQL half watches a dial (`watch`): every status change, the browser joining its room,
// `startDialSession`, and each transcript line, interim (LIVE) or final (FINAL).
import { randomUUID } from 'node:crypto';
import type { DialControl, DialEnd, DialSession, DialStatus, SystemResultType, TranscriptLine } from '../seam.js';
import {
  EMU_BUSY,
  EMU_DEMO,
  EMU_DROP,
  EMU_NO_AGENT,
  EMU_QUICK,
  EMU_SILENT_USER,
  SCENARIO_AGENT_IDS,
} from './agents.js';
import type { DialInput } from './dial-input.js';
import type { AgentRecord, DialRecord } from './records.js';
import type { Table } from './table.js';

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

/**
 * The bounded history of ended dials: past `maxCount` ended dials the oldest ended one is dropped,
 * and an ended dial is dropped `maxAgeMs` after it ended. A dropped dial answers 404. Dials that
 * have not ended are never dropped. The emulator's own rule: the service's retention is not known.
 */
export interface EndedDialRetention {
  /** Ended dials kept at most. Default 1 000. */
  maxCount?: number;
  /** How long an ended dial is kept after it ended. Default 3 600 000 (an hour). */
  maxAgeMs?: number;
}

export const DEFAULT_ENDED_DIAL_RETENTION: Required<EndedDialRetention> = { maxCount: 1000, maxAgeMs: 3_600_000 };

export type EndListener = (dialId: string, end: DialEnd) => void;
export type PauseListener = (dialId: string, paused: boolean) => void;
export type TransferListener = (dialId: string) => void;

/** What happens to one dial, as `watch` reports it. Read the dial's state with `record`. */
export type DialUpdate =
  | { kind: 'status' }
  | { kind: 'joined' }
  | { kind: 'session-started' }
  | { kind: 'transcript'; eventType: 'LIVE' | 'FINAL'; line: TranscriptLine };

export type DialWatcher = (update: DialUpdate) => void;

/** A dial as the store holds it: what `record` answers is made from this. */
export interface DialState {
  id: string;
  scenario: string;
  phone: boolean;
  sessionId: string;
  roomName: string;
  input: DialInput;
  status: DialStatus;
  systemResultType: SystemResultType | null;
  createdAt: number;
  updatedAt: number;
  startedAt: number | null;
  endedAt: number | null;
  transcript: TranscriptLine[];
  aiResult: Record<string, unknown> | null;
  maxDurationSeconds: number;
  timer: NodeJS.Timeout | null;
  /** The browser's participant is (or was) in the dial's room. */
  browserJoined: boolean;
  /** `startDialSession` arrived: the agent may speak. */
  sessionStarted: boolean;
  /** `pauseAI`'s last value: the agent in the room is silent while it is true. */
  aiPaused: boolean;
  /** When `hangupCall` with a `transferNumber` handed the call to a person (the agent's part ended), else null. */
  transferredAt: number | null;
  /** The number it was transferred to. */
  transferNumber: string | null;
}

/** The longest delay setTimeout keeps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const TERMINAL: ReadonlySet<DialStatus> = new Set(['completed', 'failed', 'canceled', 'busy', 'no-answer']);

/**
 * The emulator's own rule (the seed has none): how a phone dial ends by the last four digits of
 * the number it calls. `busy`, `no-answer` and `failed` end it before it is answered; the others
 * after it is answered, at the agent's usual hang-up time.
 */
export const PHONE_OUTCOMES: Readonly<Record<string, DialEnd & { answered: boolean; line: string }>> = {
  '0486': { status: 'busy', systemResultType: 'BUSY', answered: false, line: '' },
  '0408': { status: 'no-answer', systemResultType: 'NO_ANSWER', answered: false, line: '' },
  '0503': { status: 'failed', systemResultType: 'FAILED', answered: false, line: '' },
  '0601': {
    status: 'completed',
    systemResultType: 'VOICEMAIL_DETECTED_HANGUP',
    answered: true,
    line: '(voicemail greeting: please leave a message after the tone)',
  },
  '0602': {
    status: 'completed',
    systemResultType: 'COUNTERPARTY_HANGUP',
    answered: true,
    line: '(the callee hung up)',
  },
  '0603': {
    status: 'completed',
    systemResultType: 'TRANSFERRED',
    answered: true,
    line: 'Let me transfer you to a colleague.',
  },
};

function phoneOutcome(toNumber: string | null): (typeof PHONE_OUTCOMES)[string] | undefined {
  return toNumber === null ? undefined : PHONE_OUTCOMES[toNumber.slice(-4)];
}

export const isTerminal = (status: DialStatus): boolean => TERMINAL.has(status);

/** The scenario that decides how a dial with this agent behaves. */
export function scenarioOf(agent: AgentRecord): string {
  const ids: readonly string[] = SCENARIO_AGENT_IDS;
  if (ids.includes(agent.id)) return agent.id;
  const named = agent.metadata.scenario;
  return typeof named === 'string' && ids.includes(named) ? named : EMU_DEMO;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export class DialLifecycle implements DialControl {
  private readonly dials: Table<DialState>;
  private readonly watchers = new Map<string, Set<DialWatcher>>();
  private readonly endListeners = new Set<EndListener>();
  private readonly pauseListeners = new Set<PauseListener>();
  private readonly transferListeners = new Set<TransferListener>();
  private readonly options: DialLifecycleOptions;
  private readonly retention: Required<EndedDialRetention>;
  /** Ended dials still kept, by id, in the order they ended, with when. */
  private readonly ended = new Map<string, number>();
  /** Drops the oldest ended dial when it reaches `maxAgeMs`. */
  private sweepTimer: NodeJS.Timeout | null = null;

  /** `dials`: the store's dial table, which this lifecycle alone writes. */
  constructor(dials: Table<DialState>, options: DialLifecycleOptions) {
    this.dials = dials;
    this.options = options;
    this.retention = { ...DEFAULT_ENDED_DIAL_RETENTION, ...options.endedDialRetention };
    const { maxCount, maxAgeMs } = this.retention;
    if (!Number.isInteger(maxCount) || maxCount < 0)
      throw new RangeError('endedDialRetention.maxCount must be a whole number ≥ 0');
    if (!(maxAgeMs >= 0)) throw new RangeError('endedDialRetention.maxAgeMs must be a number ≥ 0');
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
      this.ringPhone(dial);
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
    return dial && this.toSession(dial);
  }

  /** A token was issued: the browser is connecting, so a queued dial is now `ringing`. */
  tokenIssued(dialId: string): void {
    const dial = this.dials.get(dialId);
    if (dial?.status === 'queued' && !dial.phone) this.setStatus(dial, 'ringing');
  }

  /** `POST /dials/{id}/hangup`: cancels a dial not yet joined, completes one in progress. */
  hangup(dialId: string): void {
    const dial = this.dials.get(dialId);
    if (!dial || isTerminal(dial.status)) return;
    this.finish(
      dial,
      dial.status === 'in-progress'
        ? { status: 'completed', systemResultType: 'USER_HANGUP' }
        : { status: 'canceled', systemResultType: 'CANCELLED' },
    );
  }

  record(dialId: string): DialRecord | undefined {
    const dial = this.dials.get(dialId);
    return dial && this.toRecord(dial);
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
    if (this.sweepTimer) clearTimeout(this.sweepTimer);
    this.sweepTimer = null;
    this.endListeners.clear();
    this.pauseListeners.clear();
    this.transferListeners.clear();
    this.watchers.clear();
  }

  // ── DialControl (used by the media half) ──

  sessionForRoom(roomName: string): DialSession | undefined {
    const dial = this.dials.find((candidate) => candidate.roomName === roomName);
    return dial && this.toSession(dial);
  }

  joined(dialId: string): void {
    const dial = this.dials.get(dialId);
    // A phone dial has no media: a browser in its room does not answer it.
    if (!dial || dial.phone || (dial.status !== 'queued' && dial.status !== 'ringing')) return;
    dial.startedAt = Date.now();
    dial.browserJoined = true;
    this.setStatus(dial, 'in-progress');
    const capMs = (dial.maxDurationSeconds / 60) * this.options.minuteMs;
    this.arm(dial, capMs, { status: 'completed', systemResultType: 'TIMEOUT' });
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

  private ringPhone(dial: DialState): void {
    const ringMs = this.options.phoneRingMs ?? 500;
    this.schedule(dial, ringMs, () => {
      if (dial.status !== 'queued') return;
      const outcome = phoneOutcome(dial.input.toNumber);
      // A busy line or a failed call never rings.
      if (outcome && !outcome.answered && outcome.status !== 'no-answer') {
        this.end(dial.id, { status: outcome.status, systemResultType: outcome.systemResultType });
        return;
      }
      this.setStatus(dial, 'ringing');
      if (dial.scenario === EMU_NO_AGENT || outcome?.status === 'no-answer') {
        this.arm(dial, ringMs, { status: 'no-answer', systemResultType: 'NO_ANSWER' });
        return;
      }
      this.schedule(dial, ringMs, () => this.answerPhone(dial));
    });
  }

  private answerPhone(dial: DialState): void {
    if (dial.status !== 'ringing') return;
    dial.startedAt = Date.now();
    this.setStatus(dial, 'in-progress');
    const talkMs = this.options.phoneTalkMs ?? 3000;
    const line = (speaker: 'AI' | 'HUMAN', text: string, startTimeMs: number, endTimeMs: number) =>
      this.recordLine(dial, { speaker, text, detailType: null, startTimeMs, endTimeMs });
    line('AI', 'Hello, this is the emulator calling. This phone call has no audio.', 0, Math.min(1500, talkMs));
    line('HUMAN', '(emulated phone call: no media)', Math.min(1500, talkMs), Math.min(2000, talkMs));
    const capMs = (dial.maxDurationSeconds / 60) * this.options.minuteMs;
    const outcome = phoneOutcome(dial.input.toNumber);
    if (capMs <= talkMs) {
      this.arm(dial, capMs, { status: 'completed', systemResultType: 'TIMEOUT' });
    } else if (outcome) {
      this.schedule(dial, talkMs, () => {
        line(outcome.systemResultType === 'TRANSFERRED' ? 'AI' : 'HUMAN', outcome.line, talkMs, talkMs);
        this.end(dial.id, { status: outcome.status, systemResultType: outcome.systemResultType });
      });
    } else if (dial.scenario === EMU_DROP) {
      this.arm(dial, talkMs, { status: 'failed', systemResultType: 'FAILED' });
    } else if (dial.scenario === EMU_SILENT_USER) {
      // A phone dial has no audio: the callee is silent, and this agent hangs up on silence.
      this.arm(dial, talkMs, { status: 'completed', systemResultType: 'LONG_SILENCE_HANGUP' });
    } else {
      this.schedule(dial, talkMs, () => {
        if (dial.scenario === EMU_QUICK)
          this.setAiResult(dial.id, { summary: 'An emulated phone call: the agent greeted and hung up.' });
        line('AI', 'Goodbye!', talkMs, talkMs);
        this.end(dial.id, { status: 'completed', systemResultType: 'AGENT_HANGUP' });
      });
    }
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
    for (const listener of [...this.endListeners]) {
      try {
        listener(dial.id, { ...end });
      } catch (error) {
        this.options.log(`an onEnded listener threw for dial ${dial.id}: ${String(error)}`);
      }
    }
    this.retire(dial);
  }

  /** Keeps an ended dial in the bounded history: past `maxCount` the oldest ended one goes. */
  private retire(dial: DialState): void {
    this.ended.set(dial.id, dial.endedAt ?? Date.now());
    for (const id of this.ended.keys()) {
      if (this.ended.size <= this.retention.maxCount) break;
      this.forget(id);
    }
    this.armSweep();
  }

  /** One timer, for the oldest ended dial's age; a long-running emulator never holds more. */
  private armSweep(): void {
    if (this.sweepTimer || !Number.isFinite(this.retention.maxAgeMs)) return;
    const oldest = this.ended.values().next();
    if (oldest.done) return;
    const dueMs = oldest.value + this.retention.maxAgeMs - Date.now();
    this.sweepTimer = setTimeout(
      () => {
        this.sweepTimer = null;
        const cutoff = Date.now() - this.retention.maxAgeMs;
        for (const [id, endedAt] of this.ended) {
          if (endedAt > cutoff) break;
          this.forget(id);
        }
        this.armSweep();
      },
      Math.min(MAX_TIMER_MS, Math.max(0, dueMs)),
    );
    this.sweepTimer.unref();
  }

  private forget(dialId: string): void {
    this.ended.delete(dialId);
    this.dials.delete(dialId);
    this.watchers.delete(dialId);
    this.options.onForgotten?.(dialId);
  }

  private toSession(dial: DialState): DialSession {
    return {
      dialId: dial.id,
      roomName: dial.roomName,
      scenario: dial.scenario,
      status: dial.status,
      maxDurationSeconds: dial.maxDurationSeconds,
      aiPaused: dial.aiPaused,
      transferred: dial.transferredAt !== null,
    };
  }

  private toRecord(dial: DialState): DialRecord {
    const ended = dial.endedAt !== null;
    const durationMs = dial.startedAt !== null && dial.endedAt !== null ? dial.endedAt - dial.startedAt : 0;
    // A transferred call's AI part is the call up to the transfer; otherwise the agent's speech.
    const aiMs =
      dial.transferredAt !== null && dial.startedAt !== null
        ? dial.transferredAt - dial.startedAt
        : dial.transcript
            .filter((line) => line.speaker === 'AI')
            .reduce((sum, line) => sum + Math.max(0, line.endTimeMs - line.startTimeMs), 0);
    const { agent } = dial.input;
    return {
      id: dial.id,
      toNumber: dial.input.toNumber,
      fromNumberId: dial.input.fromNumberId,
      agent: structuredClone(agent),
      recordings: [],
      transcript: dial.transcript.map((line) => ({
        text: line.text,
        speaker: line.speaker,
        detailType: line.detailType ?? null,
        startTimeMs: line.startTimeMs,
        endTimeMs: line.endTimeMs,
      })),
      durationSeconds: ended ? Math.round(durationMs / 1000) : null,
      aiDurationSeconds: ended ? Math.round(aiMs / 1000) : null,
      aiResult: dial.aiResult && structuredClone(dial.aiResult),
      inputs: structuredClone(dial.input.callAgentInput),
      status: dial.status,
      systemResultType: dial.systemResultType,
      dialTaskId: dial.input.dialTaskId,
      voiceId: dial.input.aiVoiceId ?? agent.defaultVoiceId,
      versionedPromptId: dial.input.versionedModelId ?? agent.defaultVersionedPromptId,
      startedAt: iso(dial.startedAt),
      endedAt: iso(dial.endedAt),
      createdAt: new Date(dial.createdAt).toISOString(),
      updatedAt: new Date(dial.updatedAt).toISOString(),
    };
  }
}
