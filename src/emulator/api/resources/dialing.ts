// Dial tasks (a unit of work retried by attempts until marked complete) and batch dial jobs (rows
// dialled as phone dials, at most `maxConcurrentDials` at a time, while the job is ACTIVE).
// Dial tasks live at the seed's `POST /tasks`, `POST /tasks/{taskId}/attempt` and
// `POST /tasks/{taskId}/complete`; their bodies follow the service's GraphQL twins
// (CreateDialTaskInput, CreateTaskAttemptInput, MarkTaskCompleteInput). `GET /tasks/{taskId}`
// is the emulator's own addition (the seed lists no read).
import type { DialInput } from '../dial-input.js';
import { isTerminal } from '../dial-store.js';
import { badRequest, unprocessable } from '../errors.js';
import { page, type Listing } from '../pagination.js';
import type { BatchDialJobRecord, BatchSchedule, DialTaskRecord } from '../records.js';
import { checkBody, requireE164, type Body, type FieldSpec } from '../validate.js';
import { nowIso, type ResourceRoute } from './route.js';
import { found, type BatchJobState, type Workspace } from './workspace.js';

const jobSpec: Record<string, FieldSpec> = {
  callAgentId: { type: 'string', required: true },
  maxConcurrentDials: { type: 'integer', required: true },
  name: { type: 'string', required: true },
  rows: { type: 'array', required: true },
  fromPhoneNumberIds: { type: 'string[]', nullable: true },
  schedule: { type: 'object', nullable: true },
};

const jobUpdateSpec: Record<string, FieldSpec> = {
  maxConcurrentDials: { type: 'integer' },
  fromPhoneNumberIds: { type: 'string[]' },
  schedule: { type: 'object', nullable: true },
};

/** A batch row or task attempt has no number to call from unless one is given. */
const EMULATOR_FROM_NUMBER_ID = 'emu-outbound-number';

export function dialingRoutes(ws: Workspace): ResourceRoute[] {
  function phoneInput(
    agentId: string,
    toNumber: string,
    fromNumberId: string,
    inputs: Record<string, unknown>,
    dialTaskId: string | null,
  ): DialInput {
    const agent = ws.agentForDial(agentId);
    if (!agent) throw unprocessable(`no agent with id ${JSON.stringify(agentId)}`);
    return {
      agent,
      browserCall: false,
      toNumber,
      fromNumberId,
      callAgentInput: structuredClone(inputs),
      timeoutMinutes: null,
      aiVoiceId: null,
      versionedModelId: null,
      dialTaskId,
    };
  }

  // ── dial tasks ──

  function createTask(body: unknown): DialTaskRecord {
    const input = checkBody(body, {
      callAgentId: { type: 'string', required: true },
      inputData: { type: 'object', required: true },
      keyInputs: { type: 'string[]', required: true },
    });
    if (!ws.agents.has(input.callAgentId as string))
      throw unprocessable(`no agent with id ${JSON.stringify(input.callAgentId)}`);
    const inputData = input.inputData as Record<string, unknown>;
    for (const key of input.keyInputs as string[])
      if (!(key in inputData)) throw unprocessable(`keyInputs names ${JSON.stringify(key)}, which inputData lacks`);
    const task: DialTaskRecord = {
      id: ws.newId(),
      callAgentId: input.callAgentId as string,
      createdAt: nowIso(),
      inputData: structuredClone(inputData),
      keyInputs: [...(input.keyInputs as string[])],
      results: null,
      status: 'PENDING',
      completedDialId: null,
      attemptDialIds: [],
    };
    ws.dialTasks.set(task.id, task);
    return structuredClone(task);
  }

  async function attempt(taskId: string, body: unknown, issueToken: (dialId: string) => Promise<string>) {
    const task = found(ws.dialTasks.get(taskId), 'dial task');
    const input = checkBody(body, {
      fromPhoneNumberId: { type: 'string', required: true },
      toNumber: { type: 'string', required: true },
      webhookUrl: { type: 'string', nullable: true },
    });
    if (task.status === 'COMPLETED') throw unprocessable('the dial task is already complete');
    requireE164(input.toNumber as string, 'toNumber');
    if (!ws.phoneNumbers.has(input.fromPhoneNumberId as string)) {
      throw unprocessable(
        `fromPhoneNumberId names no phone number of this workspace (${JSON.stringify(input.fromPhoneNumberId)})`,
        'fromPhoneNumberId',
      );
    }
    const created = ws.dials.create(
      phoneInput(
        task.callAgentId,
        input.toNumber as string,
        input.fromPhoneNumberId as string,
        task.inputData,
        task.id,
      ),
    );
    task.status = 'RUNNING';
    task.attemptDialIds.push(created.dialId);
    return {
      dialId: created.dialId,
      sessionId: created.sessionId,
      dialToken: await issueToken(created.dialId),
      telephonyProvider: 'emulator',
    };
  }

  function complete(taskId: string, body: unknown): DialTaskRecord {
    const task = found(ws.dialTasks.get(taskId), 'dial task');
    const { dialId } = checkBody(body, { dialId: { type: 'string', required: true } });
    if (!task.attemptDialIds.includes(dialId as string))
      throw unprocessable(`dial ${JSON.stringify(dialId)} is not an attempt of this task`);
    task.status = 'COMPLETED';
    task.completedDialId = dialId as string;
    const aiResult = ws.dials.record(dialId as string)?.aiResult;
    task.results = aiResult ? structuredClone(aiResult) : null;
    return structuredClone(task);
  }

  // ── batch dial jobs ──

  function checkSchedule(value: unknown): BatchSchedule | null {
    if (value === null || value === undefined) return null;
    const schedule = checkBody(
      value,
      {
        days: { type: 'array', required: true },
        timezone: { type: 'string', required: true },
        disableSchedule: { type: 'boolean' },
      },
      { where: 'schedule' },
    );
    for (const day of schedule.days as unknown[]) {
      const checked = checkBody(
        day,
        { dayOfWeek: { type: 'integer', required: true }, timeSlots: { type: 'array', required: true } },
        { where: 'schedule.days[]' },
      );
      if ((checked.dayOfWeek as number) < 0 || (checked.dayOfWeek as number) > 6)
        throw unprocessable('schedule.days[].dayOfWeek must be 0 to 6');
      for (const slot of checked.timeSlots as unknown[]) {
        checkBody(
          slot,
          { startTime: { type: 'string', required: true }, endTime: { type: 'string', required: true } },
          { where: 'schedule.days[].timeSlots[]' },
        );
      }
    }
    return structuredClone(schedule) as unknown as BatchSchedule;
  }

  function checkConcurrency(value: unknown): void {
    if (typeof value === 'number' && value < 1) throw unprocessable('maxConcurrentDials must be at least 1');
  }

  function checkNumbers(ids: unknown): void {
    for (const id of (ids ?? []) as string[])
      if (!ws.phoneNumbers.has(id)) throw unprocessable(`no phone number with id ${JSON.stringify(id)}`);
  }

  function createJob(body: unknown): BatchDialJobRecord {
    const input = checkBody(body, jobSpec);
    if (!ws.agents.has(input.callAgentId as string))
      throw unprocessable(`no agent with id ${JSON.stringify(input.callAgentId)}`);
    checkConcurrency(input.maxConcurrentDials);
    checkNumbers(input.fromPhoneNumberIds);
    const rows = input.rows as unknown[];
    if (rows.length === 0) throw unprocessable('rows must not be empty');
    const job: BatchDialJobRecord = {
      id: ws.newId(),
      name: input.name as string,
      maxConcurrentDials: input.maxConcurrentDials as number,
      status: 'INIT',
      callAgentId: input.callAgentId as string,
      createdAt: nowIso(),
      fromPhoneNumberIds: [...((input.fromPhoneNumberIds as string[] | null | undefined) ?? [])],
      schedule: checkSchedule(input.schedule),
    };
    const queue = rows.map((row, index) => {
      const checked = checkBody(
        row,
        { toNumber: { type: 'string', required: true }, inputs: { type: 'object' } },
        { where: `rows[${index}]` },
      );
      requireE164(checked.toNumber as string, `rows[${index}].toNumber`);
      const inputs = (checked.inputs ?? {}) as Body;
      for (const value of Object.values(inputs))
        if (typeof value !== 'string') throw badRequest(`rows[${index}].inputs values must be strings`);
      return {
        id: ws.newId(),
        toNumber: checked.toNumber as string,
        batchDialJobId: job.id,
        createdAt: job.createdAt,
        inputs: inputs as Record<string, string>,
      };
    });
    ws.batchJobs.set(job.id, { job, queue, running: new Set(), done: [] });
    return structuredClone(job);
  }

  /** Starts queued rows while the job is ACTIVE and under its concurrency; completes it when all ended. */
  function pump(state: BatchJobState): void {
    const { job } = state;
    while (job.status === 'ACTIVE' && state.running.size < job.maxConcurrentDials && state.queue.length > 0) {
      const row = state.queue.shift()!;
      const fromNumberId =
        job.fromPhoneNumberIds[state.done.length % Math.max(1, job.fromPhoneNumberIds.length)] ??
        EMULATOR_FROM_NUMBER_ID;
      try {
        const { dialId } = ws.dials.create(phoneInput(job.callAgentId, row.toNumber, fromNumberId, row.inputs, null));
        state.running.add(dialId);
      } catch {
        // The job's agent was deleted: nothing more can be dialled.
        job.status = 'CANCELLED';
        return;
      }
    }
    if (job.status === 'ACTIVE' && state.queue.length === 0 && state.running.size === 0) job.status = 'COMPLETE';
  }

  ws.dials.onEnded((dialId) => {
    for (const state of ws.batchJobs.values()) {
      if (!state.running.delete(dialId)) continue;
      state.done.push(dialId);
      pump(state);
    }
  });

  function setPaused(jobId: string, body: unknown): BatchDialJobRecord {
    const state = found(ws.batchJobs.get(jobId), 'batch dial job');
    const { paused } = checkBody(body, { paused: { type: 'boolean', required: true } });
    const { job } = state;
    if (job.status === 'COMPLETE' || job.status === 'CANCELLED') throw unprocessable(`the job is ${job.status}`);
    job.status = paused ? 'PAUSED' : 'ACTIVE';
    pump(state);
    return structuredClone(job);
  }

  function updateJob(jobId: string, body: unknown): BatchDialJobRecord {
    const state = found(ws.batchJobs.get(jobId), 'batch dial job');
    const input = checkBody(body, jobUpdateSpec, { partial: true });
    checkConcurrency(input.maxConcurrentDials);
    checkNumbers(input.fromPhoneNumberIds);
    const schedule = input.schedule === undefined ? state.job.schedule : checkSchedule(input.schedule);
    if (typeof input.maxConcurrentDials === 'number') state.job.maxConcurrentDials = input.maxConcurrentDials;
    if (Array.isArray(input.fromPhoneNumberIds))
      state.job.fromPhoneNumberIds = [...(input.fromPhoneNumberIds as string[])];
    state.job.schedule = schedule;
    pump(state);
    return structuredClone(state.job);
  }

  function listJobs(request: Listing) {
    const { query } = request;
    const status = query.get('status');
    const agentId = query.get('callAgentId');
    const jobs = [...ws.batchJobs.values()]
      .map((state) => state.job)
      .filter((job) => (!status || job.status === status) && (!agentId || job.callAgentId === agentId));
    return page(jobs, request);
  }

  return [
    { pattern: /^\/tasks$/, methods: { POST: ({ body }) => createTask(body) } },
    {
      pattern: /^\/tasks\/([^/]+)$/,
      methods: { GET: ({ params }) => structuredClone(found(ws.dialTasks.get(params[0]!), 'dial task')) },
    },
    {
      pattern: /^\/tasks\/([^/]+)\/attempt$/,
      methods: { POST: ({ params, body }) => attempt(params[0]!, body, ws.issueDialToken) },
    },
    { pattern: /^\/tasks\/([^/]+)\/complete$/, methods: { POST: ({ params, body }) => complete(params[0]!, body) } },
    {
      pattern: /^\/batch_dial_jobs$/,
      methods: { GET: (request) => listJobs(request), POST: ({ body }) => createJob(body) },
    },
    {
      pattern: /^\/batch_dial_jobs\/([^/]+)$/,
      methods: {
        GET: ({ params }) => structuredClone(found(ws.batchJobs.get(params[0]!), 'batch dial job').job),
        PUT: ({ params, body }) => updateJob(params[0]!, body),
      },
    },
    {
      pattern: /^\/batch_dial_jobs\/([^/]+)\/paused$/,
      methods: { POST: ({ params, body }) => setPaused(params[0]!, body) },
    },
    {
      pattern: /^\/batch_dial_jobs\/([^/]+)\/queue$/,
      methods: { GET: (request) => page(found(ws.batchJobs.get(request.params[0]!), 'batch dial job').queue, request) },
    },
    {
      pattern: /^\/batch_dial_jobs\/([^/]+)\/dials$/,
      methods: {
        // "completed dials": the job's dials that ended, in the order they ended.
        GET: (request) => {
          const state = found(ws.batchJobs.get(request.params[0]!), 'batch dial job');
          const dials = state.done
            .map((id) => ws.dials.record(id))
            .filter((dial) => dial !== undefined && isTerminal(dial.status));
          return page(dials, request);
        },
      },
    },
  ];
}
