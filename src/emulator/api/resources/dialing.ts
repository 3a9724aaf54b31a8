// Dial tasks (a unit of work retried by attempts until marked complete) and batch dial jobs (rows
// dialled as phone dials, at most `maxConcurrentDials` at a time, while the job is ACTIVE).
// Dial tasks live at the seed's `POST /tasks`, `POST /tasks/{taskId}/attempt` and
// `POST /tasks/{taskId}/complete`; their bodies follow the service's GraphQL twins
// (CreateDialTaskInput, CreateTaskAttemptInput, MarkTaskCompleteInput). `GET /tasks/{taskId}`
// is the emulator's own addition (the seed lists no read).
import type { TaskAttemptOutput } from '../../../api/types/index.js';
import type { DialInput } from '../dial-input.js';
import { isTerminal } from '../dial-lifecycle.js';
import { badRequest, unprocessable } from '../errors.js';
import { page, type Listing } from '../pagination.js';
import type { BatchDialJobRecord, BatchDialSpecRecord, BatchSchedule, DialTaskRecord } from '../records.js';
import type { BatchJobState, Store } from '../store.js';
import { checkBody, checkPatch, requireE164, type Schema } from '../validate.js';
import { nowIso, type ResourceRequest, type ResourceRoute } from './route.js';

const taskSchema = {
  callAgentId: { type: 'string', required: true },
  inputData: { type: 'object', required: true },
  keyInputs: { type: 'string[]', required: true },
} as const satisfies Schema;

const attemptSchema = {
  fromPhoneNumberId: { type: 'string', required: true },
  toNumber: { type: 'string', required: true },
  webhookUrl: { type: 'string', nullable: true },
} as const satisfies Schema;

const completeSchema = { dialId: { type: 'string', required: true } } as const satisfies Schema;

const jobSchema = {
  callAgentId: { type: 'string', required: true },
  maxConcurrentDials: { type: 'integer', required: true },
  name: { type: 'string', required: true },
  rows: { type: 'array', required: true },
  fromPhoneNumberIds: { type: 'string[]', nullable: true },
  schedule: { type: 'object', nullable: true },
} as const satisfies Schema;

const jobUpdateSchema = {
  maxConcurrentDials: { type: 'integer' },
  fromPhoneNumberIds: { type: 'string[]' },
  schedule: { type: 'object', nullable: true },
} as const satisfies Schema;

const rowSchema = {
  toNumber: { type: 'string', required: true },
  inputs: { type: 'object' },
} as const satisfies Schema;

const scheduleSchema = {
  days: { type: 'array', required: true },
  timezone: { type: 'string', required: true },
  disableSchedule: { type: 'boolean' },
} as const satisfies Schema;

const daySchema = {
  dayOfWeek: { type: 'integer', required: true },
  timeSlots: { type: 'array', required: true },
} as const satisfies Schema;

const slotSchema = {
  startTime: { type: 'string', required: true },
  endTime: { type: 'string', required: true },
} as const satisfies Schema;

const pausedSchema = { paused: { type: 'boolean', required: true } } as const satisfies Schema;

/** A batch row or task attempt has no number to call from unless one is given. */
const EMULATOR_FROM_NUMBER_ID = 'emu-outbound-number';

export function dialingRoutes(store: Store): ResourceRoute[] {
  function phoneInput(
    agentId: string,
    toNumber: string,
    fromNumberId: string,
    inputs: Record<string, unknown>,
    dialTaskId: string | null,
  ): DialInput {
    const agent = store.agentForDial(agentId);
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
    const input = checkBody(body, taskSchema);
    if (!store.agents.has(input.callAgentId))
      throw unprocessable(`no agent with id ${JSON.stringify(input.callAgentId)}`);
    const { inputData } = input;
    for (const key of input.keyInputs)
      if (!(key in inputData)) throw unprocessable(`keyInputs names ${JSON.stringify(key)}, which inputData lacks`);
    const task: DialTaskRecord = {
      id: store.newId(),
      callAgentId: input.callAgentId,
      createdAt: nowIso(),
      inputData: structuredClone(inputData),
      keyInputs: [...input.keyInputs],
      results: null,
      status: 'PENDING',
      completedDialId: null,
      attemptDialIds: [],
    };
    store.dialTasks.set(task.id, task);
    return structuredClone(task);
  }

  async function attempt(taskId: string, body: unknown): Promise<TaskAttemptOutput> {
    const task = store.dialTasks.require(taskId);
    const input = checkBody(body, attemptSchema);
    if (task.status === 'COMPLETED') throw unprocessable('the dial task is already complete');
    requireE164(input.toNumber, 'toNumber');
    if (!store.phoneNumbers.has(input.fromPhoneNumberId)) {
      throw unprocessable(
        `fromPhoneNumberId names no phone number of this workspace (${JSON.stringify(input.fromPhoneNumberId)})`,
        'fromPhoneNumberId',
      );
    }
    const created = store.dials.create(
      phoneInput(task.callAgentId, input.toNumber, input.fromPhoneNumberId, task.inputData, task.id),
    );
    task.status = 'RUNNING';
    task.attemptDialIds.push(created.dialId);
    return {
      dialId: created.dialId,
      sessionId: created.sessionId,
      dialToken: await store.issueDialToken(created.dialId),
      telephonyProvider: 'emulator',
    };
  }

  function complete(taskId: string, body: unknown): DialTaskRecord {
    const task = store.dialTasks.require(taskId);
    const { dialId } = checkBody(body, completeSchema);
    if (!task.attemptDialIds.includes(dialId))
      throw unprocessable(`dial ${JSON.stringify(dialId)} is not an attempt of this task`);
    task.status = 'COMPLETED';
    task.completedDialId = dialId;
    const aiResult = store.dials.record(dialId)?.aiResult;
    task.results = aiResult ? structuredClone(aiResult) : null;
    return structuredClone(task);
  }

  // ── batch dial jobs ──

  function checkSchedule(value: unknown): BatchSchedule | null {
    if (value === null || value === undefined) return null;
    const schedule = checkBody(value, scheduleSchema, { where: 'schedule' });
    const days = schedule.days.map((day) => {
      const checked = checkBody(day, daySchema, { where: 'schedule.days[]' });
      if (checked.dayOfWeek < 0 || checked.dayOfWeek > 6)
        throw unprocessable('schedule.days[].dayOfWeek must be 0 to 6');
      const timeSlots = checked.timeSlots.map((slot) =>
        checkBody(slot, slotSchema, { where: 'schedule.days[].timeSlots[]' }),
      );
      return { ...checked, timeSlots };
    });
    return structuredClone({ ...schedule, days });
  }

  function checkConcurrency(value: unknown): void {
    if (typeof value === 'number' && value < 1) throw unprocessable('maxConcurrentDials must be at least 1');
  }

  function checkNumbers(ids: readonly string[] | null | undefined): void {
    for (const id of ids ?? [])
      if (!store.phoneNumbers.has(id)) throw unprocessable(`no phone number with id ${JSON.stringify(id)}`);
  }

  function createJob(body: unknown): BatchDialJobRecord {
    const input = checkBody(body, jobSchema);
    if (!store.agents.has(input.callAgentId))
      throw unprocessable(`no agent with id ${JSON.stringify(input.callAgentId)}`);
    checkConcurrency(input.maxConcurrentDials);
    checkNumbers(input.fromPhoneNumberIds);
    const { rows } = input;
    if (rows.length === 0) throw unprocessable('rows must not be empty');
    const job: BatchDialJobRecord = {
      id: store.newId(),
      name: input.name,
      maxConcurrentDials: input.maxConcurrentDials,
      status: 'INIT',
      callAgentId: input.callAgentId,
      createdAt: nowIso(),
      fromPhoneNumberIds: [...(input.fromPhoneNumberIds ?? [])],
      schedule: checkSchedule(input.schedule),
    };
    const queue = rows.map((row, index): BatchDialSpecRecord => {
      const checked = checkBody(row, rowSchema, { where: `rows[${index}]` });
      requireE164(checked.toNumber, `rows[${index}].toNumber`);
      const inputs: Record<string, string> = {};
      for (const [name, value] of Object.entries(checked.inputs ?? {})) {
        if (typeof value !== 'string') throw badRequest(`rows[${index}].inputs values must be strings`);
        inputs[name] = value;
      }
      return {
        id: store.newId(),
        toNumber: checked.toNumber,
        batchDialJobId: job.id,
        createdAt: job.createdAt,
        inputs,
      };
    });
    store.batchJobs.set(job.id, { job, queue, running: new Set(), done: [] });
    return structuredClone(job);
  }

  /** Starts queued rows while the job is ACTIVE and under its concurrency; completes it when all ended. */
  function pump(state: BatchJobState): void {
    const { job } = state;
    while (job.status === 'ACTIVE' && state.running.size < job.maxConcurrentDials) {
      const row = state.queue.shift();
      if (row === undefined) break;
      const fromNumberId =
        job.fromPhoneNumberIds[state.done.length % Math.max(1, job.fromPhoneNumberIds.length)] ??
        EMULATOR_FROM_NUMBER_ID;
      try {
        const { dialId } = store.dials.create(
          phoneInput(job.callAgentId, row.toNumber, fromNumberId, row.inputs, null),
        );
        state.running.add(dialId);
      } catch {
        // The job's agent was deleted: nothing more can be dialled.
        job.status = 'CANCELLED';
        return;
      }
    }
    if (job.status === 'ACTIVE' && state.queue.length === 0 && state.running.size === 0) job.status = 'COMPLETE';
  }

  store.dials.onEnded((dialId) => {
    for (const state of store.batchJobs.values()) {
      if (!state.running.delete(dialId)) continue;
      state.done.push(dialId);
      pump(state);
    }
  });

  function setPaused(jobId: string, body: unknown): BatchDialJobRecord {
    const state = store.batchJobs.require(jobId);
    const { paused } = checkBody(body, pausedSchema);
    const { job } = state;
    if (job.status === 'COMPLETE' || job.status === 'CANCELLED') throw unprocessable(`the job is ${job.status}`);
    job.status = paused ? 'PAUSED' : 'ACTIVE';
    pump(state);
    return structuredClone(job);
  }

  function updateJob(jobId: string, body: unknown): BatchDialJobRecord {
    const state = store.batchJobs.require(jobId);
    const input = checkPatch(body, jobUpdateSchema);
    checkConcurrency(input.maxConcurrentDials);
    checkNumbers(input.fromPhoneNumberIds);
    const schedule = input.schedule === undefined ? state.job.schedule : checkSchedule(input.schedule);
    if (typeof input.maxConcurrentDials === 'number') state.job.maxConcurrentDials = input.maxConcurrentDials;
    if (Array.isArray(input.fromPhoneNumberIds)) state.job.fromPhoneNumberIds = [...input.fromPhoneNumberIds];
    state.job.schedule = schedule;
    pump(state);
    return structuredClone(state.job);
  }

  function listJobs(request: Listing) {
    const { query } = request;
    const status = query.get('status');
    const agentId = query.get('callAgentId');
    const jobs = store.batchJobs
      .values()
      .map((state) => state.job)
      .filter((job) => (!status || job.status === status) && (!agentId || job.callAgentId === agentId));
    return page(jobs, request);
  }

  const jobOf = (request: ResourceRequest) => store.batchJobs.require(request.param(0));

  return [
    { pattern: /^\/tasks$/, methods: { POST: ({ body }) => createTask(body) } },
    { pattern: /^\/tasks\/([^/]+)$/, methods: { GET: ({ param }) => store.dialTasks.copy(param(0)) } },
    { pattern: /^\/tasks\/([^/]+)\/attempt$/, methods: { POST: ({ param, body }) => attempt(param(0), body) } },
    { pattern: /^\/tasks\/([^/]+)\/complete$/, methods: { POST: ({ param, body }) => complete(param(0), body) } },
    {
      pattern: /^\/batch_dial_jobs$/,
      methods: { GET: (request) => listJobs(request), POST: ({ body }) => createJob(body) },
    },
    {
      pattern: /^\/batch_dial_jobs\/([^/]+)$/,
      methods: {
        GET: (request) => structuredClone(jobOf(request).job),
        PUT: ({ param, body }) => updateJob(param(0), body),
      },
    },
    {
      pattern: /^\/batch_dial_jobs\/([^/]+)\/paused$/,
      methods: { POST: ({ param, body }) => setPaused(param(0), body) },
    },
    {
      pattern: /^\/batch_dial_jobs\/([^/]+)\/queue$/,
      methods: { GET: (request) => page(jobOf(request).queue, request) },
    },
    {
      pattern: /^\/batch_dial_jobs\/([^/]+)\/dials$/,
      methods: {
        // "completed dials": the job's dials that ended, in the order they ended.
        GET: (request) => {
          const dials = jobOf(request)
            .done.map((id) => store.dials.record(id))
            .filter((dial) => dial !== undefined && isTerminal(dial.status));
          return page(dials, request);
        },
      },
    },
  ];
}
