// `/dials`: a dial's create input, its record and the answers of the dial calls. The
// `Service…` and `CreateDialInput` types are the narrower view the companion uses: what it sends,
// and the part of the record it reads (checked field by field, never trusted whole).
import type { Agent, AgentOverrides } from './agents.js';
import type { ModelOptionValue } from './models.js';

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

/** The browser dial the companion sends: a `CreateDialRequest` with only the fields it sets. */
export interface CreateDialInput {
  callAgentId: string;
  browserCall: boolean;
  callAgentInput?: Record<string, string>;
  timeoutMinutes?: number;
}

/** `POST /dials`'s answer. */
export interface CreateDialOutput {
  dialToken: string;
  sessionId: string;
  dialId: string;
}

/** `POST /dials/{id}/token`: a fresh dial token; it authorises the GraphQL API for this dial only. */
export interface DialTokenOutput {
  dialToken: string;
}

/** `browserDialToken`'s answer (`BrowserDialTokenRes`): the media credentials. */
export interface BrowserDialTokenOutput {
  /** For `telephonyProvider: "livekit"`, a LiveKit access token. */
  token: string;
  /** `livekit`, or another provider (e.g. `vonage`) whose SDK this project does not use. */
  telephonyProvider: string;
  /** The media server URL, when the service sends one. */
  url: string | null;
  /** A string in the schema; its format is not documented. */
  iceConfig: string | null;
}

/** A transcript line as the companion reads it (`DialTranscriptLine`, unchecked fields left loose). */
export interface ServiceTranscriptLine {
  text: string;
  speaker: string;
  startTimeMs?: number;
  endTimeMs?: number;
}

/** The part of the service's Dial record the companion reads; the rest is left untyped on purpose. */
export interface ServiceDial {
  id: string;
  status: string;
  systemResultType?: string | null;
  transcript?: ServiceTranscriptLine[] | null;
  durationSeconds?: number | null;
  aiDurationSeconds?: number | null;
  aiResult?: unknown;
  startedAt?: string | null;
  endedAt?: string | null;
  [field: string]: unknown;
}
