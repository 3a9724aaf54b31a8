// `/eval_configs`, `/eval_runs`, `/eval_results`: evaluations of dials and prompts.
import type { ListOptions } from './pagination.js';

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
