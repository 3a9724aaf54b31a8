// Evaluations: configs, their records (a dial or a prompt to test), runs over every record, and
// results. A run is PENDING for `evalRunMs`, then COMPLETED with one result per record (it is
// settled when read, so no timer outlives the emulator). A record fails when its name,
// description or system prompt contains "[fail]", or when its dial ended failed; each failure is
// one alert. `GET /eval_runs/{id}`, `POST /eval_results/{id}/rerun` and `DELETE /eval_records/{id}`
// are the emulator's convention where the seed shows no path.
import { unprocessable } from '../errors.js';
import { page } from '../pagination.js';
import type { EvalConfigRecord, EvalRecordRecord, EvalResultRecord, EvalRunRecord } from '../records.js';
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

  function judge(record: EvalRecordRecord): string[] {
    const alerts: string[] = [];
    const text = [record.name, record.description, record.systemPrompt].filter((part) => part !== null).join(' ');
    if (text.includes('[fail]')) alerts.push('the record asks the emulator to fail it ([fail])');
    if (record.dialId !== null) {
      const dial = ws.dials.record(record.dialId);
      if (!dial) alerts.push('the dial no longer exists');
      else if (dial.status === 'failed' || dial.status === 'no-answer') alerts.push(`the dial ended ${dial.status}`);
    }
    return alerts;
  }

  function resultFor(runId: string, record: EvalRecordRecord): EvalResultRecord {
    const alerts = judge(record);
    const result: EvalResultRecord = { id: ws.newId(), evalRunId: runId, evalRecordId: record.id, passed: alerts.length === 0, numAlerts: alerts.length, alerts, createdAt: nowIso() };
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
    const input = checkBody(body, { callAgentId: { type: 'string', required: true }, versionedPromptId: { type: 'string', nullable: true } });
    const agentId = input.callAgentId as string;
    if (!ws.agents.has(agentId)) throw unprocessable(`no agent with id ${JSON.stringify(agentId)}`);
    const promptId = (input.versionedPromptId as string | null | undefined) ?? null;
    if (promptId !== null && !ws.prompts.get(agentId)!.has(promptId)) throw unprocessable(`agent ${agentId} has no versioned prompt ${JSON.stringify(promptId)}`);
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

  function rerun(resultId: string): { numAlerts: number; results: EvalResultRecord[] } {
    const previous = found(ws.evalResults.get(resultId), 'eval result');
    const record = ws.evalRecords.get(previous.evalRecordId);
    if (!record) throw unprocessable('the result\'s eval record was deleted');
    const result = resultFor(previous.evalRunId, record);
    const state = ws.evalRuns.get(previous.evalRunId);
    if (state) {
      state.run.results = state.run.results.map((item) => (item.id === previous.id ? result : item));
      aggregate(state.run);
    }
    ws.evalResults.delete(previous.id);
    return { numAlerts: result.numAlerts, results: [structuredClone(result)] };
  }

  return [
    {
      pattern: /^\/eval_configs$/,
      methods: {
        POST: ({ body }) => {
          const input = checkBody(body, { name: { type: 'string', required: true }, promptSnippet: { type: 'string', nullable: true } });
          requireNonEmpty(input.name, 'name');
          const created: EvalConfigRecord = { id: ws.newId(), name: input.name as string, promptSnippet: (input.promptSnippet as string | null | undefined) ?? null };
          ws.evalConfigs.set(created.id, created);
          return structuredClone(created);
        },
      },
    },
    {
      pattern: /^\/eval_configs\/([^/]+)\/records$/,
      methods: {
        POST: ({ params, body }) => createRecord(params[0]!, body),
        GET: ({ params, query }) => {
          config(params[0]!);
          const search = query.get('search')?.toLowerCase();
          const records = [...ws.evalRecords.values()].filter(
            (record) =>
              record.evalConfigId === params[0] &&
              (!search || [record.name, record.description].some((text) => text?.toLowerCase().includes(search))),
          );
          return page(records, query);
        },
      },
    },
    {
      pattern: /^\/eval_configs\/([^/]+)\/runs$/,
      methods: {
        POST: ({ params, body }) => runEval(params[0]!, body),
        GET: ({ params, query }) => {
          config(params[0]!);
          const runs = [...ws.evalRuns.values()].filter((state) => state.run.evalConfigId === params[0]).map(settle);
          return page(runs, query);
        },
      },
    },
    { pattern: /^\/eval_runs\/([^/]+)$/, methods: { GET: ({ params }) => settle(found(ws.evalRuns.get(params[0]!), 'eval run')) } },
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
      pattern: /^\/eval_records\/([^/]+)$/,
      methods: {
        DELETE: ({ params }) => {
          const record = found(ws.evalRecords.get(params[0]!), 'eval record');
          ws.evalRecords.delete(record.id);
          return record;
        },
      },
    },
  ];
}
