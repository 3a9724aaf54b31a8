// The shapes the REST half answers with, following the seed's Dial and Agent records
// (see README "Emulator"). Timestamps are ISO 8601 UTC strings.
import type { DialStatus, SystemResultType } from '../seam.js';

export interface AgentRecord {
  id: string;
  name: string;
  language: string;
  transcriberParams: { type: 'deepgram' | 'openai'; keywords: string[] };
  metadata: Record<string, unknown>;
  utteranceDetectorConfig: { sensitivity: 'ULTRA_FAST' | 'FAST' | 'MEDIUM' | 'SLOW'; interruptionPlayTimeMs: number };
  endpointDetectorConfig: { type: 'SIMPLE' | 'SEMANTIC'; mode: 'CONSERVATIVE' | 'DEFAULT' | 'AGGRESSIVE' | null };
  ivrConfiguration: {
    detectionType: 'NONE' | 'STANDARD';
    versionedPromptId: string | null;
    aiVoiceId: string | null;
    taggingText: string | null;
  };
  idleMessageConfig: {
    enabled: boolean;
    messages: string[];
    idleDurationMilliseconds: number;
    maxIdleMessages: number;
  };
  maxDurationSeconds: number;
  defaultVoiceId: string;
  defaultVersionedPromptId: string;
  defaultExtractorId: string | null;
  linkedFunctionDefinitions: { functionDefinitionId: string; lifecycleMessagesOverride: LifecycleMessagesOverride }[];
  fillEmptyStringVariables: boolean;
  silenceHangupConfiguration: {
    type: 'DISABLED' | 'FIRST_MESSAGE_ONLY' | 'WHOLE_CALL';
    silenceDurationSeconds: number;
  };
  voiceOptionValues: { optionId: string; value: string }[];
  timeoutMessage: string | null;
  timeoutBehaviorConfiguration: { behavior: 'HANGUP'; transferNumber: string | null };
  /** Stored and answered as sent: the seed shows the field, the emulator does not act on it. */
  voicemailConfig: Record<string, unknown> | null;
  /** Stored and answered as sent: the seed shows the field, the emulator does not act on it. */
  ivrSilenceHangupConfiguration: Record<string, unknown> | null;
}

/** What a linked function says while it runs; the emulator keeps every field as sent. */
export interface LifecycleMessagesOverride {
  started: string[];
  waiting?: string[];
  awaitSpeech?: string[];
  [field: string]: unknown;
}

export interface TranscriptRecord {
  text: string;
  speaker: 'AI' | 'HUMAN';
  detailType: string | null;
  startTimeMs: number;
  endTimeMs: number;
}

export interface DialRecord {
  id: string;
  toNumber: string | null;
  fromNumberId: string | null;
  agent: AgentRecord;
  recordings: { url: string }[];
  transcript: TranscriptRecord[];
  /** Whole seconds between `startedAt` and `endedAt`; 0 for a dial that never connected, null until it ends. */
  durationSeconds: number | null;
  /** Whole seconds the AI spoke (sum of its transcript lines' durations); null until the dial ends. */
  aiDurationSeconds: number | null;
  aiResult: Record<string, unknown> | null;
  inputs: Record<string, unknown>;
  status: DialStatus;
  systemResultType: SystemResultType | null;
  dialTaskId: string | null;
  voiceId: string;
  versionedPromptId: string;
  startedAt: string | null;
  endedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** `POST /dials` answer. */
export interface CreateDialOutput {
  dialToken: string;
  sessionId: string;
  dialId: string;
}

/** `POST /dials/{id}/token` answer, exactly as the service gives it: the media credentials come from GraphQL `browserDialToken`. */
export interface DialTokenOutput {
  dialToken: string;
}

/** The seed's `{ data, cursor }` pagination envelope. */
export interface Page<T> {
  data: T[];
  cursor: string | null;
}

// ── The other resources of the seed's Endpoints section ──

export interface ModelOptionValue {
  optionId: string;
  value: string;
}

/** `GET /models` item. */
export interface AIModelRecord {
  id: string;
  name: string;
  modelOptions: { id: string; name: string; valueType: 'STRING' | 'INT' | 'FLOAT'; default: string }[];
}

/** `GET /voices` item. */
export interface AIVoiceRecord {
  id: string;
  name: string;
  voiceType: string;
  voiceTier: 'STANDARD' | 'PREMIUM';
  description: string;
}

export interface FlowDefinition {
  nodes: Record<string, unknown>[];
  globalContext?: unknown;
  openingLineType?: 'INBOUND_ONLY' | 'INBOUND_OUTBOUND' | 'NONE';
  [field: string]: unknown;
}

export interface VersionedPromptRecord {
  id: string;
  name: string;
  agentType: 'STANDARD' | 'CUSTOM_FLOW';
  prompt: string | null;
  flowDefinition: FlowDefinition | null;
  aiModelId: string;
  modelOptionValues: ModelOptionValue[];
}

export interface ExtractorRecord {
  id: string;
  name: string;
  /** A JSON schema, held as text. */
  extractorFieldsJsonSchema: string;
}

export interface PhoneNumberRecord {
  id: string;
  number: string;
  type: 'PSTN' | 'SIP_USERNAME';
  agentId: string | null;
}

/** Not shown by the seed: the emulator's shape. */
export interface PhoneNumberPoolRecord {
  id: string;
  name: string;
  phoneNumberIds: string[];
  createdAt: string;
}

export interface FunctionRecord {
  id: string;
  name: string;
  displayName: string;
  description: string;
  type: 'transfer' | 'api';
  allowedNumbers: { number: string }[];
  lifecycleMessages: { started: string[] };
  [field: string]: unknown;
}

export interface DialTaskRecord {
  id: string;
  callAgentId: string;
  createdAt: string;
  inputData: Record<string, unknown>;
  keyInputs: string[];
  results: Record<string, unknown> | null;
  status: 'PENDING' | 'RUNNING' | 'COMPLETED';
  /** The dial that completed the task (the seed's GraphQL twin embeds the whole Dial). */
  completedDialId: string | null;
  attemptDialIds: string[];
}

export interface BatchSchedule {
  days: { dayOfWeek: number; timeSlots: { startTime: string; endTime: string }[] }[];
  timezone: string;
  disableSchedule?: boolean;
}

export interface BatchDialJobRecord {
  id: string;
  name: string;
  maxConcurrentDials: number;
  status: 'INIT' | 'ACTIVE' | 'PAUSED' | 'COMPLETE' | 'CANCELLED';
  callAgentId: string;
  createdAt: string;
  fromPhoneNumberIds: string[];
  schedule: BatchSchedule | null;
}

export interface BatchDialSpecRecord {
  id: string;
  toNumber: string;
  batchDialJobId: string;
  createdAt: string;
  inputs: Record<string, string>;
}

export interface EvalConfigRecord {
  id: string;
  name: string;
  promptSnippet: string | null;
}

export interface EvalRecordRecord {
  id: string;
  evalConfigId: string;
  recordType: 'DIAL' | 'PROMPT';
  dialId: string | null;
  name: string | null;
  description: string | null;
  systemPrompt: string | null;
  maxTurns: number | null;
  agentInputs: Record<string, unknown> | null;
  createdAt: string;
}

/** One judgement of a result, the item shape the seed shows for a rerun. */
export interface EvalResultItem {
  index: number;
  accurate: boolean;
  modelOutput: string;
  reason: string;
}

export interface EvalResultRecord {
  id: string;
  evalRunId: string;
  evalRecordId: string;
  passed: boolean;
  /** How many of `results` are not accurate. */
  numAlerts: number;
  results: EvalResultItem[];
  createdAt: string;
}

export interface EvalRunRecord {
  id: string;
  evalConfigId: string;
  status: 'PENDING' | 'COMPLETED' | 'CANCELLED';
  callAgentId: string;
  versionedPromptId: string | null;
  createdAt: string;
  aggregateResult: { numFailing: number; numPassing: number } | null;
  /** The emulator's extension: one result per record once the run completed. */
  results: EvalResultRecord[];
}
