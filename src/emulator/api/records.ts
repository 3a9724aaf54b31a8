// The shapes the REST half answers with, following the seed's records (see README "Emulator").
// Timestamps are ISO 8601 UTC strings. Each record is the API client's response type itself
// where the emulator answers exactly the fields it names (`Known`), else a stricter type checked
// against it (`Fits`: the client's types are looser, optional fields and open records): a record
// the emulator answers is always one the client reads, so the two cannot drift apart.
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
} from '../../api/types/index.js';
import type {
  CreateDialOutput as ClientCreateDialOutput,
  DialTokenOutput as ClientDialTokenOutput,
} from '../../api/types/index.js';
import type { DialStatus, SystemResultType } from '../seam.js';

/** `Record`, which must be assignable to the client's `Client`: a record that stops fitting fails to compile here. */
type Fits<Client, Record extends Client> = Record;

/** The fields a client type names, without its open `[field: string]: unknown`: a record exactly as the client reads it. */
type Known<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

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
export type CreateDialOutput = ClientCreateDialOutput;

/** `POST /dials/{id}/token` answer, exactly as the service gives it: the media credentials come from GraphQL `browserDialToken`. */
export type DialTokenOutput = ClientDialTokenOutput;

/** The seed's `{ data, cursor }` pagination envelope. */
export type Page<T> = ClientPage<T>;

// ── The other resources of the seed's Endpoints section ──

export type ModelOptionValue = ClientModelOptionValue;

/** `GET /models` item. */
/** `GET /models` item: the fields the client names. */
export type AIModelRecord = Known<AIModel>;

/** `GET /voices` item. */
/** `GET /voices` item. */
export type AIVoiceRecord = Known<AIVoice>;

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

/** `extractorFieldsJsonSchema` is a JSON schema, held as text. */
export type ExtractorRecord = Known<Extractor>;

export type PhoneNumberRecord = Known<PhoneNumber>;

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

/** A row still waiting in a job's queue. */
export type BatchDialSpecRecord = Known<BatchDialSpec>;

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

/** A record's result in a run; `numAlerts` counts the items that are not accurate. */
export type EvalResultRecord = Known<EvalResult> & { createdAt: string };

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
