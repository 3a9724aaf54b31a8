// The emulator's in-memory workspace: every resource of the seed's Endpoints section, keyed by
// id in insertion order (which is also the listing order). Route modules share one instance.
import { randomUUID } from 'node:crypto';
import { SCENARIO_AGENT_IDS, findAgent } from '../agents.js';
import type { DialStore } from '../dial-store.js';
import { notFound } from '../errors.js';
import type {
  AgentRecord,
  AIModelRecord,
  AIVoiceRecord,
  BatchDialJobRecord,
  BatchDialSpecRecord,
  EvalConfigRecord,
  EvalRecordRecord,
  EvalResultRecord,
  EvalRunRecord,
  ExtractorRecord,
  FunctionRecord,
  PhoneNumberPoolRecord,
  PhoneNumberRecord,
  VersionedPromptRecord,
  DialTaskRecord,
} from '../records.js';
import { QUICK_EXTRACTOR, SEED_FUNCTIONS, SEED_MODELS, SEED_VOICES, scenarioPrompt } from './seed.js';

export interface BatchJobState {
  job: BatchDialJobRecord;
  /** Rows not yet dialled, in order. */
  queue: BatchDialSpecRecord[];
  /** Dials placed and still running. */
  running: Set<string>;
  /** Dials placed that ended, in the order they ended. */
  done: string[];
}

export interface EvalRunState {
  run: EvalRunRecord;
  /** When a pending run completes (read lazily: no timer to clean up). */
  completesAt: number;
}

export class Workspace {
  readonly agents = new Map<string, AgentRecord>();
  /** agent id → prompt id → prompt */
  readonly prompts = new Map<string, Map<string, VersionedPromptRecord>>();
  /** agent id → extractor id → extractor */
  readonly extractors = new Map<string, Map<string, ExtractorRecord>>();
  readonly models = new Map<string, AIModelRecord>(SEED_MODELS.map((model) => [model.id, structuredClone(model)]));
  readonly voices = new Map<string, AIVoiceRecord>(SEED_VOICES.map((voice) => [voice.id, structuredClone(voice)]));
  readonly functions = new Map<string, FunctionRecord>(SEED_FUNCTIONS.map((fn) => [fn.id, structuredClone(fn)]));
  readonly phoneNumbers = new Map<string, PhoneNumberRecord>();
  readonly pools = new Map<string, PhoneNumberPoolRecord>();
  readonly dialTasks = new Map<string, DialTaskRecord>();
  readonly batchJobs = new Map<string, BatchJobState>();
  readonly evalConfigs = new Map<string, EvalConfigRecord>();
  readonly evalRecords = new Map<string, EvalRecordRecord>();
  readonly evalRuns = new Map<string, EvalRunState>();
  readonly evalResults = new Map<string, EvalResultRecord>();
  readonly dials: DialStore;
  /** How long an evaluation run stays PENDING. */
  readonly evalRunMs: number;
  /** Signs the service's dial token for a dial (it authorises GraphQL for the dial; not a media token). */
  readonly issueDialToken: (dialId: string) => Promise<string>;

  constructor(
    dials: DialStore,
    issueDialToken: (dialId: string) => Promise<string>,
    options: { evalRunMs?: number } = {},
  ) {
    this.dials = dials;
    this.issueDialToken = issueDialToken;
    this.evalRunMs = options.evalRunMs ?? 200;
    for (const id of SCENARIO_AGENT_IDS) {
      this.agents.set(id, findAgent(id)!);
      const prompt = scenarioPrompt(id);
      this.prompts.set(id, new Map([[prompt.id, prompt]]));
      this.extractors.set(
        id,
        new Map(id === 'emu-quick' ? [[QUICK_EXTRACTOR.id, structuredClone(QUICK_EXTRACTOR)]] : []),
      );
    }
  }

  newId(): string {
    return randomUUID();
  }

  agent(id: string): AgentRecord {
    return found(this.agents.get(id), 'agent');
  }

  /** A fresh copy of the agent's record, for a dial to keep (undefined when unknown). */
  agentForDial(id: string): AgentRecord | undefined {
    const agent = this.agents.get(id);
    return agent && structuredClone(agent);
  }
}

/** The value, or a 404 naming what was not found. */
export function found<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw notFound(`no such ${what}`);
  return value;
}
