// Public browser-side API. Importing this module has no side effects: it defines no element
// (import `voice-agent-call/define` for that). It imports the call logic and every language
// statically, for code that uses them directly; the element alone (`voice-agent-call/define`)
// loads them lazily, so a bundle of only the element keeps them in lazy chunks.
export { VERSION } from './version.js';

export { VoiceAgentCall } from './element/voice-agent-call.js';
export type {
  CallSessionFactory,
  VoiceAgentCallLayout,
  VoiceAgentCallPlacement,
  VoiceAgentCallPreload,
  VoiceAgentCallTheme,
} from './element/voice-agent-call.js';
export { CallSession, preloadMedia } from './call/call-session.js';
export type { CallHandover } from './call/gesture.js';
export * from './call/public-events.js';
export type { CallErrorCode, CompanionErrorCode } from './call/error-codes.js';
export { loadCallApi } from './element/call-loader.js';
export type { CallApi } from './element/call-loader.js';
export { builtInStrings, resolveStrings } from './element/languages.js';
export type { VoiceAgentCallStringKey, VoiceAgentCallStrings } from './element/strings.js';
export type {
  CallDevice,
  CallErrorInfo,
  CallMetrics,
  CallProgress,
  CallQuality,
  CallResult,
  CallStage,
  CallSessionLike,
  CallSessionOptions,
  CallState,
  ConnectionQualityLevel,
  EndReason,
  NonSpeechLine,
  OptionalFeature,
  Speaker,
  StageTiming,
  TranscriptEntry,
  TransferState,
  TranscriptMode,
  VoiceLevels,
} from './call/types.js';
