// `/agents`: the agent record, its create and update inputs, and the agent settings a dial can
// override (`agentOverrides`).
import type { CreateExtractorInput } from './extractors.js';
import type { ModelOptionValue } from './models.js';
import type { CreateVersionedPromptInput } from './versioned-prompts.js';

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
