// Calls that survive the page (`persist`): when the page goes away mid-call the call leaves for the
// next page instead of hanging up (the record in sessionStorage, a leave beacon to the companion),
// and the next page's session takes it up (`CallSession.resume`): the stored dial, transcript, and
// start. The record goes when the call ends, whichever page ends it.
import { isUpPhase, type ActiveCall } from '../../call/active-call.js';
import type { SessionFeature } from '../../call/session-feature.js';
import type { CallHost } from '../../call/call-host.js';
import { requestMicrophone, type CallHandover } from '../../call/gesture.js';
import {
  endpointKey,
  findResumeRecord,
  removeResumeRecord,
  saveResumeRecord,
  type ResumeRecord,
} from './resume-record.js';
import type { FeatureLoad } from '../../call/optional-features.js';
import type { TranscriptEntry } from '../../call/types.js';

/**
 * The stored entries a page takes up: well-formed ones only (the record is the tab's storage, which
 * anything on the origin may write), all final, with only the fields an entry has.
 */
function storedEntries(entries: readonly TranscriptEntry[]): TranscriptEntry[] {
  const taken: TranscriptEntry[] = [];
  for (const entry of entries) {
    if (typeof entry?.id !== 'string' || typeof entry.text !== 'string') continue;
    if (entry.speaker !== 'AI' && entry.speaker !== 'HUMAN') continue;
    const restored: TranscriptEntry = { id: entry.id, speaker: entry.speaker, text: entry.text, final: true };
    if (typeof entry.startTimeMs === 'number') restored.startTimeMs = entry.startTimeMs;
    if (typeof entry.endTimeMs === 'number') restored.endTimeMs = entry.endTimeMs;
    taken.push(restored);
  }
  return taken;
}

/** What `resume` needs of the session: its mute, and a start whose new call becomes the stored one. */
export interface ResumingSession {
  setMuted(muted: boolean): void;
  startWith(handover: CallHandover, adopt: (call: ActiveCall) => void): void;
}

export class PersistFeature implements SessionFeature {
  readonly #host: CallHost;
  readonly #held: () => boolean;
  /** Set while a resumed call waits for the visitor's tap to ask for the microphone again. */
  #tap: (() => void) | null = null;

  constructor(host: CallHost, held: () => boolean) {
    this.#host = host;
    this.#held = held;
  }

  /** The call this tab left for this endpoint, if one is waiting. */
  take(): ResumeRecord | null {
    return findResumeRecord(this.#host.options.endpoint);
  }

  /**
   * `CallSession.resume()`, once the session may take a call up: the stored call for this endpoint,
   * with its mute, started again without a click. False, starting nothing, when none is stored.
   */
  resume(session: ResumingSession): boolean {
    const record = this.take();
    if (!record) return false;
    if (record.muted !== this.#host.muted) session.setMuted(record.muted);
    const microphone = this.microphone(() => this.#host.call?.controller.signal);
    session.startWith({ microphone }, (call) => this.adopt(call, record));
    return true;
  }

  /** Makes `call` the stored one: its dial, its transcript so far; the setup then rejoins instead of dialling. */
  adopt(call: ActiveCall, record: ResumeRecord): void {
    call.dial = { dialId: record.dialId, handle: record.handle, ...(record.transfer ? { transfer: true } : {}) };
    call.resumed = { leftAt: record.leftAt, held: record.held, startedAt: record.startedAt };
    if (record.consentAt !== undefined) call.resumed.consentAt = record.consentAt;
    call.transcript.restore(storedEntries(record.transcript));
  }

  /**
   * The page is going away: a call that is up (or still getting back from an earlier page) keeps its
   * dial for the next page. Returns false, changing nothing, for a call with nothing to keep.
   */
  leave(call: ActiveCall): boolean {
    const dial = call.dial;
    const startedAt = this.#host.connectedAt ?? call.resumed?.startedAt;
    if (!dial || call.dialOver || startedAt === undefined || !(isUpPhase(call) || call.resumed)) return false;
    const { options } = this.#host;
    const consentAt = options.consentAt ?? call.resumed?.consentAt;
    const record: ResumeRecord = {
      v: 1,
      dialId: dial.dialId,
      handle: dial.handle,
      ...(dial.transfer ? { transfer: true } : {}),
      endpoint: endpointKey(options.endpoint),
      ...(options.agent ? { agent: options.agent } : {}),
      transcript: call.transcript.entries.filter((entry) => entry.text !== ''),
      startedAt,
      ...(consentAt !== undefined ? { consentAt } : {}),
      muted: this.#host.muted,
      held: this.#held(),
      leftAt: Date.now(),
    };
    saveResumeRecord(record);
    call.companion.leaveBeacon(dial, record.leftAt);
    // Nothing on this page hangs the dial up any more: the next page has it, or the companion's grace ends it.
    call.dialOver = true;
    return true;
  }

  /** A resumed call waits for a tap: the browser refused the microphone without one. */
  get needsTap(): boolean {
    return this.#tap !== null;
  }

  /** The tap (a click): asks for the microphone again, inside the gesture. */
  continue(): void {
    this.#tap?.();
  }

  /**
   * The microphone for a resumed call, asked for without a click: granted, it needs nothing of the
   * visitor (a prompt the browser shows is answered there). Refused without a gesture (a browser that
   * asks for one), the call waits: a recoverable `call-error` `microphone_denied` says so, the card
   * offers "Tap to continue the call", and the tap asks again inside the click. Rejects when the
   * call ended meanwhile.
   */
  microphone(signal: () => AbortSignal | undefined): Promise<MediaStream> {
    return requestMicrophone().catch((error: unknown) => {
      const name = error instanceof DOMException || error instanceof Error ? error.name : '';
      if (name !== 'NotAllowedError' && name !== 'SecurityError') throw error;
      return new Promise<MediaStream>((resolve, reject) => {
        const aborted = signal();
        const stop = () => {
          this.#tap = null;
          reject(error);
        };
        aborted?.addEventListener('abort', stop, { once: true });
        this.#tap = () => {
          this.#tap = null;
          aborted?.removeEventListener('abort', stop);
          requestMicrophone().then(resolve, reject);
        };
        this.#host.recoverable(
          'microphone_denied',
          'the browser asks for the microphone again on this page: a tap continues the call',
        );
      });
    });
  }

  ended(call: ActiveCall): void {
    this.#tap = null;
    if (call.dial) removeResumeRecord(call.dial.dialId);
  }
}

/** Its chunk's factory (features/registry.ts). */
export const makeFeature = (host: CallHost, load: FeatureLoad): PersistFeature =>
  new PersistFeature(host, () => load.get('hold')?.held ?? false);
