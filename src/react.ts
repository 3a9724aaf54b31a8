// `voice-agent-call/react`: <voice-agent-call> as a React component, made with @lit/react, with
// typed event props (`onCallEnded={(event) => event.detail.reason}`). Importing it registers the
// tag (through define.ts), so the component works without a second import; on a server (SSR)
// Lit's own DOM shim makes that registration harmless.
import * as React from 'react';
import { createComponent, type EventName } from '@lit/react';
import { TAG_NAME, VoiceAgentCall as VoiceAgentCallElement } from './define.js';
import type {
  CallConnectedEvent,
  CallEndedEvent,
  CallErrorEvent,
  CallMuteEvent,
  CallStateEvent,
  CallTranscriptEvent,
} from './call/events.js';

/** React prop name → DOM event name, each with its event class for the handler's type. */
export const voiceAgentCallEvents = {
  onCallState: 'call-state' as EventName<CallStateEvent>,
  onCallConnected: 'call-connected' as EventName<CallConnectedEvent>,
  onCallTranscript: 'call-transcript' as EventName<CallTranscriptEvent>,
  onCallMute: 'call-mute' as EventName<CallMuteEvent>,
  onCallError: 'call-error' as EventName<CallErrorEvent>,
  onCallEnded: 'call-ended' as EventName<CallEndedEvent>,
};

/**
 * `<VoiceAgentCall endpoint="/api/voice-call" agent="default" onCallEnded={…} />`. Attributes and
 * properties (`inputs`, `strings`) are props; a `ref` gets the element (for `start()`,
 * `hangup()`, `setMuted()`).
 */
export const VoiceAgentCall = createComponent({
  react: React,
  tagName: TAG_NAME,
  elementClass: VoiceAgentCallElement,
  events: voiceAgentCallEvents,
  displayName: 'VoiceAgentCall',
});

export type VoiceAgentCallProps = React.ComponentProps<typeof VoiceAgentCall>;
export type { VoiceAgentCallElement };
export type {
  CallConnectedEvent,
  CallEndedEvent,
  CallErrorEvent,
  CallMuteEvent,
  CallStateEvent,
  CallTranscriptEvent,
} from './call/events.js';
export type { CallResult, CallState, EndReason, TranscriptEntry } from './call/types.js';
