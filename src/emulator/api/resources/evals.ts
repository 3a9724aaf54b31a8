// Evaluations: configs, their records (a dial or a prompt to test), runs over every record, and
// results. A run is PENDING for `evalRunMs`, then COMPLETED with one result per record (it is
// settled when read, so no timer outlives the emulator). Each result holds the seed's judgement
// items `{index, accurate, modelOutput, reason}`: item 0 checks for a "[fail]" marker in the
// record's name, description or system prompt; a DIAL record has item 1, the dial's outcome
// (inaccurate when it ended failed, busy or no-answer, or is gone). `numAlerts` counts the
// inaccurate items. A rerun re-judges a result in place, under the same id.
// `GET /eval_runs/{id}` is the emulator's own (the seed shows no path to read one run).
import type { RerunEvalResultOutput } from '../../../api/types/index.js';
import { notFound, unprocessable } from '../errors.js';
import { page } from '../pagination.js';
import type {
  EvalConfigRecord,
  EvalRecordRecord,
  EvalResultItem,
  EvalResultRecord,
  EvalRunRecord,
} from '../records.js';
import type { EvalRunState, Store } from '../store.js';
import { checkBody, requireNonEmpty, type Schema } from '../validate.js';
import { nowIso, type ResourceRequest, type ResourceRoute } from './route.js';

const configSchema = {
  name: { type: 'string', required: true },
  promptSnippet: { type: 'string', nullable: true },
} as const satisfies Schema;

const recordSchema = {
  recordType: { type: 'string', required: true, oneOf: ['DIAL', 'PROMPT'] },
  dialId: { type: 'string', nullable: true },
  name: { type: 'string', nullable: true },
  description: { type: 'string', nullable: true },
  systemPrompt: { type: 'string', nullable: true },
  maxTurns: { type: 'integer', nullable: true },
  agentInputs: { type: 'object', nullable: true },
} as const satisfies Schema;

const runSchema = {
  callAgentId: { type: 'string', required: true },
  versionedPromptId: { type: 'string', nullable: true },
} as const satisfies Schema;

export function evalRoutes(store: Store): ResourceRoute[] {
  /** The path's config (a 404 for an unknown one). */
  const configOf = (request: ResourceRequest) => store.evalConfigs.require(request.param(0));

  function judge(record: EvalRecordRecord): EvalResultItem[] {
    const text = [record.name, record.description, record.systemPrompt].filter((part) => part !== null).join(' ');
    const marked = text.includes('[fail]');
    const items: EvalResultItem[] = [
      {
        index: 0,
        accurate: !marked,
        modelOutput: marked ? 'FAIL' : 'PASS',
        reason: marked ? 'the record asks the emulator to fail it ([fail])' : 'the record has no [fail] marker',
      },
    ];
    if (record.dialId !== null) {
      const dial = store.dials.record(record.dialId);
      const bad = !dial || dial.status === 'failed' || dial.status === 'busy' || dial.status === 'no-answer';
      items.push({
        index: 1,
        accurate: !bad,
        modelOutput: bad ? 'FAIL' : 'PASS',
        reason: dial ? `the dial is ${dial.status}` : 'the dial no longer exists',
      });
    }
    return items;
  }

  /** Judges `record` into the result `id` (new, or the one being re-judged). */
  function resultFor(runId: string, record: EvalRecordRecord, id = store.newId()): EvalResultRecord {
    const results = judge(record);
    const numAlerts = results.filter((item) => !item.accurate).length;
    const result: EvalResultRecord = {
      id,
      evalRunId: runId,
      evalRecordId: record.id,
      passed: numAlerts === 0,
      numAlerts,
      results,
      createdAt: nowIso(),
    };
    store.evalResults.set(result.id, result);
    return result;
  }

  /** Completes a pending run whose time has come; answers a copy. */
  function settle(state: EvalRunState): EvalRunRecord {
    const { run } = state;
    if (run.status === 'PENDING' && Date.now() >= state.completesAt) {
      const records = [...store.evalRecords.values()].filter((record) => record.evalConfigId === run.evalConfigId);
      run.results = records.map((record) => resultFor(run.id, record));
      run.status = 'COMPLETED';
      aggregate(run);
    }
    return structuredClone(run);
  }

  function aggregate(run: EvalRunRecord): void {
    const numFailing = run.results.filter((result) => !result.passed).length;
    run.aggregateResult = { numFailing, numPassing: run.results.length - numFailing };
  }

  function createRecord(request: ResourceRequest): EvalRecordRecord {
    const { id: configId } = configOf(request);
    const input = checkBody(request.body, recordSchema);
    if (input.recordType === 'DIAL') {
      if (typeof input.dialId !== 'string') throw unprocessable('a DIAL record needs dialId');
      if (!store.dials.has(input.dialId)) throw unprocessable(`no dial with id ${JSON.stringify(input.dialId)}`);
    }
    if (typeof input.maxTurns === 'number' && input.maxTurns < 1) throw unprocessable('maxTurns must be at least 1');
    const record: EvalRecordRecord = {
      id: store.newId(),
      evalConfigId: configId,
      recordType: input.recordType,
      dialId: input.dialId ?? null,
      name: input.name ?? null,
      description: input.description ?? null,
      systemPrompt: input.systemPrompt ?? null,
      maxTurns: input.maxTurns ?? null,
      agentInputs: input.agentInputs ? structuredClone(input.agentInputs) : null,
      createdAt: nowIso(),
    };
    store.evalRecords.set(record.id, record);
    return structuredClone(record);
  }

  function runEval(request: ResourceRequest): EvalRunRecord {
    const { id: configId } = configOf(request);
    const input = checkBody(request.body, runSchema);
    const agentId = input.callAgentId;
    const prompts = store.prompts.get(agentId);
    if (!prompts) throw unprocessable(`no agent with id ${JSON.stringify(agentId)}`);
    const promptId = input.versionedPromptId ?? null;
    if (promptId !== null && !prompts.has(promptId))
      throw unprocessable(`agent ${agentId} has no versioned prompt ${JSON.stringify(promptId)}`);
    const run: EvalRunRecord = {
      id: store.newId(),
      evalConfigId: configId,
      status: 'PENDING',
      callAgentId: agentId,
      versionedPromptId: promptId,
      createdAt: nowIso(),
      aggregateResult: null,
      results: [],
    };
    const state = { run, completesAt: Date.now() + store.evalRunMs };
    store.evalRuns.set(run.id, state);
    return settle(state);
  }

  function rerun(resultId: string): RerunEvalResultOutput {
    const previous = store.evalResults.require(resultId);
    const record = store.evalRecords.get(previous.evalRecordId);
    if (!record) throw unprocessable("the result's eval record was deleted");
    const result = resultFor(previous.evalRunId, record, previous.id);
    const state = store.evalRuns.get(previous.evalRunId);
    if (state) {
      state.run.results = state.run.results.map((item) => (item.id === previous.id ? result : item));
      aggregate(state.run);
    }
    return { numAlerts: result.numAlerts, results: structuredClone(result.results) };
  }

  return [
    {
      pattern: /^\/eval_configs$/,
      methods: {
        POST: ({ body }) => {
          const input = checkBody(body, configSchema);
          requireNonEmpty(input.name, 'name');
          const created: EvalConfigRecord = {
            id: store.newId(),
            name: input.name,
            promptSnippet: input.promptSnippet ?? null,
          };
          return structuredClone(store.evalConfigs.set(created.id, created));
        },
      },
    },
    {
      pattern: /^\/eval_configs\/([^/]+)\/records$/,
      methods: {
        POST: createRecord,
        GET: (request) => {
          const { id: configId } = configOf(request);
          const search = request.query.get('search')?.toLowerCase();
          const records = store.evalRecords
            .values()
            .filter(
              (record) =>
                record.evalConfigId === configId &&
                (!search || [record.name, record.description].some((text) => text?.toLowerCase().includes(search))),
            );
          return page(records, request);
        },
      },
    },
    {
      pattern: /^\/eval_configs\/([^/]+)\/runs$/,
      methods: {
        POST: runEval,
        GET: (request) => {
          const { id: configId } = configOf(request);
          const runs = store.evalRuns
            .values()
            .filter((state) => state.run.evalConfigId === configId)
            .map(settle);
          return page(runs, request);
        },
      },
    },
    { pattern: /^\/eval_runs\/([^/]+)$/, methods: { GET: ({ param }) => settle(store.evalRuns.require(param(0))) } },
    {
      pattern: /^\/eval_runs\/([^/]+)\/cancel$/,
      methods: {
        POST: ({ param }) => {
          const state = store.evalRuns.require(param(0));
          const run = settle(state);
          if (run.status !== 'PENDING') throw unprocessable(`the run is already ${run.status}`);
          state.run.status = 'CANCELLED';
          return structuredClone(state.run);
        },
      },
    },
    { pattern: /^\/eval_results\/([^/]+)\/rerun$/, methods: { POST: ({ param }) => rerun(param(0)) } },
    {
      pattern: /^\/eval_configs\/([^/]+)\/records\/([^/]+)$/,
      methods: {
        // The seed answers the deleted record's id only.
        DELETE: (request) => {
          const { id: configId } = configOf(request);
          const recordId = request.param(1);
          if (store.evalRecords.get(recordId)?.evalConfigId !== configId) throw notFound('no such eval record');
          store.evalRecords.delete(recordId);
          return { id: recordId } satisfies { id: string };
        },
      },
    },
  ];
}
