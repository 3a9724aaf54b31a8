// Typed events of a call, one class per name of `CALL_EVENTS` (event-names.ts), each made by
// `callEventClass` from its name and `CallEventMap` detail. `CallSession` dispatches them on
// itself; the element re-dispatches new instances on itself. All bubble and cross shadow
// boundaries, as a page listening on `document` expects.
import type { CallEventName, PublicCallEventName } from './event-names.js';
import type { CallEventMap } from './types.js';

const init: EventInit = { bubbles: true, composed: true };

/** An event of a call: its DOM name as `eventName`, its detail as `detail`. */
export interface CallEvent<K extends CallEventName> extends Event {
  readonly detail: CallEventMap[K];
}

export interface CallEventClass<K extends CallEventName> {
  readonly eventName: K;
  readonly prototype: CallEvent<K>;
  new (detail: CallEventMap[K]): CallEvent<K>;
}

function callEventClass<K extends CallEventName>(name: K): CallEventClass<K> {
  return class extends Event {
    static readonly eventName = name;
    readonly detail: CallEventMap[K];
    constructor(detail: CallEventMap[K]) {
      super(name, init);
      this.detail = detail;
    }
  };
}

/** `call-state`: the call moved to `detail.state` from `detail.previous`. */
export class CallStateEvent extends callEventClass('call-state') {}
/** `call-connected`: the media is connected and the agent is in the room. */
export class CallConnectedEvent extends callEventClass('call-connected') {}
/** `call-resumed`: a call taken over from an earlier page (`persist`) is up again; `awaySeconds` it was away. */
export class CallResumedEvent extends callEventClass('call-resumed') {}
/** `call-transcript`: an entry was added or changed (`detail.changed`); `detail.entries` is the whole transcript. */
export class CallTranscriptEvent extends callEventClass('call-transcript') {}
/** `call-mute`: the microphone was muted or unmuted. */
export class CallMuteEvent extends callEventClass('call-mute') {}
/** `call-hold`: the AI was paused (`held`) or resumed. */
export class CallHoldEvent extends callEventClass('call-hold') {}
/** `call-dtmf`: one keypad digit was sent. */
export class CallDtmfEvent extends callEventClass('call-dtmf') {}
/** `call-device`: the call moved to another microphone or speaker (`fallback`: the one in use went away). */
export class CallDeviceEvent extends callEventClass('call-device') {}
/** `call-quality`: the connection's grade changed (`excellent`, `good`, `poor`, `lost`), with its figures. */
export class CallQualityEvent extends callEventClass('call-quality') {}
/** `call-progress`: a stage of the call's setup is done (`stage`, how long it took in `ms`). */
export class CallProgressEvent extends callEventClass('call-progress') {}
/** `call-transfer`: talking to a person was asked for (`requested`), happened (`connected`) or was refused (`failed`). */
export class CallTransferEvent extends callEventClass('call-transfer') {}
/** `call-error`: something failed; `recoverable` says whether starting a new call may help. */
export class CallErrorEvent extends callEventClass('call-error') {}
/** `call-ended`: the call is over; exactly once for every call that left `idle`. */
export class CallEndedEvent extends callEventClass('call-ended') {}
/** Internal (element UI): the agent started or stopped speaking. */
export class AgentSpeakingEvent extends callEventClass('agent-speaking') {}
/** Internal (element UI): the browser blocked the agent's audio; `unlockAudio()` from a click fixes it. */
export class AudioBlockedEvent extends callEventClass('audio-blocked') {}
/** `call-consent` (the element only): the visitor agreed to the consent gate or cancelled it. */
export class CallConsentEvent extends callEventClass('call-consent') {}
/** `call-feedback` (the element only): the visitor rated the call. */
export class CallFeedbackEvent extends callEventClass('call-feedback') {}

/** The class of each event; the compiler wants one for every name of `CALL_EVENTS`, and no other. */
export const CALL_EVENT_CLASSES = {
  'call-state': CallStateEvent,
  'call-connected': CallConnectedEvent,
  'call-resumed': CallResumedEvent,
  'call-transcript': CallTranscriptEvent,
  'call-mute': CallMuteEvent,
  'call-hold': CallHoldEvent,
  'call-dtmf': CallDtmfEvent,
  'call-device': CallDeviceEvent,
  'call-quality': CallQualityEvent,
  'call-progress': CallProgressEvent,
  'call-transfer': CallTransferEvent,
  'call-error': CallErrorEvent,
  'call-ended': CallEndedEvent,
  'agent-speaking': AgentSpeakingEvent,
  'audio-blocked': AudioBlockedEvent,
  'call-consent': CallConsentEvent,
  'call-feedback': CallFeedbackEvent,
} as const satisfies { [K in CallEventName]: CallEventClass<K> };

/** The event class `CallSession` dispatches for each name. */
export type CallSessionEvents = { [K in CallEventName]: InstanceType<(typeof CALL_EVENT_CLASSES)[K]> };

/** The public events, as they reach an element, the document and the window (they bubble and are composed). */
export type PublicCallEvents = Pick<CallSessionEvents, PublicCallEventName>;

/** A new event of `name` carrying `detail` (the element re-dispatches the session's events with it). */
export function createCallEvent<K extends CallEventName>(name: K, detail: CallEventMap[K]): CallEvent<K> {
  const classes: { [N in CallEventName]: CallEventClass<N> } = CALL_EVENT_CLASSES;
  return new classes[name](detail);
}

/** A listener of one of a call's events, typed by its class. */
type CallListener<K extends CallEventName> =
  ((event: CallSessionEvents[K]) => void) | { handleEvent(event: CallSessionEvents[K]): void } | null;
type Listener = EventListenerOrEventListenerObject | null;

/** An `EventTarget` whose listeners are typed by the events of a call (`CallSession` is one). */
export class CallEventTarget extends EventTarget {
  override addEventListener<K extends CallEventName>(type: K, listener: CallListener<K>, options?: AddOptions): void;
  override addEventListener(type: string, listener: Listener, options?: AddOptions): void;
  override addEventListener(type: string, listener: Listener, options?: AddOptions): void {
    super.addEventListener(type, listener, options);
  }

  override removeEventListener<K extends CallEventName>(type: K, listener: CallListener<K>, options?: Options): void;
  override removeEventListener(type: string, listener: Listener, options?: Options): void;
  override removeEventListener(type: string, listener: Listener, options?: Options): void {
    super.removeEventListener(type, listener, options);
  }
}

type AddOptions = AddEventListenerOptions | boolean;
type Options = EventListenerOptions | boolean;

// Global event maps can only be extended by interface merging; the members come from `PublicCallEvents`.
/* eslint-disable @typescript-eslint/no-empty-object-type */
declare global {
  interface HTMLElementEventMap extends PublicCallEvents {}
  interface DocumentEventMap extends PublicCallEvents {}
  interface WindowEventMap extends PublicCallEvents {}
}
/* eslint-enable @typescript-eslint/no-empty-object-type */
