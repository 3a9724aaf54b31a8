// One dial as the store holds it (`DialState`), the statuses it ends in, and what is made of it:
// the media half's view (`sessionOf`) and the REST record (`recordOf`). The state machine that
// writes it is dial-lifecycle.ts.
import type { DialSession, DialStatus, TranscriptLine, SystemResultType } from '../seam.js';
import { EMU_DEMO, SCENARIO_AGENT_IDS } from './agents.js';
import type { DialInput } from './dial-input.js';
import type { AgentRecord, DialRecord } from './records.js';

/** What happens to one dial, as `watch` reports it. Read the dial's state with `record`. */
export type DialUpdate =
  | { kind: 'status' }
  | { kind: 'joined' }
  | { kind: 'session-started' }
  | { kind: 'transcript'; eventType: 'LIVE' | 'FINAL'; line: TranscriptLine };

export type DialWatcher = (update: DialUpdate) => void;

/** A dial as the store holds it: what `record` answers is made from this. */
export interface DialState {
  id: string;
  scenario: string;
  phone: boolean;
  sessionId: string;
  roomName: string;
  input: DialInput;
  status: DialStatus;
  systemResultType: SystemResultType | null;
  createdAt: number;
  updatedAt: number;
  startedAt: number | null;
  endedAt: number | null;
  transcript: TranscriptLine[];
  aiResult: Record<string, unknown> | null;
  maxDurationSeconds: number;
  timer: NodeJS.Timeout | null;
  /** The browser's participant is (or was) in the dial's room. */
  browserJoined: boolean;
  /** `startDialSession` arrived: the agent may speak. */
  sessionStarted: boolean;
  /** `pauseAI`'s last value: the agent in the room is silent while it is true. */
  aiPaused: boolean;
  /** When `hangupCall` with a `transferNumber` handed the call to a person (the agent's part ended), else null. */
  transferredAt: number | null;
  /** The number it was transferred to. */
  transferNumber: string | null;
}

const TERMINAL: ReadonlySet<DialStatus> = new Set(['completed', 'failed', 'canceled', 'busy', 'no-answer']);

export const isTerminal = (status: DialStatus): boolean => TERMINAL.has(status);

/** The scenario that decides how a dial with this agent behaves. */
export function scenarioOf(agent: AgentRecord): string {
  const ids: readonly string[] = SCENARIO_AGENT_IDS;
  if (ids.includes(agent.id)) return agent.id;
  const named = agent.metadata.scenario;
  return typeof named === 'string' && ids.includes(named) ? named : EMU_DEMO;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** What the media half sees of a dial. */
export function sessionOf(dial: DialState): DialSession {
  return {
    dialId: dial.id,
    roomName: dial.roomName,
    scenario: dial.scenario,
    status: dial.status,
    maxDurationSeconds: dial.maxDurationSeconds,
    aiPaused: dial.aiPaused,
    transferred: dial.transferredAt !== null,
  };
}

/** The dial as `GET /dials/{id}` answers it. */
export function recordOf(dial: DialState): DialRecord {
  const ended = dial.endedAt !== null;
  const durationMs = dial.startedAt !== null && dial.endedAt !== null ? dial.endedAt - dial.startedAt : 0;
  // A transferred call's AI part is the call up to the transfer; otherwise the agent's speech.
  const aiMs =
    dial.transferredAt !== null && dial.startedAt !== null
      ? dial.transferredAt - dial.startedAt
      : dial.transcript
          .filter((line) => line.speaker === 'AI')
          .reduce((sum, line) => sum + Math.max(0, line.endTimeMs - line.startTimeMs), 0);
  const { agent } = dial.input;
  return {
    id: dial.id,
    toNumber: dial.input.toNumber,
    fromNumberId: dial.input.fromNumberId,
    agent: structuredClone(agent),
    recordings: [],
    transcript: dial.transcript.map((line) => ({
      text: line.text,
      speaker: line.speaker,
      detailType: line.detailType ?? null,
      startTimeMs: line.startTimeMs,
      endTimeMs: line.endTimeMs,
    })),
    durationSeconds: ended ? Math.round(durationMs / 1000) : null,
    aiDurationSeconds: ended ? Math.round(aiMs / 1000) : null,
    aiResult: dial.aiResult && structuredClone(dial.aiResult),
    inputs: structuredClone(dial.input.callAgentInput),
    status: dial.status,
    systemResultType: dial.systemResultType,
    dialTaskId: dial.input.dialTaskId,
    voiceId: dial.input.aiVoiceId ?? agent.defaultVoiceId,
    versionedPromptId: dial.input.versionedModelId ?? agent.defaultVersionedPromptId,
    startedAt: iso(dial.startedAt),
    endedAt: iso(dial.endedAt),
    createdAt: new Date(dial.createdAt).toISOString(),
    updatedAt: new Date(dial.updatedAt).toISOString(),
  };
}
