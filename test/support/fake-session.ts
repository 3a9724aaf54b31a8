// The one scripted stand-in for CallSession in the element tests: a test moves it from state to
// state and says what the agent said; the element renders what it is told.
import {
  AgentSpeakingEvent,
  AudioBlockedEvent,
  CallConnectedEvent,
  CallEndedEvent,
  CallMuteEvent,
  CallStateEvent,
  CallTranscriptEvent,
} from '../../src/call/events.js';
import type {
  CallResult,
  CallSessionLike,
  CallSessionOptions,
  CallState,
  EndReason,
  TranscriptEntry,
} from '../../src/call/types.js';
import { VoiceAgentCall } from '../../src/define.js';
import { part } from './dom.js';

/** A scripted stand-in for CallSession: the test moves it from state to state. */
export class FakeSession extends EventTarget implements CallSessionLike {
  state: CallState = 'idle';
  dialId: string | null = null;
  muted = false;
  transcript: TranscriptEntry[] = [];
  connectedAt: number | null = null;
  agentSpeaking = false;
  audioBlocked = false;
  result: CallResult | null = null;
  options: CallSessionOptions;
  abandoned: string[] = [];
  unlocks = 0;
  listeners = 0;
  /** What `sendFeedback()` was given (the element's `feedback="server"`). */
  feedbacks: Array<{ rating: 'up' | 'down'; comment?: string }> = [];

  constructor(options: CallSessionOptions) {
    super();
    this.options = { ...options };
  }

  override addEventListener(...args: Parameters<EventTarget['addEventListener']>): void {
    this.listeners += 1;
    super.addEventListener(...args);
  }

  override removeEventListener(...args: Parameters<EventTarget['removeEventListener']>): void {
    this.listeners -= 1;
    super.removeEventListener(...args);
  }

  configure(options: Partial<CallSessionOptions>): void {
    Object.assign(this.options, options);
  }

  go(state: CallState): void {
    const previous = this.state;
    if (previous === state) return;
    this.state = state;
    if (state === 'starting') {
      this.connectedAt = null;
      this.result = null;
      this.transcript = [];
      this.dialId = 'dial-1';
    }
    if (state === 'in-call' && this.connectedAt === null) this.connectedAt = Date.now();
    this.dispatchEvent(new CallStateEvent({ state, previous }));
    if (state === 'in-call' && previous === 'connecting')
      this.dispatchEvent(new CallConnectedEvent({ dialId: 'dial-1' }));
  }

  end(reason: EndReason): void {
    this.go('ending');
    this.result = { dialId: this.dialId, reason, transcript: [...this.transcript] };
    this.go('ended');
    this.dispatchEvent(new CallEndedEvent(this.result));
  }

  /** Adds or updates an entry; the event carries a fresh copy of the list, as CallSession's does. */
  say(entry: TranscriptEntry): void {
    const index = this.transcript.findIndex((e) => e.id === entry.id);
    if (index >= 0) this.transcript[index] = entry;
    else this.transcript.push(entry);
    this.dispatchEvent(new CallTranscriptEvent({ entries: this.transcript.map((e) => ({ ...e })), changed: entry }));
  }

  speaking(speaking: boolean): void {
    this.agentSpeaking = speaking;
    this.dispatchEvent(new AgentSpeakingEvent({ speaking }));
  }

  blockAudio(): void {
    this.audioBlocked = true;
    this.dispatchEvent(new AudioBlockedEvent({ blocked: true }));
  }

  async start(): Promise<void> {
    this.go('starting');
  }

  async hangup(): Promise<void> {
    this.end('user-hangup');
  }

  setMuted(muted: boolean): void {
    if (muted === this.muted) return;
    this.muted = muted;
    this.dispatchEvent(new CallMuteEvent({ muted }));
  }

  async unlockAudio(): Promise<void> {
    this.unlocks += 1;
    this.audioBlocked = false;
    this.dispatchEvent(new AudioBlockedEvent({ blocked: false }));
  }

  async sendFeedback(feedback: { rating: 'up' | 'down'; comment?: string }): Promise<void> {
    this.feedbacks.push(feedback);
  }

  abandon(reason: 'element-removed' | 'page-unload'): void {
    this.abandoned.push(reason);
    this.end(reason);
  }
}

/** The newest FakeSession an element made (a page's elements share the factory). */
let newest: FakeSession | null = null;

function newestSession(): FakeSession {
  if (!newest) throw new Error('no session was made');
  return newest;
}

/**
 * Makes every element's session a FakeSession, forgotten before each test; the returned function
 * gives the newest one, and throws when none was made.
 */
export function useFakeSessions(): () => FakeSession {
  VoiceAgentCall.sessionFactory = (options) => (newest = new FakeSession(options));
  beforeEach(() => {
    newest = null;
  });
  return newestSession;
}

/** Clicks the element's call button (the call chunk loaded) and moves its fake session to `in-call`. */
export async function inCall(el: VoiceAgentCall): Promise<FakeSession> {
  part(el, 'call-button').click();
  const session = newestSession();
  session.go('connecting');
  session.go('in-call');
  await el.updateComplete;
  return session;
}
