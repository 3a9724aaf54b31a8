// The emulator's one in-memory store: every resource of the seed's Endpoints section, dials
// included, each a `Table` of its records by id (insertion order is the listing order). The
// route modules, the dial lifecycle, the GraphQL endpoint and the media half share one instance.
import { randomUUID } from 'node:crypto';
import { signDialToken, type DialTokenKeys } from '../dial-token.js';
import { SCENARIO_AGENT_IDS, scenarioAgent } from './agents.js';
import { notFound } from './errors.js';
import { DialLifecycle, type DialLifecycleOptions, type DialState } from './dial-lifecycle.js';
import { IdempotencyCache, type IdempotencyMode } from './idempotency.js';
import type * as records from './records.js';
import { QUICK_EXTRACTOR, SEED_FUNCTIONS, SEED_MODELS, SEED_VOICES, scenarioPrompt } from './resources/seed.js';
import { Table } from './table.js';

export interface BatchJobState {
  job: records.BatchDialJobRecord;
  /** Rows not yet dialled, in order. */
  queue: records.BatchDialSpecRecord[];
  /** Dials placed and still running. */
  running: Set<string>;
  /** Dials placed that ended, in the order they ended. */
  done: string[];
}

export interface EvalRunState {
  run: records.EvalRunRecord;
  /** When a pending run completes (read lazily: no timer to clean up). */
  completesAt: number;
}

export interface StoreOptions extends DialLifecycleOptions {
  /** Signs the service's dial tokens (they authorise GraphQL for a dial; not media tokens). */
  dialTokens: DialTokenKeys;
  /** How long an evaluation run stays PENDING. Default 200. */
  evalRunMs?: number;
  /** What a reused idempotency key gets: the first answer (`replay`, default) or always a 409 (`strict`). */
  idempotency?: IdempotencyMode;
}

/** Rows keyed by their own id. */
const byId = <Row extends { id: string }>(rows: readonly Row[]): [string, Row][] =>
  rows.map((row) => [row.id, structuredClone(row)]);

export class Store {
  readonly agents = new Table<records.AgentRecord>('agent');
  /** agent id → that agent's prompts (a 404 `no such agent` for an unknown agent) */
  readonly prompts = new Table<Table<records.VersionedPromptRecord>>('agent');
  /** agent id → that agent's extractors */
  readonly extractors = new Table<Table<records.ExtractorRecord>>('agent');
  readonly models = new Table('model', byId(SEED_MODELS));
  readonly voices = new Table('voice', byId(SEED_VOICES));
  readonly functions = new Table('function', byId(SEED_FUNCTIONS));
  readonly phoneNumbers = new Table<records.PhoneNumberRecord>('phone number');
  readonly pools = new Table<records.PhoneNumberPoolRecord>('phone number pool');
  readonly dialTasks = new Table<records.DialTaskRecord>('dial task');
  readonly batchJobs = new Table<BatchJobState>('batch dial job');
  readonly evalConfigs = new Table<records.EvalConfigRecord>('eval config');
  readonly evalRecords = new Table<records.EvalRecordRecord>('eval record');
  readonly evalRuns = new Table<EvalRunState>('eval run');
  readonly evalResults = new Table<records.EvalResultRecord>('eval result');
  /** Every dial's state; only `dials` (its lifecycle) writes it. */
  readonly dialStates = new Table<DialState>('dial');
  readonly dials: DialLifecycle;
  /** Which idempotency key created which dial. */
  readonly idempotency: IdempotencyCache<records.CreateDialOutput>;
  /** How long an evaluation run stays PENDING. */
  readonly evalRunMs: number;
  readonly #options: StoreOptions;

  constructor(options: StoreOptions) {
    this.#options = options;
    this.idempotency = new IdempotencyCache(options.idempotency ?? 'replay');
    this.dials = new DialLifecycle(this.dialStates, {
      ...options,
      onForgotten: (dialId) => this.idempotency.forget(dialId),
    });
    this.evalRunMs = options.evalRunMs ?? 200;
    for (const id of SCENARIO_AGENT_IDS) {
      this.agents.set(id, scenarioAgent(id));
      const prompt = scenarioPrompt(id);
      this.prompts.set(id, new Table('versioned prompt', [[prompt.id, prompt]]));
      const extractors = id === 'emu-quick' ? [QUICK_EXTRACTOR] : [];
      this.extractors.set(id, new Table('extractor', byId(extractors)));
    }
  }

  newId(): string {
    return randomUUID();
  }

  /** A fresh copy of the agent's record, for a dial to keep (undefined when unknown). */
  agentForDial(id: string): records.AgentRecord | undefined {
    const agent = this.agents.get(id);
    return agent && structuredClone(agent);
  }

  /** The service's dial token for the dial and its session, valid for the join window plus the whole time cap. */
  issueDialToken(dialId: string): Promise<string> {
    const dial = this.dialStates.get(dialId);
    if (!dial) return Promise.reject(notFound('no such dial'));
    return signDialToken(
      this.#options.dialTokens,
      { dialId, sessionId: dial.sessionId },
      tokenTtlSeconds(this.#options.joinWindowMs, dial.maxDurationSeconds),
    );
  }
}

/** How long a dial's tokens (dial and media) stay valid: the join window, the time cap and a minute. */
export function tokenTtlSeconds(joinWindowMs: number, maxDurationSeconds: number): number {
  return Math.ceil(joinWindowMs / 1000) + maxDurationSeconds + 60;
}
