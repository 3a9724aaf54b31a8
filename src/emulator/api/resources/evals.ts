// Evaluations: configs, their records (a dial or a prompt to test), runs over every record, and
// results. A run is PENDING for `evalRunMs`, then COMPLETED with one result per record (it is
// settled when read, so no timer outlives the emulator). Each result holds the seed's judgement
// items `{index, accurate, modelOutput, reason}`: item 0 checks for a "[fail]" marker in the
// record's name, description or system prompt; a DIAL record has item 1, the dial's outcome
// (inaccurate when it ended failed, busy or no-answer, or is gone). `numAlerts` counts the
// inaccurate items. A rerun re-judges a result in place, under the same id.
// `GET /eval_runs/{id}` is the emulator's own (the seed shows no path to read one run).
import { unprocessable } from '../errors.js';
import { page } from '../pagination.js';
import type {
  EvalConfigRecord,
  EvalRecordRecord,
  EvalResultItem,
  EvalResultRecord,
  EvalRunRecord,
} from '../records.js';
import { checkBody, requireNonEmpty, type FieldSpec } from '../validate.js';
import { nowIso, type ResourceRoute } from './route.js';
import { found, type EvalRunState, type Workspace } from './workspace.js';

const recordSpec: Record<string, FieldSpec> = {
  recordType: { type: 'string', required: true, oneOf: ['DIAL', 'PROMPT'] },
  dialId: { type: 'string', nullable: true },
  name: { type: 'string', nullable: true },
  description: { type: 'string', nullable: true },
  systemPrompt: { type: 'string', nullable: true },
  maxTurns: { type: 'integer', nullable: true },
  agentInputs: { type: 'object', nullable: true },
};

export function evalRoutes(ws: Workspace): ResourceRoute[] {
  const config = (id: string) => found(ws.evalConfigs.get(id), 'eval config');

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
      const dial = ws.dials.record(record.dialId);
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
  function resultFor(runId: string, record: EvalRecordRecord, id = ws.newId()): EvalResultRecord {
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
    ws.evalResults.set(result.id, result);
    return result;
  }

  /** Completes a pending run whose time has come; answers a copy. */
  function settle(state: EvalRunState): EvalRunRecord {
    const { run } = state;
    if (run.status === 'PENDING' && Date.now() >= state.completesAt) {
      const records = [...ws.evalRecords.values()].filter((record) => record.evalConfigId === run.evalConfigId);
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

  function createRecord(configId: string, body: unknown): EvalRecordRecord {
    config(configId);
    const input = checkBody(body, recordSpec);
    if (input.recordType === 'DIAL') {
      if (typeof input.dialId !== 'string') throw unprocessable('a DIAL record needs dialId');
      if (!ws.dials.has(input.dialId)) throw unprocessable(`no dial with id ${JSON.stringify(input.dialId)}`);
    }
    if (typeof input.maxTurns === 'number' && input.maxTurns < 1) throw unprocessable('maxTurns must be at least 1');
    const record: EvalRecordRecord = {
      id: ws.newId(),
      evalConfigId: configId,
      recordType: input.recordType as EvalRecordRecord['recordType'],
      dialId: (input.dialId as string | null | undefined) ?? null,
      name: (input.name as string | null | undefined) ?? null,
      description: (input.description as string | null | undefined) ?? null,
      systemPrompt: (input.systemPrompt as string | null | undefined) ?? null,
      maxTurns: (input.maxTurns as number | null | undefined) ?? null,
      agentInputs: input.agentInputs ? structuredClone(input.agentInputs as Record<string, unknown>) : null,
      createdAt: nowIso(),
    };
    ws.evalRecords.set(record.id, record);
    return structuredClone(record);
  }

  function runEval(configId: string, body: unknown): EvalRunRecord {
    config(configId);
    const input = checkBody(body, {
      callAgentId: { type: 'string', required: true },
      versionedPromptId: { type: 'string', nullable: true },
    });
    const agentId = input.callAgentId as string;
    if (!ws.agents.has(agentId)) throw unprocessable(`no agent with id ${JSON.stringify(agentId)}`);
    const promptId = (input.versionedPromptId as string | null | undefined) ?? null;
    if (promptId !== null && !ws.prompts.get(agentId)!.has(promptId))
      throw unprocessable(`agent ${agentId} has no versioned prompt ${JSON.stringify(promptId)}`);
    const run: EvalRunRecord = {
      id: ws.newId(),
      evalConfigId: configId,
      status: 'PENDING',
      callAgentId: agentId,
      versionedPromptId: promptId,
      createdAt: nowIso(),
      aggregateResult: null,
      results: [],
    };
    const state = { run, completesAt: Date.now() + ws.evalRunMs };
    ws.evalRuns.set(run.id, state);
    return settle(state);
  }

  function rerun(resultId: string): { numAlerts: number; results: EvalResultItem[] } {
    const previous = found(ws.evalResults.get(resultId), 'eval result');
    const record = ws.evalRecords.get(previous.evalRecordId);
    if (!record) throw unprocessable("the result's eval record was deleted");
    const result = resultFor(previous.evalRunId, record, previous.id);
    const state = ws.evalRuns.get(previous.evalRunId);
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
          const input = checkBody(body, {
            name: { type: 'string', required: true },
            promptSnippet: { type: 'string', nullable: true },
          });
          requireNonEmpty(input.name, 'name');
          const created: EvalConfigRecord = {
            id: ws.newId(),
            name: input.name as string,
            promptSnippet: (input.promptSnippet as string | null | undefined) ?? null,
          };
          ws.evalConfigs.set(created.id, created);
          return structuredClone(created);
        },
      },
    },
    {
      pattern: /^\/eval_configs\/([^/]+)\/records$/,
      methods: {
        POST: ({ params, body }) => createRecord(params[0]!, body),
        GET: (request) => {
          const { params, query } = request;
          config(params[0]!);
          const search = query.get('search')?.toLowerCase();
          const records = [...ws.evalRecords.values()].filter(
            (record) =>
              record.evalConfigId === params[0] &&
              (!search || [record.name, record.description].some((text) => text?.toLowerCase().includes(search))),
          );
          return page(records, request);
        },
      },
    },
    {
      pattern: /^\/eval_configs\/([^/]+)\/runs$/,
      methods: {
        POST: ({ params, body }) => runEval(params[0]!, body),
        GET: (request) => {
          const { params } = request;
          config(params[0]!);
          const runs = [...ws.evalRuns.values()].filter((state) => state.run.evalConfigId === params[0]).map(settle);
          return page(runs, request);
        },
      },
    },
    {
      pattern: /^\/eval_runs\/([^/]+)$/,
      methods: { GET: ({ params }) => settle(found(ws.evalRuns.get(params[0]!), 'eval run')) },
    },
    {
      pattern: /^\/eval_runs\/([^/]+)\/cancel$/,
      methods: {
        POST: ({ params }) => {
          const state = found(ws.evalRuns.get(params[0]!), 'eval run');
          const run = settle(state);
          if (run.status !== 'PENDING') throw unprocessable(`the run is already ${run.status}`);
          state.run.status = 'CANCELLED';
          return structuredClone(state.run);
        },
      },
    },
    { pattern: /^\/eval_results\/([^/]+)\/rerun$/, methods: { POST: ({ params }) => rerun(params[0]!) } },
    {
      pattern: /^\/eval_configs\/([^/]+)\/records\/([^/]+)$/,
      methods: {
        // The seed answers the deleted record's id only.
        DELETE: ({ params }) => {
          config(params[0]!);
          const record = ws.evalRecords.get(params[1]!);
          if (!record || record.evalConfigId !== params[0]) found(undefined, 'eval record');
          ws.evalRecords.delete(params[1]!);
          return { id: params[1]! };
        },
      },
    },
  ];
}
