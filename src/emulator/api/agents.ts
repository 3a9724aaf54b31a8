// The scenario agents: a test or the demo picks the agent's behaviour by the agent id it dials.
// The REST half only knows their records; how each one behaves in the room lives in ../agent/.
import type { AgentRecord } from './records.js';

/** Greets and answers each user turn with a scripted reply; ends at the dial's time cap. */
export const EMU_DEMO = 'emu-demo';
/** One scripted exchange, goodbye, hangs up within ~4 s and sets `aiResult`. */
export const EMU_QUICK = 'emu-quick';
/** Hangs up once the caller's microphone was silent or muted for 3 s. */
export const EMU_SILENT_USER = 'emu-silent-user';
/** Greets, then the media connection drops without a goodbye. */
export const EMU_DROP = 'emu-drop';
/** The room opens but no agent ever joins. */
export const EMU_NO_AGENT = 'emu-no-agent';
/** The workspace is at capacity: the dial is created and ends at once as `RATE_LIMITED`. */
export const EMU_BUSY = 'emu-busy';
/** Greets, then the agent leaves the room without a goodbye (no LeaveRequest to the caller): `FAILED`. */
export const EMU_AGENT_LEAVES = 'emu-agent-leaves';
/** Greets, then the media server sends the caller a LeaveRequest `SERVER_SHUTDOWN`: `FAILED`. */
export const EMU_SERVER_LEAVE = 'emu-server-leave';
/** Greets, the connection drops once without a LeaveRequest, the rejoin is accepted and the call goes on like emu-demo. */
export const EMU_BLIP = 'emu-blip';
/** The dial's media is Vonage, not LiveKit: `browserDialToken` answers `telephonyProvider: "vonage"` and no URL. */
export const EMU_VONAGE = 'emu-vonage';
/** emu-quick without `lk.transcription` in the room: the GraphQL transcript events are the only live transcript. */
export const EMU_GRAPHQL_TRANSCRIPT = 'emu-graphql-transcript';
/** Greets, asks for a key, and answers each keypad tone the caller sends ("You pressed 2."). */
export const EMU_KEYPAD = 'emu-keypad';
/** emu-demo over a link the room grades POOR in its connection-quality updates ("Weak connection"). */
export const EMU_WEAK_LINK = 'emu-weak-link';
/** emu-demo whose calls the service refuses to transfer: `hangupCall` with a `transferNumber` is a GraphQL error. */
export const EMU_TRANSFER_REFUSED = 'emu-transfer-refused';

export const SCENARIO_AGENT_IDS = [
  EMU_DEMO,
  EMU_QUICK,
  EMU_SILENT_USER,
  EMU_DROP,
  EMU_NO_AGENT,
  EMU_BUSY,
  EMU_AGENT_LEAVES,
  EMU_SERVER_LEAVE,
  EMU_BLIP,
  EMU_VONAGE,
  EMU_GRAPHQL_TRANSCRIPT,
  EMU_KEYPAD,
  EMU_WEAK_LINK,
  EMU_TRANSFER_REFUSED,
] as const;
export type ScenarioAgentId = (typeof SCENARIO_AGENT_IDS)[number];

const DEFAULT_MAX_DURATION_SECONDS = 10800;

const names: Record<ScenarioAgentId, string> = {
  'emu-demo': 'Emulator demo agent',
  'emu-quick': 'Emulator quick agent (hangs up after one exchange)',
  'emu-silent-user': 'Emulator silence-hangup agent',
  'emu-drop': 'Emulator dropped-connection agent',
  'emu-no-agent': 'Emulator agent that never joins',
  'emu-busy': 'Emulator busy workspace',
  'emu-agent-leaves': 'Emulator agent that leaves without a goodbye',
  'emu-server-leave': 'Emulator media server that shuts the room down',
  'emu-blip': 'Emulator agent whose connection drops once and comes back',
  'emu-vonage': 'Emulator agent on a Vonage media session (not LiveKit)',
  'emu-graphql-transcript': 'Emulator quick agent with its live transcript over GraphQL only',
  'emu-keypad': 'Emulator agent that answers keypad tones',
  'emu-weak-link': 'Emulator demo agent on a weak connection',
  'emu-transfer-refused': 'Emulator demo agent whose calls cannot be transferred',
};

/** The media provider `browserDialToken` names for a dial of this scenario. */
export function telephonyProviderOf(scenario: string): 'livekit' | 'vonage' {
  return scenario === EMU_VONAGE ? 'vonage' : 'livekit';
}

/** An agent record: `fields`, and the seed's defaults for every field they leave out. */
export function newAgentRecord(
  fields: Pick<AgentRecord, 'id' | 'name' | 'defaultVoiceId' | 'defaultVersionedPromptId'> & Partial<AgentRecord>,
): AgentRecord {
  // Every field in the order the seed shows them: `fields` replaces values in place.
  const defaults: AgentRecord = {
    id: '',
    name: '',
    language: 'en',
    transcriberParams: { type: 'deepgram', keywords: [] },
    metadata: {},
    utteranceDetectorConfig: { sensitivity: 'MEDIUM', interruptionPlayTimeMs: 500 },
    endpointDetectorConfig: { type: 'SIMPLE', mode: 'DEFAULT' },
    ivrConfiguration: { detectionType: 'NONE', versionedPromptId: null, aiVoiceId: null, taggingText: null },
    idleMessageConfig: { enabled: false, messages: [], idleDurationMilliseconds: 5000, maxIdleMessages: 1 },
    maxDurationSeconds: DEFAULT_MAX_DURATION_SECONDS,
    defaultVoiceId: '',
    defaultVersionedPromptId: '',
    defaultExtractorId: null,
    linkedFunctionDefinitions: [],
    fillEmptyStringVariables: false,
    silenceHangupConfiguration: { type: 'DISABLED', silenceDurationSeconds: 0 },
    voiceOptionValues: [],
    timeoutMessage: null,
    timeoutBehaviorConfiguration: { behavior: 'HANGUP', transferNumber: null },
    voicemailConfig: null,
    ivrSilenceHangupConfiguration: null,
  };
  return { ...defaults, ...fields };
}

/** A fresh record of a scenario agent. */
export function scenarioAgent(id: ScenarioAgentId): AgentRecord {
  return newAgentRecord({
    id,
    name: names[id],
    metadata: { emulator: true, scenario: id },
    defaultVoiceId: 'emu-voice-espeak-en',
    defaultVersionedPromptId: `${id}-prompt-v1`,
    defaultExtractorId: id === EMU_QUICK ? 'emu-quick-extractor' : null,
    fillEmptyStringVariables: true,
    ...(id === EMU_SILENT_USER
      ? { silenceHangupConfiguration: { type: 'WHOLE_CALL', silenceDurationSeconds: 3 } }
      : {}),
  });
}
