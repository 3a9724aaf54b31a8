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
  ivrConfiguration: { detectionType: 'NONE' | 'STANDARD'; versionedPromptId: string | null; aiVoiceId: string | null; taggingText: string | null };
  idleMessageConfig: { enabled: boolean; messages: string[]; idleDurationMilliseconds: number; maxIdleMessages: number };
  maxDurationSeconds: number;
  defaultVoiceId: string;
  defaultVersionedPromptId: string;
  defaultExtractorId: string | null;
  linkedFunctionDefinitions: { functionDefinitionId: string; lifecycleMessagesOverride: { started: string[] } }[];
  fillEmptyStringVariables: boolean;
  silenceHangupConfiguration: { type: 'DISABLED' | 'FIRST_MESSAGE_ONLY' | 'WHOLE_CALL'; silenceDurationSeconds: number };
  voiceOptionValues: { optionId: string; value: string }[];
  timeoutMessage: string | null;
  timeoutBehaviorConfiguration: { behavior: 'HANGUP'; transferNumber: string | null };
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

/** `POST /dials/{id}/token` answer; `url` is the emulator's extension (the media server URL). */
export interface DialTokenOutput {
  dialToken: string;
  url: string;
}

/** The seed's `{ data, cursor }` pagination envelope. */
export interface Page<T> {
  data: T[];
  cursor: string | null;
}
