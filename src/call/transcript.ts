// The transcript of one call: live segments (interim, updated in place by segment id until final)
// merged with the service's transcript lines (polled), ordered and without duplicates. Live
// segments come from two sources: the room's `lk.transcription` streams and the service's live
// transcript events (turned into segments in the media chunk, media/live-events.ts); the same
// utterance from both is one entry. Pure: no timers, no I/O, so every rule here is unit-tested.
import type { Speaker, TranscriptEntry } from './types.js';

/** One live segment's state (an `lk.transcription` text stream, or a service event): the whole text so far. */
export interface LiveSegment {
  segmentId: string;
  speaker: Speaker;
  text: string;
  final: boolean;
  startTimeMs?: number;
  endTimeMs?: number;
  /** Where it comes from: the room (default) or the service's live events. */
  source?: 'room' | 'service';
}

/** A line of the service's dial transcript (`GET /dials/:id`). */
export interface ServiceLine {
  text: string;
  speaker: string;
  startTimeMs?: number | null;
  endTimeMs?: number | null;
}

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
  /** entry id -> the sources whose segments are bound to it */
  #segmentBound = new Map<string, string[]>();

  /** Copies of the entries, in order. */
  get entries(): TranscriptEntry[] {
    return this.#entries.map((entry) => ({ ...entry }));
  }

  get size(): number {
    return this.#entries.length;
  }

  /** Whether at least one live segment arrived. */
  get hasLiveSegments(): boolean {
    return this.#bySegment.size > 0;
  }

  /**
   * Applies a live segment's current state. Returns a copy of the entry that changed, or null when
   * nothing a user would see changed (same text, or a stale interim after the final).
   */
  applySegment(segment: LiveSegment): TranscriptEntry | null {
    const knownId = this.#bySegment.get(segment.segmentId);
    const source = segment.source ?? 'room';
    const start = segment.startTimeMs;
    let entry = knownId ? this.#find(knownId) : undefined;
    if (!entry) {
      // The same utterance already shown by the polled lines or by the other live source.
      entry = this.#entries.find((candidate) => {
        const sources = this.#segmentBound.get(candidate.id);
        return (
          (this.#serviceBound.has(candidate.id) || sources !== undefined) &&
          !sources?.includes(source) &&
          candidate.speaker === segment.speaker &&
          ((start !== undefined &&
            candidate.startTimeMs !== undefined &&
            Math.abs(candidate.startTimeMs - start) <= SAME_START_MS) ||
            sameUtterance(candidate.text, segment.text))
        );
      });
      if (entry) {
        this.#bySegment.set(segment.segmentId, entry.id);
        this.#segmentBound.set(entry.id, [...(this.#segmentBound.get(entry.id) ?? []), source]);
        // Already final (a polled line, or the other source's final): a live interim must not replace it.
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
      if (start !== undefined) created.startTimeMs = start;
      if (segment.endTimeMs !== undefined) created.endTimeMs = segment.endTimeMs;
      // A segment with a start time (a service event that arrived late) goes where it was said.
      this.#insertByStart(created);
      this.#bySegment.set(segment.segmentId, created.id);
      this.#segmentBound.set(created.id, [source]);
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
   * Puts back the entries an earlier page of the call showed (`persist`, whose chunk checked them:
   * persist-feature.ts `storedEntries`), with their ids. Not bound to a source: a live segment or a
   * service line of the same utterance (the service may send the call's whole transcript again)
   * binds to them instead of adding a line.
   */
  restore(entries: readonly TranscriptEntry[]): void {
    for (const entry of entries) {
      this.#entries.push(entry);
      this.#segmentBound.set(entry.id, []);
      const number = /^t(\d+)$/.exec(entry.id)?.[1];
      if (number !== undefined) this.#nextId = Math.max(this.#nextId, Number(number) + 1);
    }
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
   * the ids of the live entries they match; otherwise the live entries. Every line is final: the
   * call is over and no line changes any more, so a live line still interim at the end is kept
   * as last heard (the service's lines, when there are any, leave out an interim they do not have).
   */
  result(lines: readonly ServiceLine[] | null | undefined): TranscriptEntry[] {
    const live = (): TranscriptEntry[] => this.entries.map((entry) => ({ ...entry, final: true }));
    if (!lines || lines.length === 0) return live();
    this.mergeService(lines);
    const result: TranscriptEntry[] = [];
    lines.forEach((_, index) => {
      const id = this.#byServiceIndex[index];
      const entry = id ? this.#find(id) : undefined;
      if (entry) result.push({ ...entry });
    });
    return result.length > 0 ? result : live();
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
