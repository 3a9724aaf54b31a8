// The transcript of one call, from up to three sources: the room's `lk.transcription` segments
// (interim, updated in place by segment id until final), the service's live transcript events
// (`watchLiveTranscriptEvents`: LIVE updated in place per speaker until its FINAL), and the
// service's transcript lines (polled). Merged in order and without duplicates: one utterance is
// one entry, whichever sources report it, with a stable id. Pure: no timers, no I/O, so every rule
// here is unit-tested.
import type { NonSpeechLine, Speaker, TranscriptEntry } from './types.js';

/** One `lk.transcription` text stream's state: the whole text so far, not a delta. */
export interface LiveSegment {
  segmentId: string;
  speaker: Speaker;
  text: string;
  final: boolean;
  startTimeMs?: number;
  endTimeMs?: number;
}

/** A line of the service's dial transcript (`GET /dials/:id`). */
export interface ServiceLine {
  text: string;
  speaker: string;
  startTimeMs?: number | null;
  endTimeMs?: number | null;
}

/** One `watchLiveTranscriptEvents` event (FINAL or LIVE), with the line's role as the service names it. */
export interface LiveEvent {
  final: boolean;
  role: string;
  text: string;
  startTimeMs?: number;
  endTimeMs?: number;
  functionCalls?: { name: string; arguments: string }[];
}

const NON_SPEECH_ROLES = new Set(['FUNCTION_RESULT', 'IVR', 'NODE_TRANSITION']);

/** Service lines closer than this to a live entry's start are the same utterance. */
const SAME_START_MS = 1000;

function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\s\u00a0]+/g, ' ')
    .replace(/^[\s.,!?;:"'…-]+|[\s.,!?;:"'…-]+$/g, '');
}

/** True when `a` and `b` are the same words, or one is an interim prefix of the other. */
function sameUtterance(a: string, b: string): boolean {
  const x = normalize(a);
  const y = normalize(b);
  if (!x || !y) return false;
  return x === y || x.startsWith(y) || y.startsWith(x);
}

function toSpeaker(speaker: string): Speaker | null {
  const upper = speaker.toUpperCase();
  return upper === 'AI' || upper === 'HUMAN' ? upper : null;
}

export class Transcript {
  #entries: TranscriptEntry[] = [];
  #nextId = 1;
  /** segment id -> entry id */
  #bySegment = new Map<string, string>();
  /** index in the service transcript -> entry id */
  #byServiceIndex: string[] = [];
  #serviceBound = new Set<string>();
  #segmentBound = new Set<string>();
  /** `${speaker}@${startTimeMs}` of a live event -> entry id: one utterance, however often it is sent. */
  #byEventKey = new Map<string, string>();
  /** entry id -> the start time its live events carry */
  #eventStart = new Map<string, number | undefined>();
  /** speaker -> the entry its LIVE events are filling, until a FINAL closes it */
  #openEvent = new Map<Speaker, string>();
  #nonSpeech: NonSpeechLine[] = [];

  /** Copies of the entries, in order. */
  get entries(): TranscriptEntry[] {
    return this.#entries.map((entry) => ({ ...entry }));
  }

  get size(): number {
    return this.#entries.length;
  }

  /** Whether at least one live segment or live event arrived. */
  get hasLiveSegments(): boolean {
    return this.#bySegment.size > 0 || this.#eventStart.size > 0;
  }

  /** Copies of the non-speech lines of the live events, in arrival order. */
  get nonSpeechLines(): NonSpeechLine[] {
    return this.#nonSpeech.map((line) => ({ ...line, ...(line.functionCalls ? { functionCalls: line.functionCalls.map((call) => ({ ...call })) } : {}) }));
  }

  /**
   * Applies one live transcript event. A LIVE event fills its speaker's open entry in place; the
   * FINAL with the same speaker and start closes it (same id). A repeated FINAL, or a LIVE that
   * arrives after its FINAL, changes nothing; a FINAL that arrives late is placed by its start
   * time. An utterance the room's segments or the polled lines already show is bound to that
   * entry instead of added. Returns a copy of the entry that changed, or null.
   */
  applyEvent(event: LiveEvent): TranscriptEntry | null {
    if (typeof event.text !== 'string') return null;
    const speaker = event.role === 'AI' || event.role === 'HUMAN' ? event.role : null;
    if (!speaker) {
      if (event.final && NON_SPEECH_ROLES.has(event.role)) this.#keepNonSpeech(event);
      return null;
    }
    const start = event.startTimeMs;
    const key = start === undefined ? null : `${speaker}@${start}`;
    const keyedId = key ? this.#byEventKey.get(key) : undefined;
    let entry = keyedId ? this.#find(keyedId) : undefined;
    if (!entry) {
      const openId = this.#openEvent.get(speaker);
      const open = openId ? this.#find(openId) : undefined;
      const openStart = open ? this.#eventStart.get(open.id) : undefined;
      if (open && !open.final && (openStart === undefined || start === undefined || openStart === start)) entry = open;
    }
    if (!entry) {
      entry = this.#entries.find(
        (candidate) =>
          !this.#eventStart.has(candidate.id) &&
          candidate.speaker === speaker &&
          ((start !== undefined && candidate.startTimeMs !== undefined && Math.abs(candidate.startTimeMs - start) <= SAME_START_MS) ||
            sameUtterance(candidate.text, event.text)),
      );
    }
    if (!entry) {
      if (!event.text && !event.final) return null;
      const created: TranscriptEntry = { id: `t${this.#nextId++}`, speaker, text: event.text, final: event.final };
      if (start !== undefined) created.startTimeMs = start;
      if (event.endTimeMs !== undefined) created.endTimeMs = event.endTimeMs;
      this.#insertByStart(created);
      this.#bindEvent(created.id, speaker, key, start, event.final);
      return { ...created };
    }
    this.#bindEvent(entry.id, speaker, key, start, event.final);
    // A final line is not reopened by a late or repeated LIVE event.
    if (entry.final && !event.final) return null;
    let changed = false;
    if (entry.text !== event.text && (event.text || event.final)) {
      entry.text = event.text;
      changed = true;
    }
    if (event.final && !entry.final) {
      entry.final = true;
      changed = true;
    }
    if (start !== undefined && entry.startTimeMs === undefined) {
      entry.startTimeMs = start;
      changed = true;
    }
    if (event.endTimeMs !== undefined && entry.endTimeMs !== event.endTimeMs) {
      entry.endTimeMs = event.endTimeMs;
      changed = true;
    }
    return changed ? { ...entry } : null;
  }

  /**
   * Applies a live segment's current state. Returns a copy of the entry that changed, or null when
   * nothing a user would see changed (same text, or a stale interim after the final).
   */
  applySegment(segment: LiveSegment): TranscriptEntry | null {
    const knownId = this.#bySegment.get(segment.segmentId);
    let entry = knownId ? this.#find(knownId) : undefined;
    if (!entry) {
      entry = this.#entries.find(
        (candidate) =>
          (this.#serviceBound.has(candidate.id) || this.#eventStart.has(candidate.id)) &&
          !this.#segmentBound.has(candidate.id) &&
          candidate.speaker === segment.speaker &&
          sameUtterance(candidate.text, segment.text),
      );
      if (entry) {
        this.#bySegment.set(segment.segmentId, entry.id);
        this.#segmentBound.add(entry.id);
        // The service's line is already the final text: a live interim must not replace it.
        if (entry.final && !segment.final) return null;
      }
    }
    if (!entry) {
      if (!segment.text && !segment.final) return null;
      const created: TranscriptEntry = {
        id: `t${this.#nextId++}`,
        speaker: segment.speaker,
        text: segment.text,
        final: segment.final,
      };
      if (segment.startTimeMs !== undefined) created.startTimeMs = segment.startTimeMs;
      if (segment.endTimeMs !== undefined) created.endTimeMs = segment.endTimeMs;
      this.#entries.push(created);
      this.#bySegment.set(segment.segmentId, created.id);
      this.#segmentBound.add(created.id);
      return { ...created };
    }
    if (entry.final && !segment.final) return null;
    let changed = false;
    if (entry.text !== segment.text && (segment.text || segment.final)) {
      entry.text = segment.text;
      changed = true;
    }
    if (segment.final && !entry.final) {
      entry.final = true;
      changed = true;
    }
    if (segment.startTimeMs !== undefined && entry.startTimeMs === undefined) {
      entry.startTimeMs = segment.startTimeMs;
      changed = true;
    }
    if (segment.endTimeMs !== undefined && entry.endTimeMs !== segment.endTimeMs) {
      entry.endTimeMs = segment.endTimeMs;
      changed = true;
    }
    return changed ? { ...entry } : null;
  }

  /**
   * Merges the service's whole transcript (it is sent whole on every poll). Each service line is
   * bound to one entry for good: to a live entry with the same speaker and start time or words, or
   * to a new entry placed by start time. Returns copies of the entries that changed.
   */
  mergeService(lines: readonly ServiceLine[]): TranscriptEntry[] {
    const changed: TranscriptEntry[] = [];
    lines.forEach((line, index) => {
      const speaker = toSpeaker(line.speaker);
      if (!speaker || typeof line.text !== 'string') return;
      const startTimeMs = typeof line.startTimeMs === 'number' ? line.startTimeMs : undefined;
      const endTimeMs = typeof line.endTimeMs === 'number' ? line.endTimeMs : undefined;
      const boundId = this.#byServiceIndex[index];
      let entry = boundId ? this.#find(boundId) : undefined;
      if (!entry) {
        entry = this.#entries.find(
          (candidate) =>
            !this.#serviceBound.has(candidate.id) &&
            candidate.speaker === speaker &&
            ((startTimeMs !== undefined &&
              candidate.startTimeMs !== undefined &&
              Math.abs(candidate.startTimeMs - startTimeMs) <= SAME_START_MS) ||
              sameUtterance(candidate.text, line.text)),
        );
      }
      if (!entry) {
        const created: TranscriptEntry = { id: `t${this.#nextId++}`, speaker, text: line.text, final: true };
        if (startTimeMs !== undefined) created.startTimeMs = startTimeMs;
        if (endTimeMs !== undefined) created.endTimeMs = endTimeMs;
        this.#insertByStart(created);
        this.#bind(index, created.id);
        changed.push({ ...created });
        return;
      }
      this.#bind(index, entry.id);
      let entryChanged = false;
      if (line.text && entry.text !== line.text) {
        entry.text = line.text;
        entryChanged = true;
      }
      if (!entry.final) {
        entry.final = true;
        entryChanged = true;
      }
      if (startTimeMs !== undefined && entry.startTimeMs !== startTimeMs) {
        entry.startTimeMs = startTimeMs;
        entryChanged = true;
      }
      if (endTimeMs !== undefined && entry.endTimeMs !== endTimeMs) {
        entry.endTimeMs = endTimeMs;
        entryChanged = true;
      }
      if (entryChanged) changed.push({ ...entry });
    });
    return changed;
  }

  /**
   * The transcript a call ends with: the service's lines (the reference) when there are any, with
   * the ids of the live entries they match; otherwise the live entries.
   */
  result(lines: readonly ServiceLine[] | null | undefined): TranscriptEntry[] {
    if (!lines || lines.length === 0) return this.entries;
    this.mergeService(lines);
    const result: TranscriptEntry[] = [];
    lines.forEach((_, index) => {
      const id = this.#byServiceIndex[index];
      const entry = id ? this.#find(id) : undefined;
      if (entry) result.push({ ...entry });
    });
    return result.length > 0 ? result : this.entries;
  }

  #bindEvent(id: string, speaker: Speaker, key: string | null, start: number | undefined, final: boolean): void {
    if (key) this.#byEventKey.set(key, id);
    if (!this.#eventStart.has(id) || this.#eventStart.get(id) === undefined) this.#eventStart.set(id, start);
    if (final) {
      if (this.#openEvent.get(speaker) === id) this.#openEvent.delete(speaker);
    } else {
      this.#openEvent.set(speaker, id);
    }
  }

  #keepNonSpeech(event: LiveEvent): void {
    const role = event.role as NonSpeechLine['role'];
    const known = this.#nonSpeech.some((line) => line.role === role && line.text === event.text && line.startTimeMs === event.startTimeMs);
    if (known) return;
    const line: NonSpeechLine = { role, text: event.text };
    if (event.startTimeMs !== undefined) line.startTimeMs = event.startTimeMs;
    if (event.endTimeMs !== undefined) line.endTimeMs = event.endTimeMs;
    if (event.functionCalls && event.functionCalls.length > 0) line.functionCalls = event.functionCalls.map((call) => ({ ...call }));
    this.#nonSpeech.push(line);
  }

  #find(id: string): TranscriptEntry | undefined {
    return this.#entries.find((entry) => entry.id === id);
  }

  #bind(index: number, id: string): void {
    this.#byServiceIndex[index] = id;
    this.#serviceBound.add(id);
  }

  /** Before the first entry that starts later; entries without a start time keep their place. */
  #insertByStart(entry: TranscriptEntry): void {
    const start = entry.startTimeMs;
    const at =
      start === undefined
        ? -1
        : this.#entries.findIndex((other) => other.startTimeMs !== undefined && other.startTimeMs > start);
    if (at === -1) this.#entries.push(entry);
    else this.#entries.splice(at, 0, entry);
  }
}
