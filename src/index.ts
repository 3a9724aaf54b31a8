// Public browser-side API. Importing this module has no side effects: it defines no element
// (import `voice-agent-call/define` for that).
export const VERSION = '0.1.0';

export { VoiceAgentCall } from './element/voice-agent-call.js';
export type {
  CallSessionFactory,
  VoiceAgentCallLayout,
  VoiceAgentCallPlacement,
  VoiceAgentCallPreload,
  VoiceAgentCallTheme,
} from './element/voice-agent-call.js';
export { CallSession, preloadMedia } from './call/call-session.js';
export {
  CallConnectedEvent,
  CallEndedEvent,
  CallErrorEvent,
  CallMuteEvent,
  CallStateEvent,
  CallTranscriptEvent,
} from './call/events.js';
export { builtInStrings, resolveStrings } from './element/strings.js';
export type { VoiceAgentCallStringKey, VoiceAgentCallStrings } from './element/strings.js';
export type {
  CallErrorInfo,
  CallResult,
  CallSessionLike,
  CallSessionOptions,
  CallState,
  EndReason,
  NonSpeechLine,
  Speaker,
  TranscriptEntry,
  TranscriptMode,
} from './call/types.js';
