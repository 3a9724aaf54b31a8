// The shapes the REST half answers with, following the seed's records (see README "Emulator").
// Timestamps are ISO 8601 UTC strings. Each record is checked against the API client's response
// type (`Fits`): the client's types are looser (optional fields, open records), but a record the
// emulator answers must always be one the client reads, so the two cannot drift apart.
import type {
  Agent,
  AIModel,
  AIVoice,
  BatchDialJob,
  BatchDialSpec,
  BatchSchedule as ClientBatchSchedule,
  Dial,
  DialTask,
  DialTranscriptLine,
  EvalConfig,
  EvalRecord,
  EvalResult,
  EvalResultItem as ClientEvalResultItem,
  EvalRun,
  Extractor,
  FlowDefinition as ClientFlowDefinition,
  FunctionDefinition,
  ModelOptionValue as ClientModelOptionValue,
  Page as ClientPage,
  PhoneNumber,
  PhoneNumberPool,
  VersionedPrompt,
} from '../../server/api/types.js';
import type {
  CreateDialOutput as ClientCreateDialOutput,
  DialTokenOutput as ClientDialTokenOutput,
} from '../../server/service-client.js';
import type { DialStatus, SystemResultType } from '../seam.js';

/** `Record`, which must be assignable to the client's `Client`: a record that stops fitting fails to compile here. */
type Fits<Client, Record extends Client> = Record;

/** The client's type without `Field`, where the emulator's record knowingly answers something looser (said there). */
type Without<T, Field extends string> = { [K in keyof T as K extends Field ? never : K]: T[K] };

export type AgentRecord = Fits<
  Agent,
  {
    id: string;
    name: string;
    language: string;
    transcriberParams: { type: 'deepgram' | 'openai'; keywords: string[] };
    metadata: Record<string, unknown>;
    utteranceDetectorConfig: {
      sensitivity: 'ULTRA_FAST' | 'FAST' | 'MEDIUM' | 'SLOW';
      interruptionPlayTimeMs: number;
    };
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
    linkedFunctionDefinitions: {
      functionDefinitionId: string;
      lifecycleMessagesOverride: LifecycleMessagesOverride;
    }[];
    fillEmptyStringVariables: boolean;
    silenceHangupConfiguration: {
      type: 'DISABLED' | 'FIRST_MESSAGE_ONLY' | 'WHOLE_CALL';
      silenceDurationSeconds: number;
    };
    voiceOptionValues: ModelOptionValue[];
    timeoutMessage: string | null;
    timeoutBehaviorConfiguration: { behavior: 'HANGUP'; transferNumber: string | null };
    /** Stored and answered as sent: the seed shows the field, the emulator does not act on it. */
    voicemailConfig: Record<string, unknown> | null;
    /** Stored and answered as sent: the seed shows the field, the emulator does not act on it. */
    ivrSilenceHangupConfiguration: Record<string, unknown> | null;
  }
>;

/** What a linked function says while it runs; the emulator keeps every field as sent. */
export type LifecycleMessagesOverride = {
  started: string[];
  waiting?: string[];
  awaitSpeech?: string[];
  [field: string]: unknown;
};

export type TranscriptRecord = Fits<
  DialTranscriptLine,
  {
    text: string;
    speaker: 'AI' | 'HUMAN';
    detailType: string | null;
    startTimeMs: number;
    endTimeMs: number;
  }
>;

export type DialRecord = Fits<
  Dial,
  {
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
>;

/** `POST /dials` answer. */
export type CreateDialOutput = Fits<ClientCreateDialOutput, { dialToken: string; sessionId: string; dialId: string }>;

/** `POST /dials/{id}/token` answer, exactly as the service gives it: the media credentials come from GraphQL `browserDialToken`. */
export type DialTokenOutput = Fits<ClientDialTokenOutput, { dialToken: string }>;

/** The seed's `{ data, cursor }` pagination envelope. */
export type Page<T> = ClientPage<T>;

// ── The other resources of the seed's Endpoints section ──

export type ModelOptionValue = ClientModelOptionValue;

/** `GET /models` item. */
export type AIModelRecord = Fits<
  AIModel,
  {
    id: string;
    name: string;
    modelOptions: { id: string; name: string; valueType: 'STRING' | 'INT' | 'FLOAT'; default: string }[];
  }
>;

/** `GET /voices` item. */
export type AIVoiceRecord = Fits<
  AIVoice,
  {
    id: string;
    name: string;
    voiceType: string;
    voiceTier: 'STANDARD' | 'PREMIUM';
    description: string;
  }
>;

/**
 * A flow as the emulator answers it: `openingLineType` always there, the nodes as sent (each
 * object node with `outputSchema` and its rules' `conditionType` and `arrayConditionType` filled
 * in). Not checked against the client's `FlowNode`: the emulator checks only that `nodes` is an
 * array, so it answers a node without `id`, `name` or `type` as it was sent.
 */
export type FlowDefinition = Fits<
  Without<ClientFlowDefinition, 'nodes'>,
  {
    nodes: Record<string, unknown>[];
    globalContext?: unknown;
    openingLineType: 'INBOUND_ONLY' | 'INBOUND_OUTBOUND' | 'NONE';
    [field: string]: unknown;
  }
>;

export type VersionedPromptRecord = Fits<
  Without<VersionedPrompt, 'flowDefinition'>,
  {
    id: string;
    name: string;
    agentType: 'STANDARD' | 'CUSTOM_FLOW';
    prompt: string | null;
    flowDefinition: FlowDefinition | null;
    aiModelId: string;
    modelOptionValues: ModelOptionValue[];
  }
>;

export type ExtractorRecord = Fits<
  Extractor,
  {
    id: string;
    name: string;
    /** A JSON schema, held as text. */
    extractorFieldsJsonSchema: string;
  }
>;

export type PhoneNumberRecord = Fits<
  PhoneNumber,
  {
    id: string;
    number: string;
    type: 'PSTN' | 'SIP_USERNAME';
    agentId: string | null;
  }
>;

/** Not shown by the seed: the emulator's shape. */
export type PhoneNumberPoolRecord = Fits<
  PhoneNumberPool,
  {
    id: string;
    name: string;
    phoneNumberIds: string[];
    createdAt: string;
  }
>;

export type FunctionRecord = Fits<
  FunctionDefinition,
  {
    id: string;
    name: string;
    displayName: string;
    description: string;
    type: 'transfer' | 'api';
    allowedNumbers: { number: string }[];
    lifecycleMessages: { started: string[] };
    [field: string]: unknown;
  }
>;

export type DialTaskRecord = Fits<
  DialTask,
  {
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
>;

export type BatchSchedule = ClientBatchSchedule;

export type BatchDialJobRecord = Fits<
  BatchDialJob,
  {
    id: string;
    name: string;
    maxConcurrentDials: number;
    status: 'INIT' | 'ACTIVE' | 'PAUSED' | 'COMPLETE' | 'CANCELLED';
    callAgentId: string;
    createdAt: string;
    fromPhoneNumberIds: string[];
    schedule: BatchSchedule | null;
  }
>;

export type BatchDialSpecRecord = Fits<
  BatchDialSpec,
  {
    id: string;
    toNumber: string;
    batchDialJobId: string;
    createdAt: string;
    inputs: Record<string, string>;
  }
>;

export type EvalConfigRecord = Fits<EvalConfig, { id: string; name: string; promptSnippet: string | null }>;

export type EvalRecordRecord = Fits<
  EvalRecord,
  {
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
>;

/** One judgement of a result, the item shape the seed shows for a rerun. */
export type EvalResultItem = ClientEvalResultItem;

export type EvalResultRecord = Fits<
  EvalResult,
  {
    id: string;
    evalRunId: string;
    evalRecordId: string;
    passed: boolean;
    /** How many of `results` are not accurate. */
    numAlerts: number;
    results: EvalResultItem[];
    createdAt: string;
  }
>;

export type EvalRunRecord = Fits<
  EvalRun,
  {
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
>;
