// The typed client against the emulator over HTTP: batch dial jobs (created INIT, started and
// paused through /paused, queue and dial listings, concurrency) and evaluations (records, runs,
// cancel, rerun a result, delete a record).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Emulator } from '../../src/emulator/index.js';
import type { VoiceAgentApi } from '../../src/api/client.js';
import { paginate } from '../../src/api/paginate.js';
import type { BatchDialJob, CreateBatchDialJobInput } from '../../src/api/types/index.js';
import { collect, present, eventually, reaches, rejectsWith, startApi } from './api-client-support.js';

const rows = (count: number, start = 100): CreateBatchDialJobInput['rows'] =>
  Array.from({ length: count }, (_, index) => ({
    toNumber: `+1555010${start + index}`,
    inputs: { row: String(index) },
  }));

describe('VoiceAgentApi: batch dial jobs and evaluations', () => {
  let emu: Emulator;
  let api: VoiceAgentApi;
  before(async () => {
    ({ emu, api } = await startApi());
  });
  after(() => emu.close());

  describe('batch dial jobs', () => {
    test('created INIT with its rows queued; nothing is dialled until resumed', async () => {
      const job = await api.batchDialJobs.create({
        callAgentId: 'emu-demo',
        maxConcurrentDials: 2,
        name: 'Reminders',
        rows: rows(5),
      });
      assert.equal(job.status, 'INIT');
      assert.equal(job.maxConcurrentDials, 2);
      assert.deepEqual(await api.batchDialJobs.get(job.id), job);
      const queue = await api.batchDialJobs.listQueue(job.id, { limit: 2 });
      assert.deepEqual(Object.keys(queue).sort(), ['cursor', 'data']);
      assert.equal(queue.data.length, 2);
      assert.deepEqual(queue.data[0], {
        ...present(queue.data[0]),
        toNumber: '+1555010100',
        batchDialJobId: job.id,
        inputs: { row: '0' },
      });
      const walked = await collect(paginate((o, c) => api.batchDialJobs.listQueue(job.id, o, c), { limit: 2 }));
      assert.deepEqual(
        walked.map((spec) => spec.toNumber),
        rows(5).map((row) => row.toNumber),
      );
      assert.deepEqual((await api.batchDialJobs.listDials(job.id)).data, []);
    });

    test('resume dials at most maxConcurrentDials at a time; pause stops new dials; the job completes with every dial listed', async () => {
      const job = await api.batchDialJobs.create({
        callAgentId: 'emu-quick',
        maxConcurrentDials: 2,
        name: 'Survey',
        rows: rows(5, 200),
      });
      const active = await api.batchDialJobs.resume(job.id);
      assert.equal(active.status, 'ACTIVE');
      assert.equal((await api.batchDialJobs.listQueue(job.id)).data.length, 3, 'two rows left the queue at once');
      const paused = await api.batchDialJobs.pause(job.id);
      assert.equal(paused.status, 'PAUSED');
      // The two running dials end; the paused job starts no others.
      await eventually(
        async () => ((await api.batchDialJobs.listDials(job.id)).data.length === 2 ? true : undefined),
        4000,
        'two dials ended',
      );
      assert.equal((await api.batchDialJobs.listQueue(job.id)).data.length, 3);
      assert.equal((await api.batchDialJobs.get(job.id)).status, 'PAUSED');
      assert.equal((await api.batchDialJobs.setPaused(job.id, false)).status, 'ACTIVE');
      const done = await reaches(() => api.batchDialJobs.get(job.id), 'COMPLETE', 6000, 'the job completed');
      assert.equal(done.status, 'COMPLETE');
      const dials = await collect(paginate((o, c) => api.batchDialJobs.listDials(job.id, o, c), { limit: 2 }));
      assert.equal(dials.length, 5);
      assert.deepEqual(new Set(dials.map((dial) => dial.toNumber)), new Set(rows(5, 200).map((row) => row.toNumber)));
      for (const dial of dials) assert.deepEqual([dial.status, dial.systemResultType], ['completed', 'AGENT_HANGUP']);
      assert.deepEqual((await api.batchDialJobs.listQueue(job.id)).data, []);
      await rejectsWith(api.batchDialJobs.resume(job.id), 'unprocessable', 422);
    });

    test('list with filters and a cursor walk; update concurrency, numbers and schedule', async () => {
      const number = await api.phoneNumbers.create({ type: 'purchase', purchase: { number: '+15550109999' } });
      const job = await api.batchDialJobs.create({
        callAgentId: 'emu-silent-user',
        maxConcurrentDials: 1,
        name: 'Scheduled',
        rows: rows(1, 300),
        fromPhoneNumberIds: [number.id],
        schedule: {
          timezone: 'Europe/Berlin',
          days: [{ dayOfWeek: 1, timeSlots: [{ startTime: '09:00', endTime: '17:00' }] }],
        },
      });
      assert.deepEqual(job.fromPhoneNumberIds, [number.id]);
      const updated = await api.batchDialJobs.update(job.id, { maxConcurrentDials: 3, schedule: null });
      assert.equal(updated.maxConcurrentDials, 3);
      assert.equal(updated.schedule, null);
      assert.deepEqual(updated.fromPhoneNumberIds, [number.id]);
      const byAgent = await api.batchDialJobs.list({ callAgentId: 'emu-silent-user' });
      assert.deepEqual(
        byAgent.data.map((item: BatchDialJob) => item.id),
        [job.id],
      );
      const init = await collect(paginate((o, c) => api.batchDialJobs.list(o, c), { limit: 1 }, { status: 'INIT' }));
      assert.ok(init.length >= 2);
      assert.ok(init.every((item) => item.status === 'INIT'));
      const all = await collect(paginate((o, c) => api.batchDialJobs.list(o, c), { limit: 1 }));
      assert.ok(all.length >= 3);
    });

    test('job errors: missing fields 400, unknown agent, empty rows, bad numbers or concurrency 422, unknown job 404', async () => {
      const base = { callAgentId: 'emu-demo', maxConcurrentDials: 1, name: 'x', rows: rows(1) };
      await rejectsWith(api.batchDialJobs.create({ ...base, rows: undefined } as never), 'bad_request', 400);
      await rejectsWith(api.batchDialJobs.create({ ...base, callAgentId: 'nope' }), 'unprocessable', 422);
      await rejectsWith(api.batchDialJobs.create({ ...base, rows: [] }), 'unprocessable', 422);
      await rejectsWith(api.batchDialJobs.create({ ...base, rows: [{ toNumber: '555' }] }), 'unprocessable', 422);
      await rejectsWith(api.batchDialJobs.create({ ...base, maxConcurrentDials: 0 }), 'unprocessable', 422);
      await rejectsWith(api.batchDialJobs.create({ ...base, fromPhoneNumberIds: ['nope'] }), 'unprocessable', 422);
      await rejectsWith(
        api.batchDialJobs.create({
          ...base,
          rows: [{ toNumber: '+15550100100', inputs: { n: 1 as unknown as string } }],
        }),
        'bad_request',
        400,
      );
      await rejectsWith(api.batchDialJobs.get('nope'), 'not_found', 404);
      await rejectsWith(api.batchDialJobs.pause('nope'), 'not_found', 404);
      await rejectsWith(api.batchDialJobs.listQueue('nope'), 'not_found', 404);
      await rejectsWith(api.batchDialJobs.listDials('nope'), 'not_found', 404);
    });
  });

  describe('evaluations', () => {
    test('a run is PENDING, then COMPLETED with one result per record; a "[fail]" record fails with an alert', async () => {
      const config = await api.evals.createConfig({ name: 'Greeting quality', promptSnippet: 'Greets by name' });
      assert.equal(config.name, 'Greeting quality');
      const dial = await api.dials.create({ callAgentId: 'emu-demo', browserCall: true });
      const good = await api.evals.createRecord(config.id, {
        recordType: 'DIAL',
        dialId: dial.dialId,
        name: 'Real call',
      });
      const bad = await api.evals.createRecord(config.id, {
        recordType: 'PROMPT',
        name: 'Rude caller [fail]',
        systemPrompt: 'Be rude',
        maxTurns: 4,
      });
      await api.evals.createRecord(config.id, {
        recordType: 'PROMPT',
        name: 'Polite caller',
        description: 'asks nicely',
      });
      const run = await api.evals.run(config.id, { callAgentId: 'emu-demo' });
      assert.equal(run.status, 'PENDING');
      const completed = await reaches(() => api.evals.getRun(run.id), 'COMPLETED', 2000, 'the run completed');
      assert.deepEqual(completed.aggregateResult, { numFailing: 1, numPassing: 2 });
      const failing = present(present(completed.results).find((result) => !result.passed));
      assert.equal(failing.evalRecordId, bad.id);
      assert.equal(failing.numAlerts, 1);
      assert.ok(present(completed.results).some((result) => result.evalRecordId === good.id && result.passed));
      const runs = await api.evals.listRuns(config.id);
      assert.deepEqual(
        runs.data.map((item) => [item.id, item.status]),
        [[run.id, 'COMPLETED']],
      );
      await api.dials.hangup(dial.dialId);
    });

    test('records list with search and a cursor walk; delete answers {id}; rerun answers {numAlerts, results}', async () => {
      const config = await api.evals.createConfig({ name: 'Rerun' });
      const record = await api.evals.createRecord(config.id, { recordType: 'PROMPT', name: 'Flaky [fail]' });
      await api.evals.createRecord(config.id, {
        recordType: 'PROMPT',
        name: 'Steady',
        description: 'billing question',
      });
      await api.evals.createRecord(config.id, { recordType: 'PROMPT', name: 'Another' });
      const found = await api.evals.listRecords(config.id, { search: 'billing' });
      assert.deepEqual(
        found.data.map((item) => item.name),
        ['Steady'],
      );
      assert.equal((await collect(paginate((o, c) => api.evals.listRecords(config.id, o, c), { limit: 2 }))).length, 3);

      const run = await api.evals.run(config.id, { callAgentId: 'emu-demo', versionedPromptId: 'emu-demo-prompt-v1' });
      const completed = await eventually(async () => {
        const current = await api.evals.getRun(run.id);
        return current.status === 'COMPLETED' ? current : undefined;
      }, 2000);
      const failing = present(present(completed.results).find((result) => result.evalRecordId === record.id));
      const rerun = await api.evals.rerunResult(failing.id);
      assert.deepEqual(Object.keys(rerun).sort(), ['numAlerts', 'results']);
      assert.equal(rerun.numAlerts, 1);
      assert.deepEqual(
        rerun.results.map((item) => [item.index, item.accurate]),
        [[0, false]],
      );

      const deleted = await api.evals.deleteRecord(config.id, record.id);
      assert.deepEqual(deleted, { id: record.id });
      await rejectsWith(api.evals.deleteRecord(config.id, record.id), 'not_found', 404);
      await rejectsWith(api.evals.rerunResult(failing.id), 'unprocessable', 422);
      assert.equal((await api.evals.listRecords(config.id)).data.length, 2);
    });

    test('cancel turns a pending run CANCELLED; a finished run cannot be cancelled (422)', async () => {
      const { api: slow, emu: slowEmu } = await startApi({ evalRunMs: 60_000 });
      try {
        const config = await slow.evals.createConfig({ name: 'Slow' });
        const run = await slow.evals.run(config.id, { callAgentId: 'emu-demo' });
        const cancelled = await slow.evals.cancelRun(run.id);
        assert.equal(cancelled.status, 'CANCELLED');
        assert.equal((await slow.evals.getRun(run.id)).status, 'CANCELLED');
        await rejectsWith(slow.evals.cancelRun(run.id), 'unprocessable', 422);
      } finally {
        await slowEmu.close();
      }
    });

    test('evaluation errors: 400 for missing fields, 422 for unusable values, 404 for unknown ids', async () => {
      await rejectsWith(api.evals.createConfig({} as never), 'bad_request', 400);
      const config = await api.evals.createConfig({ name: 'Errors' });
      await rejectsWith(api.evals.createRecord(config.id, { recordType: 'CHAT' as 'DIAL' }), 'unprocessable', 422);
      await rejectsWith(api.evals.createRecord(config.id, { recordType: 'DIAL' }), 'unprocessable', 422);
      await rejectsWith(
        api.evals.createRecord(config.id, { recordType: 'DIAL', dialId: 'nope' }),
        'unprocessable',
        422,
      );
      await rejectsWith(api.evals.run(config.id, { callAgentId: 'nope' }), 'unprocessable', 422);
      await rejectsWith(
        api.evals.run(config.id, { callAgentId: 'emu-demo', versionedPromptId: 'nope' }),
        'unprocessable',
        422,
      );
      await rejectsWith(api.evals.run('nope', { callAgentId: 'emu-demo' }), 'not_found', 404);
      await rejectsWith(api.evals.listRuns('nope'), 'not_found', 404);
      await rejectsWith(api.evals.listRecords('nope'), 'not_found', 404);
      await rejectsWith(api.evals.getRun('nope'), 'not_found', 404);
      await rejectsWith(api.evals.cancelRun('nope'), 'not_found', 404);
    });
  });
});
