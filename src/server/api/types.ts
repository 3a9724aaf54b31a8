// The shapes of the calling service's REST API, as its seed document shows them. Where the seed
// marks a shape "not shown" (phone number pools, dial tasks, evaluation results, the API-variant
// fields of a function), the type names the fields the emulator answers and stays an open record
// (`[field: string]: unknown`): the live service may send more. Fields the seed shows only in
// responses (a flow's `openingLineType`, a node's `outputSchema`, a rule's `conditionType` and
// `arrayConditionType`) are optional in the request types and present in the response types.

// ── pagination ──

/** The usual listing envelope. Pass `cursor` back verbatim for the next page; null on the last. */
export interface Page<T> {
  data: T[];
  cursor: string | null;
}

/**
 * `limit` (the seed: default 100, maximum not shown; the emulator answers at most 100) and the
 * opaque `cursor` of the previous page, passed back verbatim to the same listing with the same filters.
 */
export interface ListOptions {
  limit?: number;
  cursor?: string | null;
}

// ── dials ──

export type DialStatus =
  'queued' | 'ringing' | 'in-progress' | 'completed' | 'failed' | 'canceled' | 'busy' | 'no-answer';

export type SystemResultType =
  | 'BUSY'
  | 'FAILED'
  | 'NO_ANSWER'
  | 'CANCELLED'
  | 'USER_HANGUP'
  | 'COUNTERPARTY_HANGUP'
  | 'TIMEOUT'
  | 'RATE_LIMITED'
  | 'TRANSFERRED'
  | 'AGENT_HANGUP'
  | 'VOICEMAIL_DETECTED_HANGUP'
  | 'LONG_SILENCE_HANGUP';

export interface ModelOptionValue {
  optionId: string;
  value: string;
}

export interface OpeningLine {
  lineType: 'INBOUND_ONLY' | 'INBOUND_OUTBOUND' | 'NONE';
  content: string;
}

export interface TranscriberParams {
  type: 'deepgram' | 'openai';
  keywords?: string[];
}

export interface IdleMessageConfig {
  enabled: boolean;
  messages?: string[];
  /** At least 5000. */
  idleDurationMilliseconds?: number;
  maxIdleMessages?: number;
}

export interface UtteranceDetectorConfig {
  sensitivity: 'ULTRA_FAST' | 'FAST' | 'MEDIUM' | 'SLOW';
  interruptionPlayTimeMs?: number;
}

export interface EndpointDetectorConfig {
  type: 'SIMPLE' | 'SEMANTIC';
  mode?: 'CONSERVATIVE' | 'DEFAULT' | 'AGGRESSIVE' | null;
}

export interface IvrConfiguration {
  detectionType: 'NONE' | 'STANDARD';
  versionedPromptId?: string | null;
  versionedPrompt?: CreateVersionedPromptInput;
  aiVoiceId?: string | null;
  taggingText?: string | null;
}

export interface SilenceHangupConfiguration {
  type: 'DISABLED' | 'FIRST_MESSAGE_ONLY' | 'WHOLE_CALL';
  silenceDurationSeconds?: number;
}

/** What a linked function says while it runs, instead of the function's own `lifecycleMessages`. */
export interface LifecycleMessagesOverride {
  started: string[];
  waiting?: string[];
  awaitSpeech?: string[];
}

export interface LinkedFunctionDefinitionInput {
  functionDefinitionId: string;
  lifecycleMessagesOverride?: LifecycleMessagesOverride;
}

export interface LinkedFunctionDefinition {
  functionDefinitionId: string;
  lifecycleMessagesOverride?: LifecycleMessagesOverride;
}

/** Voicemail handling of an agent. The seed names the field; its inner fields are kept as sent. */
export type VoicemailConfig = Record<string, unknown>;

/** Silence hang-up during the IVR part of a call. The seed names the field; its inner fields are kept as sent. */
export type IvrSilenceHangupConfiguration = Record<string, unknown>;

/** `agentOverrides` of a dial ("Alpha" in the seed): agent fields for this dial only. */
export interface AgentOverrides {
  defaultVoiceId?: string;
  defaultVersionedPrompt?: CreateVersionedPromptInput;
  inboundWebhookResponse?: boolean;
  inboundWebhookUrl?: string;
  maxDurationSeconds?: number;
  openingLine?: OpeningLine;
  voiceVolumeLevel?: number;
  backgroundNoiseType?: 'noise' | 'office' | 'silence';
  /** @deprecated use `linkedFunctionDefinitionInputs` */
  linkedFunctionDefinitionIds?: string[];
  linkedFunctionDefinitionInputs?: LinkedFunctionDefinitionInput[];
  metadata?: Record<string, unknown>;
  transcriberParams?: TranscriberParams;
  idleMessageConfig?: IdleMessageConfig;
  utteranceDetectorConfig?: UtteranceDetectorConfig;
  endpointDetectorConfig?: EndpointDetectorConfig;
  ivrConfiguration?: IvrConfiguration;
  language?: string;
  fillEmptyStringVariables?: boolean;
  silenceHangupConfiguration?: SilenceHangupConfiguration;
  voicemailConfig?: VoicemailConfig | null;
  ivrSilenceHangupConfiguration?: IvrSilenceHangupConfiguration | null;
  /** What the agent says when the call reaches its time cap. */
  timeoutMessage?: string | null;
}

/** `POST /dials` body, every field the seed shows. A browser dial sets `browserCall`; a phone dial `toNumber` and `fromNumberId` (or `fromNumberPoolId`). */
export interface CreateDialRequest {
  callAgentId: string;
  webhookUrl?: string | null;
  browserCall?: boolean | null;
  /** E.164, required for a phone dial. */
  toNumber?: string | null;
  fromNumberId?: string | null;
  fromNumberPoolId?: string | null;
  aiVoiceId?: string | null;
  voiceOptionValues?: ModelOptionValue[];
  /** -300 (quiet) to 300 (loud). */
  voiceVolumeLevel?: number;
  versionedModelId?: string;
  ivrVersionedPromptId?: string;
  overrideTranscriberFinalDurationMs?: number;
  timeoutMinutes?: number;
  callAgentExtractorId?: string;
  /** Values for the macros in the agent's prompt. */
  callAgentInput?: Record<string, unknown>;
  agentOverrides?: AgentOverrides;
  keywords?: string[] | null;
  advancedBrowserInteraction?: boolean;
}

export interface DialTranscriptLine {
  text: string;
  speaker: 'AI' | 'HUMAN';
  detailType?: string | null;
  functionCallId?: string;
  startTimeMs?: number;
  endTimeMs?: number;
  functionCalls?: { name: string; args: string; functionCallId?: string }[];
  nodeTransition?: { toNodeId: string; transitionData: Record<string, unknown> };
}

/** `GET /dials/{id}`. */
export interface Dial {
  id: string;
  toNumber?: string | null;
  fromNumberId?: string | null;
  agent?: Agent;
  recordings?: { url: string }[];
  transcript?: DialTranscriptLine[];
  durationSeconds?: number | null;
  aiDurationSeconds?: number | null;
  aiResult?: Record<string, unknown> | null;
  inputs?: Record<string, unknown>;
  /** A free string in the seed; these are the values it documents. */
  status: DialStatus | (string & {});
  systemResultType?: SystemResultType | null;
  dialTaskId?: string | null;
  voiceId?: string;
  versionedPromptId?: string;
  startedAt?: string | null;
  endedAt?: string | null;
  createdAt?: string;
  updatedAt?: string;
  [field: string]: unknown;
}

// ── agents ──

export interface Agent {
  id: string;
  name: string;
  language: string;
  transcriberParams?: TranscriberParams;
  metadata?: Record<string, unknown>;
  utteranceDetectorConfig?: UtteranceDetectorConfig;
  endpointDetectorConfig?: EndpointDetectorConfig;
  ivrConfiguration?: IvrConfiguration;
  idleMessageConfig?: IdleMessageConfig;
  /** Default 10800. */
  maxDurationSeconds?: number;
  defaultVoiceId?: string;
  defaultVersionedPromptId?: string;
  defaultExtractorId?: string | null;
  linkedFunctionDefinitions?: LinkedFunctionDefinition[];
  fillEmptyStringVariables?: boolean;
  silenceHangupConfiguration?: SilenceHangupConfiguration;
  voiceOptionValues?: ModelOptionValue[];
  timeoutMessage?: string | null;
  voicemailConfig?: VoicemailConfig | null;
  ivrSilenceHangupConfiguration?: IvrSilenceHangupConfiguration | null;
  timeoutBehaviorConfiguration?: { behavior: 'HANGUP' | (string & {}); transferNumber?: string | null };
  [field: string]: unknown;
}

export interface CreateAgentInput extends Omit<AgentOverrides, 'defaultVoiceId' | 'defaultVersionedPrompt'> {
  name: string;
  defaultVoiceId: string;
  defaultVersionedPrompt: CreateVersionedPromptInput;
  defaultExtractor?: CreateExtractorInput;
}

export interface UpdateAgentInput extends Omit<AgentOverrides, 'defaultVersionedPrompt'> {
  name?: string;
  /** Replaces the create input's `defaultVersionedPrompt`. */
  defaultVersionedPromptId?: string;
  /** An extractor of this agent; the empty string disables the extractor. */
  callAgentExtractorId?: string;
}

// ── versioned prompts ──

export type ConditionType = 'always' | 'equal' | 'in' | 'greater' | 'less' | 'language';

/** A transition rule as sent: `conditionType` and `arrayConditionType` may be left out. */
export interface FlowTransitionRuleInput {
  conditionType?: ConditionType;
  transitionNodeId: string;
  arrayConditionType?: 'any' | 'all' | null;
  field?: string;
  value?: unknown;
  values?: unknown[];
  [field: string]: unknown;
}

/** A transition rule as answered: `conditionType` and `arrayConditionType` are always there. */
export interface FlowTransitionRule extends FlowTransitionRuleInput {
  conditionType: ConditionType;
  arrayConditionType: 'any' | 'all' | null;
}

export interface FlowNodeInput {
  id: string;
  name: string;
  type: string;
  transitionRules: FlowTransitionRuleInput[];
  nodeData?: Record<string, unknown>;
  outputSchema?: unknown;
  [field: string]: unknown;
}

export interface FlowNode extends FlowNodeInput {
  transitionRules: FlowTransitionRule[];
  /** Present in every answer (null when none). */
  outputSchema: unknown;
}

export type OpeningLineType = 'INBOUND_ONLY' | 'INBOUND_OUTBOUND' | 'NONE';

/** The graph of a `CUSTOM_FLOW` prompt, as sent. */
export interface FlowDefinitionInput {
  nodes: FlowNodeInput[];
  globalContext?: unknown;
  /** @deprecated */
  aiOpen?: boolean;
  openingLineType?: OpeningLineType;
  [field: string]: unknown;
}

/** The graph of a `CUSTOM_FLOW` prompt, as answered. */
export interface FlowDefinition extends FlowDefinitionInput {
  nodes: FlowNode[];
  openingLineType: OpeningLineType;
}

export type AgentType = 'STANDARD' | 'CUSTOM_FLOW';

export interface CreateVersionedPromptInput {
  aiModelId: string;
  agentType: AgentType;
  name: string;
  prompt?: string | null;
  /** Required for `CUSTOM_FLOW`. */
  flowDefinition?: FlowDefinitionInput | null;
  modelOptionValues?: ModelOptionValue[];
}

export type UpdateVersionedPromptInput = Partial<CreateVersionedPromptInput>;

export interface VersionedPrompt {
  id: string;
  name: string;
  agentType: AgentType;
  prompt: string | null;
  flowDefinition?: FlowDefinition | null;
  aiModelId?: string;
  modelOptionValues?: ModelOptionValue[];
  [field: string]: unknown;
}

// ── extractors ──

export interface CreateExtractorInput {
  name: string;
  /** A JSON schema as text (`JSON.stringify(schema)`). */
  extractorFieldsJsonSchema: string;
}

export type UpdateExtractorInput = Partial<CreateExtractorInput>;

export interface Extractor extends CreateExtractorInput {
  id: string;
}

/** `GET /agents/{id}/extractors`: the one listing without a cursor. */
export interface ExtractorList {
  extractors: Extractor[];
}

// ── models and voices ──

export interface AIModel {
  id: string;
  name: string;
  modelOptions: { id: string; name: string; valueType: 'STRING' | 'INT' | 'FLOAT'; default: string }[];
  [field: string]: unknown;
}

export interface AIVoice {
  id: string;
  name: string;
  voiceType: string;
  voiceTier: 'STANDARD' | 'PREMIUM';
  description: string;
  [field: string]: unknown;
}

export interface ListVoicesOptions extends ListOptions {
  /** Voices whose name contains this. */
  name?: string;
  voiceType?: string;
}

/** `GET /voices`: the envelope names its list `voices`. */
export interface VoicePage {
  voices: AIVoice[];
  cursor: string | null;
}

// ── phone numbers and pools ──

export interface PhoneNumber {
  id: string;
  /** E.164, or the SIP username when `type` is `SIP_USERNAME`. */
  number: string;
  type: 'PSTN' | 'SIP_USERNAME';
  agentId: string | null;
  [field: string]: unknown;
}

export type CreatePhoneNumberInput =
  | { type: 'purchase'; purchase: { number: string } }
  | {
      type: 'sip_import';
      sipImport: { phoneNumber: string; terminationUri: string; username: string; password: string };
    }
  | { type: 'vogent_sip'; vogentSip: { sipPrefix: string; username: string; password: string } };

export interface UpdatePhoneNumberInput {
  /** The agent that answers this number; the empty string unlinks it. */
  agentId: string;
}

export interface PhoneNumberSearchInput {
  /** Without the country code. */
  prefix: string;
  /** Two letters; default `US`. */
  country?: string;
  /** Default 5, at most 10. */
  limit?: number;
}

export interface PhoneNumberCandidate {
  number: string;
}

/** Not shown by the seed: the emulator's shape. `GET /phone_number_pools` answers a bare array. */
export interface PhoneNumberPool {
  id: string;
  name: string;
  phoneNumberIds: string[];
  createdAt?: string;
  [field: string]: unknown;
}

export interface CreatePhoneNumberPoolInput {
  name: string;
  phoneNumberIds?: string[];
}

export type UpdatePhoneNumberPoolInput = Partial<CreatePhoneNumberPoolInput>;

// ── dial tasks (`/tasks`; the bodies follow the service's GraphQL twins) ──

export interface CreateDialTaskInput {
  callAgentId: string;
  inputData: Record<string, unknown>;
  /** Keys of `inputData` that identify the task. */
  keyInputs: string[];
}

export interface DialTask {
  id: string;
  createdAt: string;
  inputData: Record<string, unknown>;
  keyInputs: string[];
  results?: Record<string, unknown> | null;
  status: 'PENDING' | 'RUNNING' | 'COMPLETED';
  completedDialId?: string | null;
  [field: string]: unknown;
}

export interface CreateTaskAttemptInput {
  fromPhoneNumberId: string;
  toNumber: string;
  webhookUrl?: string;
}

export interface TaskAttemptOutput {
  dialId: string;
  dialToken: string;
  sessionId: string;
  telephonyProvider?: string;
  [field: string]: unknown;
}

export interface MarkTaskCompleteInput {
  dialId: string;
}

// ── functions ──

export interface CreateFunctionInput {
  name: string;
  description: string;
  type: 'transfer' | 'api';
  displayName?: string;
  /** Required (non-empty) for `transfer`. */
  allowedNumbers?: { number: string }[];
  lifecycleMessages?: { started: string[] };
  /** The API variant's fields are not shown by the seed; they pass through. */
  [field: string]: unknown;
}

export type UpdateFunctionInput = Partial<CreateFunctionInput>;

export interface FunctionDefinition {
  id: string;
  name: string;
  displayName?: string;
  description: string;
  type: 'transfer' | 'api';
  allowedNumbers?: { number: string }[];
  lifecycleMessages?: { started: string[] };
  [field: string]: unknown;
}

export interface ListFunctionsOptions extends ListOptions {
  /** Only the functions whose display name is exactly this. */
  displayName?: string;
}

// ── batch dial jobs ──

export type BatchDialJobStatus = 'INIT' | 'ACTIVE' | 'PAUSED' | 'COMPLETE' | 'CANCELLED';

export interface BatchSchedule {
  days: { dayOfWeek: number; timeSlots: { startTime: string; endTime: string }[] }[];
  timezone: string;
  disableSchedule?: boolean;
}

export interface CreateBatchDialJobInput {
  callAgentId: string;
  maxConcurrentDials: number;
  name: string;
  rows: { toNumber: string; inputs?: Record<string, string> }[];
  fromPhoneNumberIds?: string[];
  schedule?: BatchSchedule;
}

export interface UpdateBatchDialJobInput {
  maxConcurrentDials?: number;
  fromPhoneNumberIds?: string[];
  schedule?: BatchSchedule | null;
}

export interface BatchDialJob {
  id: string;
  name: string;
  maxConcurrentDials: number;
  status: BatchDialJobStatus;
  callAgentId: string;
  createdAt: string;
  fromPhoneNumberIds?: string[];
  schedule?: BatchSchedule | null;
  [field: string]: unknown;
}

export interface ListBatchDialJobsOptions extends ListOptions {
  status?: BatchDialJobStatus;
  callAgentId?: string;
  userId?: string;
}

/** A row still waiting in a job's queue. */
export interface BatchDialSpec {
  id: string;
  toNumber: string;
  batchDialJobId: string;
  createdAt: string;
  inputs: Record<string, string>;
}

// ── evaluations ──

export interface CreateEvalConfigInput {
  name: string;
  promptSnippet?: string;
}

export interface EvalConfig {
  id: string;
  name: string;
  promptSnippet?: string | null;
  [field: string]: unknown;
}

export interface CreateEvalRecordInput {
  recordType: 'DIAL' | 'PROMPT';
  /** Required for `DIAL`. */
  dialId?: string;
  name?: string;
  description?: string;
  systemPrompt?: string;
  maxTurns?: number;
  agentInputs?: Record<string, unknown>;
}

export interface EvalRecord extends Omit<
  CreateEvalRecordInput,
  'dialId' | 'name' | 'description' | 'systemPrompt' | 'maxTurns' | 'agentInputs'
> {
  id: string;
  dialId?: string | null;
  name?: string | null;
  description?: string | null;
  systemPrompt?: string | null;
  maxTurns?: number | null;
  agentInputs?: Record<string, unknown> | null;
  [field: string]: unknown;
}

export interface ListEvalRecordsOptions extends ListOptions {
  search?: string;
}

export interface RunEvalInput {
  callAgentId: string;
  versionedPromptId?: string;
}

/** One judgement of an evaluation result (the seed's rerun item). */
export interface EvalResultItem {
  index: number;
  accurate: boolean;
  modelOutput: string;
  reason: string;
}

/** A record's result in a run. Not shown by the seed beyond its items: the emulator's shape. */
export interface EvalResult {
  id: string;
  evalRunId: string;
  evalRecordId: string;
  passed: boolean;
  numAlerts: number;
  results: EvalResultItem[];
  [field: string]: unknown;
}

export interface EvalRun {
  id: string;
  status: 'PENDING' | 'COMPLETED' | 'CANCELLED' | (string & {});
  callAgentId: string;
  versionedPromptId?: string | null;
  createdAt: string;
  aggregateResult?: { numFailing: number; numPassing: number } | null;
  /** The emulator's extension: one result per record once the run completed. */
  results?: EvalResult[];
  [field: string]: unknown;
}

/** `POST /eval_results/{id}/rerun`: the result re-judged (it keeps its id). */
export interface RerunEvalResultOutput {
  numAlerts: number;
  results: EvalResultItem[];
}

// ── voicelab ──

export interface CloneVoiceInput {
  name: string;
  /** The voice sample (sent as a multipart file). */
  clip: Blob;
  model: 'CARTESIA' | 'CSM';
  transcription?: string;
}

export interface TtsFormat {
  outputType: 'RAW_PCM16' | 'WAV_PCM16' | 'MP3';
  sampleRate: 8000 | 16000 | 22050 | 24000 | 41500 | 48000;
}

/** `POST /tts`; the default format is WAV_PCM16 at 24 kHz. */
export interface TtsInput {
  text: string;
  voiceId: string;
  voiceOptionValues?: ModelOptionValue[];
  format?: TtsFormat;
}

export interface MultispeakerTtsInput {
  lines: { text: string; voiceId: string }[];
  voiceOptionValues?: ModelOptionValue[];
  format?: TtsFormat;
}
