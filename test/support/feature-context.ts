// A session feature on its own (src/call/session-feature.ts): a real `ActiveCall`, a fake media
// connection and service session that record what the feature asks of them, and a context that
// records what the feature emits and how it ends the call. No room, no companion.
import { isOver, newCall, type ActiveCall } from '../../src/call/active-call.js';
import { AgentAudio } from '../../src/call/agent-audio.js';
import { callOptions } from '../../src/call/call-options.js';
import type { EndDetail, Ending } from '../../src/call/endings.js';
import { CallErrorEvent } from '../../src/call/events.js';
import type { LinkStats, MediaConnection, ServiceSession } from '../../src/call/media/livekit-media.js';
import type { FeatureContext } from '../../src/call/session-feature.js';
import type { CallPhase } from '../../src/call/states.js';
import type { DialHandle } from '../../src/call/companion-client.js';
import type { CallSessionOptions, ConnectionQualityLevel, VoiceLevels } from '../../src/call/types.js';

/** A media connection that records each request; `hold(what)` makes the next such request wait for `release()`. */
export class FakeMedia implements MediaConnection {
  readonly dtmf: string[] = [];
  readonly replaced: { track: MediaStreamTrack; muted: boolean }[] = [];
  readonly muted: boolean[] = [];
  /** What `linkStats()` answers (a copy), and how many times it was read. */
  stats: LinkStats = {};
  statsReads = 0;
  /** The quality listeners watching now (`watchQuality`). */
  readonly qualityListeners = new Set<(quality: ConnectionQualityLevel) => void>();
  disconnected = false;
  #gate: { what: 'dtmf' | 'replace'; open: Promise<void> } | null = null;
  #release: () => void = () => undefined;

  /** The next request of `what` waits until `release()`. */
  hold(what: 'dtmf' | 'replace'): void {
    this.#gate = { what, open: new Promise((resolve) => (this.#release = resolve)) };
  }

  release(): void {
    this.#release();
  }

  levels(): VoiceLevels {
    return { agent: 0, visitor: 0 };
  }

  async setMuted(muted: boolean): Promise<void> {
    this.muted.push(muted);
  }

  async sendDtmf(digit: string): Promise<void> {
    this.dtmf.push(digit);
    await this.#wait('dtmf');
  }

  async replaceMicrophone(track: MediaStreamTrack, muted: boolean): Promise<void> {
    await this.#wait('replace');
    this.replaced.push({ track, muted });
  }

  watchQuality(listener: (quality: ConnectionQualityLevel) => void): () => void {
    this.qualityListeners.add(listener);
    return () => this.qualityListeners.delete(listener);
  }

  /** The media server grades the connection: each watching listener hears it. */
  grade(quality: ConnectionQualityLevel): void {
    for (const listener of [...this.qualityListeners]) listener(quality);
  }

  async linkStats(): Promise<LinkStats> {
    this.statsReads += 1;
    return { ...this.stats };
  }

  async disconnect(): Promise<void> {
    this.disconnected = true;
  }

  async #wait(what: 'dtmf' | 'replace'): Promise<void> {
    const gate = this.#gate;
    if (gate?.what !== what) return;
    this.#gate = null;
    await gate.open;
  }
}

/** A service session whose `pauseAI` answers as `answer` says (rejecting with a reason, as the real one does). */
export function fakeService(answer: (paused: boolean) => Promise<void>): ServiceSession & { paused: boolean[] } {
  const paused: boolean[] = [];
  return {
    paused,
    nonSpeechLines: [],
    roomJoined: () => undefined,
    close: () => undefined,
    pauseAI: (value) => {
      paused.push(value);
      return answer(value);
    },
  };
}

/** What a feature asked of the call's companion (no network): its transfer and rating requests. */
export interface CompanionAsk {
  route: 'transfer' | 'feedback';
  dial: DialHandle;
  body?: unknown;
}

/** The call's companion client with its transfer and feedback answered by `answer`, each request recorded. */
export function fakeCompanion(call: ActiveCall, answer: () => Promise<void> = async () => undefined): CompanionAsk[] {
  const asked: CompanionAsk[] = [];
  call.companion.transfer = (dial) => {
    asked.push({ route: 'transfer', dial });
    return answer();
  };
  call.companion.feedback = (dial, body) => {
    asked.push({ route: 'feedback', dial, body });
    return answer();
  };
  return asked;
}

export interface FeatureHarness {
  context: FeatureContext;
  /** The current call (`context.call`): a real ActiveCall in `phase`. */
  call: ActiveCall;
  /** Every event the feature emitted, in order. */
  events: Event[];
  /** Each end the feature asked for. */
  ends: { ending: Ending; detail?: EndDetail }[];
  setMuted(muted: boolean): void;
  /** A new current call (the old one is no longer live). */
  nextCall(phase?: CallPhase): ActiveCall;
}

export function featureHarness({
  phase = 'in-call',
  options = {},
}: { phase?: CallPhase; options?: Partial<CallSessionOptions> } = {}): FeatureHarness {
  const sessionOptions: CallSessionOptions = { endpoint: '/unused', ...options };
  const makeCall = (at: CallPhase): ActiveCall => {
    const created = newCall(
      callOptions(sessionOptions),
      new AgentAudio(document.createElement('audio'), () => undefined),
    );
    created.phase = at;
    return created;
  };
  let muted = false;
  const harness: FeatureHarness = {
    call: makeCall(phase),
    events: [],
    ends: [],
    setMuted: (value) => {
      muted = value;
    },
    nextCall: (at = 'in-call') => (harness.call = makeCall(at)),
    context: {
      get call() {
        return harness.call;
      },
      options: sessionOptions,
      get muted() {
        return muted;
      },
      isLive: (call) => call === harness.call && !isOver(call),
      emit: (event) => harness.events.push(event),
      recoverable: (code, message) => harness.events.push(new CallErrorEvent({ code, message, recoverable: true })),
      end: (call, ending, detail) => {
        harness.ends.push({ ending, detail });
        call.phase = 'ending';
      },
    },
  };
  return harness;
}

/** The events of one type, as their details. */
export function details<T>(events: readonly Event[], type: string): T[] {
  return events.filter((event) => event.type === type).map((event) => (event as Event & { detail: T }).detail);
}
