// The service's live transcript events (`watchLiveTranscriptEvents`) as live segments for the
// call's Transcript, which merges them with the room's `lk.transcription` segments. The service
// sends no segment id: an utterance is its speaker and its start time (`audioStart`). A LIVE
// event fills its speaker's open utterance; the FINAL with the same speaker and start closes it.
// So a repeated FINAL, or a LIVE that arrives after its FINAL, names a segment that is already
// final (the Transcript ignores it), and a late FINAL gets its own segment placed by its start.
// In the media chunk: a page that never calls never loads it.
import type { LiveSegment } from '../transcript.js';
import type { NonSpeechLine } from '../types.js';

/** One `watchLiveTranscriptEvents` event. */
export interface ServiceTranscriptEvent {
  final: boolean;
  role: string;
  text: string;
  startTimeMs?: number;
  endTimeMs?: number;
  functionCalls?: { name: string; arguments: string }[];
}

const NON_SPEECH_ROLES = new Set(['FUNCTION_RESULT', 'IVR', 'NODE_TRANSITION']);

export class LiveEventSegments {
  /** `${speaker}@${start}` -> segment id */
  readonly #byUtterance = new Map<string, string>();
  /** speaker -> the segment its LIVE events are filling, and its start */
  readonly #open = new Map<string, { segmentId: string; start: number | undefined }>();
  readonly #nonSpeech: NonSpeechLine[] = [];
  #next = 1;

  /** Copies of the non-speech lines (FUNCTION_RESULT, IVR, NODE_TRANSITION finals), in arrival order, each once. */
  get nonSpeechLines(): NonSpeechLine[] {
    return this.#nonSpeech.map((line) => ({
      ...line,
      ...(line.functionCalls ? { functionCalls: line.functionCalls.map((call) => ({ ...call })) } : {}),
    }));
  }

  /** The segment an event updates, or null for a line that is not speech. */
  toSegment(event: ServiceTranscriptEvent): LiveSegment | null {
    const speaker = event.role === 'AI' || event.role === 'HUMAN' ? event.role : null;
    if (!speaker) {
      if (event.final && NON_SPEECH_ROLES.has(event.role)) this.#keepNonSpeech(event);
      return null;
    }
    const start = event.startTimeMs;
    const key = start === undefined ? undefined : `${speaker}@${start}`;
    let segmentId = key === undefined ? undefined : this.#byUtterance.get(key);
    const open = this.#open.get(speaker);
    if (segmentId === undefined && open && (open.start === undefined || start === undefined || open.start === start))
      segmentId = open.segmentId;
    segmentId ??= `service-${this.#next++}`;
    if (key !== undefined) this.#byUtterance.set(key, segmentId);
    if (!event.final) this.#open.set(speaker, { segmentId, start });
    else if (open?.segmentId === segmentId) this.#open.delete(speaker);
    const segment: LiveSegment = { segmentId, speaker, text: event.text, final: event.final, source: 'service' };
    if (start !== undefined) segment.startTimeMs = start;
    if (event.endTimeMs !== undefined) segment.endTimeMs = event.endTimeMs;
    return segment;
  }

  #keepNonSpeech(event: ServiceTranscriptEvent): void {
    const role = event.role as NonSpeechLine['role'];
    if (
      this.#nonSpeech.some(
        (line) => line.role === role && line.text === event.text && line.startTimeMs === event.startTimeMs,
      )
    )
      return;
    const line: NonSpeechLine = { role, text: event.text };
    if (event.startTimeMs !== undefined) line.startTimeMs = event.startTimeMs;
    if (event.endTimeMs !== undefined) line.endTimeMs = event.endTimeMs;
    if (event.functionCalls && event.functionCalls.length > 0)
      line.functionCalls = event.functionCalls.map((call) => ({ ...call }));
    this.#nonSpeech.push(line);
  }
}
