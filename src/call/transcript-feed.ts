// The transcript of a call as it arrives: live segments (the room's lk.transcription and the
// service's live transcript), and, when no live stream brings it or one is gone, the dial record
// read every `pollIntervalMs`; each change fires `call-transcript`.
import type { ActiveCall } from './active-call.js';
import { isTerminal } from './companion-client.js';
import { pollDial } from './dial-record.js';
import type { Ending } from './endings.js';
import { CallTranscriptEvent } from './events.js';
import type { LiveSegment } from './transcript.js';
import type { TranscriptEntry } from './types.js';

/** What the feed needs of the session. */
export interface FeedHost {
  /** The call reached `in-call` (null until then). */
  readonly connectedAt: number | null;
  emit(event: Event): void;
  end(call: ActiveCall, ending: Ending): Promise<void>;
  startTimer(call: ActiveCall, ms: number, run: () => void): void;
}

export class TranscriptFeed {
  readonly #host: FeedHost;

  constructor(host: FeedHost) {
    this.#host = host;
  }

  /** A live segment (room or service). */
  apply(call: ActiveCall, segment: LiveSegment): void {
    const changed = call.transcript.applySegment(segment);
    if (changed) this.#transcribed(call, changed);
  }

  /** A service stream is gone: the companion's dial record takes over (transcript and end), now or once in the call. */
  lost(call: ActiveCall): void {
    if (call.poll === 'off') call.poll = 'wanted';
    if (this.#host.connectedAt !== null) this.#poll(call);
  }

  /** The call is up: read the record now (`poll`, or a stream already gone), or when no live segment came in time. */
  connected(call: ActiveCall): void {
    const mode = call.options.transcript;
    if (mode === 'poll' || call.poll === 'wanted') {
      this.#poll(call);
    } else if (mode === 'live') {
      this.#host.startTimer(call, call.options.liveTranscriptGraceMs, () => {
        if (!call.transcript.hasLiveSegments) this.#poll(call);
      });
    }
  }

  /** Reads the dial every `pollIntervalMs` and merges its transcript; a terminal dial ends the call. */
  #poll(call: ActiveCall): void {
    const dial = call.dial;
    if (call.poll === 'running' || !dial) return;
    call.poll = 'running';
    void pollDial(call.companion, dial, call.options.pollIntervalMs, call.controller.signal, (record) => {
      const changedEntries = call.transcript.mergeService(record.transcript);
      if (call.options.transcript !== 'off') for (const changed of changedEntries) this.#transcribed(call, changed);
      if (!isTerminal(record)) return false;
      void this.#host.end(call, 'dial-ended');
      return true;
    });
  }

  #transcribed(call: ActiveCall, changed: TranscriptEntry): void {
    this.#host.emit(new CallTranscriptEvent({ entries: call.transcript.entries, changed }));
  }
}
