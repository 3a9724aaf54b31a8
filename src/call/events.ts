// Typed events of a call. `CallSession` dispatches them on itself; the element re-dispatches new
// instances on itself. All bubble and cross shadow boundaries, as a page listening on `document` expects.
import type { CallSessionEventMap } from './types.js';

const init: EventInit = { bubbles: true, composed: true };

/** `call-state`: the call moved to `detail.state` from `detail.previous`. */
export class CallStateEvent extends Event {
  static readonly eventName = 'call-state';
  readonly detail: CallSessionEventMap['call-state'];
  constructor(detail: CallSessionEventMap['call-state']) {
    super(CallStateEvent.eventName, init);
    this.detail = detail;
  }
}

/** `call-connected`: the media is connected and the agent is in the room. */
export class CallConnectedEvent extends Event {
  static readonly eventName = 'call-connected';
  readonly detail: CallSessionEventMap['call-connected'];
  constructor(detail: CallSessionEventMap['call-connected']) {
    super(CallConnectedEvent.eventName, init);
    this.detail = detail;
  }
}

/** `call-transcript`: an entry was added or changed (`detail.changed`); `detail.entries` is the whole transcript. */
export class CallTranscriptEvent extends Event {
  static readonly eventName = 'call-transcript';
  readonly detail: CallSessionEventMap['call-transcript'];
  constructor(detail: CallSessionEventMap['call-transcript']) {
    super(CallTranscriptEvent.eventName, init);
    this.detail = detail;
  }
}

/** `call-mute`: the microphone was muted or unmuted. */
export class CallMuteEvent extends Event {
  static readonly eventName = 'call-mute';
  readonly detail: CallSessionEventMap['call-mute'];
  constructor(detail: CallSessionEventMap['call-mute']) {
    super(CallMuteEvent.eventName, init);
    this.detail = detail;
  }
}

/** `call-error`: something failed; `recoverable` says whether starting a new call may help. */
export class CallErrorEvent extends Event {
  static readonly eventName = 'call-error';
  readonly detail: CallSessionEventMap['call-error'];
  constructor(detail: CallSessionEventMap['call-error']) {
    super(CallErrorEvent.eventName, init);
    this.detail = detail;
  }
}

/** `call-ended`: the call is over; exactly once for every call that left `idle`. */
export class CallEndedEvent extends Event {
  static readonly eventName = 'call-ended';
  readonly detail: CallSessionEventMap['call-ended'];
  constructor(detail: CallSessionEventMap['call-ended']) {
    super(CallEndedEvent.eventName, init);
    this.detail = detail;
  }
}

/** Internal (element UI): the agent started or stopped speaking. */
export class AgentSpeakingEvent extends Event {
  static readonly eventName = 'agent-speaking';
  readonly detail: CallSessionEventMap['agent-speaking'];
  constructor(detail: CallSessionEventMap['agent-speaking']) {
    super(AgentSpeakingEvent.eventName, init);
    this.detail = detail;
  }
}

/** Internal (element UI): the browser blocked the agent's audio; `unlockAudio()` from a click fixes it. */
export class AudioBlockedEvent extends Event {
  static readonly eventName = 'audio-blocked';
  readonly detail: CallSessionEventMap['audio-blocked'];
  constructor(detail: CallSessionEventMap['audio-blocked']) {
    super(AudioBlockedEvent.eventName, init);
    this.detail = detail;
  }
}

/** The event class `CallSession` dispatches for each name. */
export interface CallSessionEvents {
  'call-state': CallStateEvent;
  'call-connected': CallConnectedEvent;
  'call-transcript': CallTranscriptEvent;
  'call-mute': CallMuteEvent;
  'call-error': CallErrorEvent;
  'call-ended': CallEndedEvent;
  'agent-speaking': AgentSpeakingEvent;
  'audio-blocked': AudioBlockedEvent;
}

/** The public events, as they reach an element, the document and the window (they bubble and are composed). */
interface PublicCallEvents {
  'call-state': CallStateEvent;
  'call-connected': CallConnectedEvent;
  'call-transcript': CallTranscriptEvent;
  'call-mute': CallMuteEvent;
  'call-error': CallErrorEvent;
  'call-ended': CallEndedEvent;
}

declare global {
  interface HTMLElementEventMap extends PublicCallEvents {}
  interface DocumentEventMap extends PublicCallEvents {}
  interface WindowEventMap extends PublicCallEvents {}
}
