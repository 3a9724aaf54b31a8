// Issue 14, one test per correction against the seed document, each through `VoiceAgentApi`
// against the emulator over HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Emulator } from '../../src/emulator/index.js';
import { VoiceAgentApi } from '../../src/api/client.js';
import type { Dial, SystemResultType } from '../../src/api/types/index.js';
import type { ServiceError } from '../../src/api/service-error.js';
import { present, eventually, reaches, rejectsWith, startApi, newAgent } from './api-client-support.js';
import { readDocs } from '../../scripts/docs.js';

/** The service's error body, kept on `cause` by VoiceAgentApi. */
const errorBody = (error: ServiceError) =>
  (
    error.cause as {
      body: { error: { code: string; message: string; field?: string; dialId?: string; sessionId?: string } };
    }
  ).body.error;

describe('issue 14: seed fidelity', () => {
  let emu: Emulator;
  let api: VoiceAgentApi;
  let fromNumberId: string;
  before(async () => {
    ({ emu, api } = await startApi());
    fromNumberId = (await api.phoneNumbers.create({ type: 'purchase', purchase: { number: '+15550142000' } })).id;
  });
  after(() => emu.close());

  const ended = (client: VoiceAgentApi, dialId: string, ms = 4000) =>
    eventually(
      async () => {
        const dial = await client.dials.get(dialId);
        return ['completed', 'failed', 'canceled', 'busy', 'no-answer'].includes(dial.status) ? dial : undefined;
      },
      ms,
      `dial ${dialId} ended`,
    );

  test('1. dial tasks live at POST /tasks, /tasks/{taskId}/attempt and /tasks/{taskId}/complete', async () => {
    const task = await api.dialTasks.create({
      callAgentId: 'emu-quick',
      inputData: { order: 'o-7' },
      keyInputs: ['order'],
    });
    assert.equal(task.status, 'PENDING');
    const attempt = await api.dialTasks.createAttempt(task.id, {
      fromPhoneNumberId: fromNumberId,
      toNumber: '+15550142001',
    });
    assert.deepEqual(Object.keys(attempt).sort(), ['dialId', 'dialToken', 'sessionId', 'telephonyProvider']);
    const dial = await ended(api, attempt.dialId);
    assert.equal(dial.dialTaskId, task.id);
    const done = await api.dialTasks.complete(task.id, { dialId: attempt.dialId });
    assert.deepEqual([done.status, done.completedDialId], ['COMPLETED', attempt.dialId]);
    // The old convention is gone from the emulator.
    const old = await fetch(`${emu.apiUrl}/dial_tasks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.apiKey}` },
      body: '{}',
    });
    assert.equal(old.status, 404);
  });

  test('2. DELETE /eval_configs/{id}/records/{recordId} answers {id}; only under its own config', async () => {
    const config = await api.evals.createConfig({ name: 'Deletes' });
    const other = await api.evals.createConfig({ name: 'Other' });
    const record = await api.evals.createRecord(config.id, { recordType: 'PROMPT', name: 'To delete' });
    await rejectsWith(api.evals.deleteRecord(other.id, record.id), 'not_found', 404);
    assert.deepEqual(await api.evals.deleteRecord(config.id, record.id), { id: record.id });
    assert.deepEqual((await api.evals.listRecords(config.id)).data, []);
    await rejectsWith(api.evals.deleteRecord(config.id, record.id), 'not_found', 404);
    await rejectsWith(api.evals.deleteRecord('no-config', record.id), 'not_found', 404);
  });

  test('3. a rerun answers {numAlerts, results: [{index, accurate, modelOutput, reason}]} and can be re-judged again under its id', async () => {
    const config = await api.evals.createConfig({ name: 'Rerun twice' });
    const busy = await api.dials.create({ callAgentId: 'emu-demo', toNumber: '+15550140486', fromNumberId });
    await ended(api, busy.dialId);
    const record = await api.evals.createRecord(config.id, {
      recordType: 'DIAL',
      dialId: busy.dialId,
      name: 'Busy line',
    });
    const run = await api.evals.run(config.id, { callAgentId: 'emu-demo' });
    const completed = await reaches(() => api.evals.getRun(run.id), 'COMPLETED', 2000, 'the run completed');
    const result = present(present(completed.results).find((item) => item.evalRecordId === record.id));
    assert.equal(result.numAlerts, 1);
    for (let round = 0; round < 2; round++) {
      const rerun = await api.evals.rerunResult(result.id);
      assert.deepEqual(Object.keys(rerun).sort(), ['numAlerts', 'results']);
      assert.equal(rerun.numAlerts, 1);
      for (const item of rerun.results)
        assert.deepEqual(Object.keys(item).sort(), ['accurate', 'index', 'modelOutput', 'reason']);
      assert.deepEqual(
        rerun.results.map((item) => [item.index, item.accurate]),
        [
          [0, true],
          [1, false],
        ],
      );
      assert.match(present(rerun.results[1]).reason, /busy/);
    }
    const after = await api.evals.getRun(run.id);
    assert.ok(
      present(after.results).some((item) => item.id === result.id),
      'the re-judged result kept its id in the run',
    );
  });

  test('4. agent voicemailConfig, ivrSilenceHangupConfiguration, timeoutMessage and lifecycle overrides are stored and returned as sent', async () => {
    const voicemailConfig = { detect: true, action: 'LEAVE_MESSAGE', message: 'Call us back.' };
    const ivrSilenceHangupConfiguration = { type: 'WHOLE_CALL', silenceDurationSeconds: 20 };
    const lifecycleMessagesOverride = {
      started: ['Checking.'],
      waiting: ['Still checking.'],
      awaitSpeech: ['Go ahead.'],
    };
    const agent = await api.agents.create(
      newAgent('Seed fields', {
        voicemailConfig,
        ivrSilenceHangupConfiguration,
        timeoutMessage: 'We are out of time, goodbye.',
        linkedFunctionDefinitionInputs: [{ functionDefinitionId: 'emu-function-lookup', lifecycleMessagesOverride }],
      }),
    );
    for (const read of [agent, await api.agents.get(agent.id)]) {
      assert.deepEqual(read.voicemailConfig, voicemailConfig);
      assert.deepEqual(read.ivrSilenceHangupConfiguration, ivrSilenceHangupConfiguration);
      assert.equal(read.timeoutMessage, 'We are out of time, goodbye.');
      assert.deepEqual(read.linkedFunctionDefinitions, [
        { functionDefinitionId: 'emu-function-lookup', lifecycleMessagesOverride },
      ]);
    }
    const updated = await api.agents.update(agent.id, { voicemailConfig: null, timeoutMessage: 'Time is up.' });
    assert.equal(updated.voicemailConfig, null);
    assert.equal(updated.timeoutMessage, 'Time is up.');
    assert.deepEqual(updated.ivrSilenceHangupConfiguration, ivrSilenceHangupConfiguration);
    await rejectsWith(api.agents.update(agent.id, { voicemailConfig: 'on' as never }), 'bad_request', 400);
  });

  test('5. flow responses carry openingLineType, outputSchema, conditionType and arrayConditionType; requests may leave them out', async () => {
    const agent = await api.agents.create(newAgent('Flow fields'));
    const prompt = await api.versionedPrompts.create(agent.id, {
      aiModelId: 'emu-model-flow',
      agentType: 'CUSTOM_FLOW',
      name: 'flow',
      flowDefinition: {
        nodes: [
          {
            id: 'a',
            name: 'A',
            type: 'say',
            transitionRules: [{ transitionNodeId: 'b' }, { transitionNodeId: 'c', field: 'answer', value: 'yes' }],
          },
          {
            id: 'b',
            name: 'B',
            type: 'prompt',
            transitionRules: [{ transitionNodeId: 'a', field: 'tags', values: ['x'], arrayConditionType: 'any' }],
            outputSchema: { type: 'object' },
          },
          {
            id: 'c',
            name: 'C',
            type: 'end',
            transitionRules: [{ conditionType: 'greater', field: 'n', value: 3, transitionNodeId: 'a' }],
          },
        ],
      },
    });
    const flow = present((await api.versionedPrompts.get(agent.id, prompt.id)).flowDefinition);
    assert.equal(flow.openingLineType, 'INBOUND_OUTBOUND');
    assert.deepEqual(
      flow.nodes.map((node) => node.outputSchema),
      [null, { type: 'object' }, null],
    );
    assert.deepEqual(
      flow.nodes.flatMap((node) => node.transitionRules.map((rule) => [rule.conditionType, rule.arrayConditionType])),
      [
        ['always', null],
        ['equal', null],
        ['in', 'any'],
        ['greater', null],
      ],
    );
  });

  test('6. GET /functions?displayName= is an exact match', async () => {
    assert.deepEqual(
      (await api.functions.list({ displayName: 'Transfer to front desk' })).data.map((fn) => fn.id),
      ['emu-function-transfer'],
    );
    assert.deepEqual((await api.functions.list({ displayName: 'front desk' })).data, []);
    assert.deepEqual((await api.functions.list({ displayName: 'transfer to front desk' })).data, []);
  });

  describe('7. POST /dials', () => {
    test('an id that names nothing answers 422 naming the field', async () => {
      const agent = await api.agents.create(newAgent('Id checks'));
      const cases: [string, Record<string, unknown>][] = [
        ['callAgentId', { callAgentId: 'no-such-agent', browserCall: true }],
        ['fromNumberId', { callAgentId: agent.id, toNumber: '+15550142002', fromNumberId: 'no-such-number' }],
        ['fromNumberPoolId', { callAgentId: agent.id, toNumber: '+15550142002', fromNumberPoolId: 'no-such-pool' }],
        ['aiVoiceId', { callAgentId: agent.id, browserCall: true, aiVoiceId: 'no-such-voice' }],
        ['versionedModelId', { callAgentId: agent.id, browserCall: true, versionedModelId: 'emu-demo-prompt-v1' }],
        [
          'callAgentExtractorId',
          { callAgentId: agent.id, browserCall: true, callAgentExtractorId: 'emu-quick-extractor' },
        ],
      ];
      for (const [field, body] of cases) {
        const error = await rejectsWith(api.dials.create(body as never), 'unprocessable', 422);
        assert.equal(error.status, 422, field);
      }
      // The dial client keeps no error body; the field is named in the service's answer.
      for (const [field, body] of cases) {
        const response = await fetch(`${emu.apiUrl}/dials`, {
          method: 'POST',
          headers: { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const answer = (await response.json()) as { error: { field: string; message: string } };
        assert.equal(response.status, 422, field);
        assert.equal(answer.error.field, field);
        assert.ok(answer.error.message.startsWith(field), answer.error.message);
      }
      // The same ids, when they name something, are accepted.
      const pool = await api.phoneNumberPools.create({ name: 'Outbound', phoneNumberIds: [fromNumberId] });
      const extractor = await api.extractors.create(agent.id, {
        name: 'x',
        extractorFieldsJsonSchema: '{"type":"object"}',
      });
      const good = await api.dials.create({
        callAgentId: agent.id,
        toNumber: '+15550142003',
        fromNumberPoolId: pool.id,
        aiVoiceId: 'emu-voice-espeak-de',
        versionedModelId: present(agent.defaultVersionedPromptId),
        callAgentExtractorId: extractor.id,
      });
      const dial = await api.dials.get(good.dialId);
      assert.equal(dial.voiceId, 'emu-voice-espeak-de');
      await api.dials.hangup(good.dialId);
    });

    test("agentOverrides are applied to the dial's agent record, not to the agent", async () => {
      const agent = await api.agents.create(newAgent('Overridden'));
      const created = await api.dials.create({
        callAgentId: agent.id,
        browserCall: true,
        agentOverrides: {
          defaultVoiceId: 'emu-voice-espeak-de',
          language: 'de',
          maxDurationSeconds: 120,
          metadata: { campaign: 'spring' },
          utteranceDetectorConfig: { sensitivity: 'FAST' },
          silenceHangupConfiguration: { type: 'WHOLE_CALL', silenceDurationSeconds: 9 },
          timeoutMessage: 'Zeit ist um.',
          defaultVersionedPrompt: {
            aiModelId: 'emu-model-large',
            agentType: 'STANDARD',
            name: 'override',
            prompt: 'Sprich Deutsch.',
          },
        },
      });
      const dial: Dial = await api.dials.get(created.dialId);
      assert.equal(present(dial.agent).id, agent.id);
      assert.equal(present(dial.agent).defaultVoiceId, 'emu-voice-espeak-de');
      assert.equal(dial.voiceId, 'emu-voice-espeak-de');
      assert.equal(present(dial.agent).language, 'de');
      assert.equal(present(dial.agent).maxDurationSeconds, 120);
      assert.deepEqual(present(dial.agent).metadata, { campaign: 'spring' });
      assert.equal(present(present(dial.agent).utteranceDetectorConfig).sensitivity, 'FAST');
      assert.deepEqual(present(dial.agent).silenceHangupConfiguration, {
        type: 'WHOLE_CALL',
        silenceDurationSeconds: 9,
      });
      assert.equal(present(dial.agent).timeoutMessage, 'Zeit ist um.');
      assert.notEqual(present(dial.agent).defaultVersionedPromptId, agent.defaultVersionedPromptId);
      assert.equal(dial.versionedPromptId, present(dial.agent).defaultVersionedPromptId);
      assert.deepEqual(await api.agents.get(agent.id), agent, 'the agent itself is unchanged');
      await api.dials.hangup(created.dialId);

      // An override's scenario drives the dial like any agent's.
      const busy = await api.dials.create({
        callAgentId: agent.id,
        browserCall: true,
        agentOverrides: { metadata: { scenario: 'emu-busy' } },
      });
      assert.equal((await api.dials.get(busy.dialId)).systemResultType, 'RATE_LIMITED');

      for (const [field, agentOverrides] of [
        ['agentOverrides.defaultVoiceId', { defaultVoiceId: 'no-such-voice' }],
        ['agentOverrides.metadata.scenario', { metadata: { scenario: 'emu-nothing' } }],
        [
          'agentOverrides.defaultVersionedPrompt.aiModelId',
          { defaultVersionedPrompt: { aiModelId: 'no-model', agentType: 'STANDARD', name: 'x' } },
        ],
      ] as const) {
        const response = await fetch(`${emu.apiUrl}/dials`, {
          method: 'POST',
          headers: { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ callAgentId: agent.id, browserCall: true, agentOverrides }),
        });
        assert.equal(response.status, 422, field);
        assert.equal(((await response.json()) as { error: { field: string } }).error.field, field);
      }
      await rejectsWith(
        api.dials.create({ callAgentId: agent.id, browserCall: true, agentOverrides: { language: 7 as never } }),
        'bad_request',
        400,
      );
    });
  });

  describe('8. dial statuses', () => {
    /** How the test makes each seed value, by phone dial; `Record` makes the compiler demand all of them. */
    const producers: Record<
      SystemResultType,
      {
        agent?: string;
        toNumber: string;
        status: string;
        hangup?: 'before-answer' | 'in-progress';
        on?: 'slow' | 'ringing';
        timeoutMinutes?: number;
      }
    > = {
      BUSY: { toNumber: '+15550150486', status: 'busy' },
      NO_ANSWER: { toNumber: '+15550150408', status: 'no-answer' },
      FAILED: { toNumber: '+15550150503', status: 'failed' },
      VOICEMAIL_DETECTED_HANGUP: { toNumber: '+15550150601', status: 'completed' },
      COUNTERPARTY_HANGUP: { toNumber: '+15550150602', status: 'completed' },
      TRANSFERRED: { toNumber: '+15550150603', status: 'completed' },
      AGENT_HANGUP: { toNumber: '+15550150100', status: 'completed' },
      RATE_LIMITED: { agent: 'emu-busy', toNumber: '+15550150101', status: 'failed' },
      LONG_SILENCE_HANGUP: { agent: 'emu-silent-user', toNumber: '+15550150102', status: 'completed' },
      CANCELLED: { toNumber: '+15550150103', status: 'canceled', hangup: 'before-answer', on: 'ringing' },
      USER_HANGUP: { toNumber: '+15550150104', status: 'completed', hangup: 'in-progress', on: 'slow' },
      TIMEOUT: { toNumber: '+15550150105', status: 'completed', on: 'slow', timeoutMinutes: 1 },
    };

    test('a phone dial to a busy line ends busy / BUSY without being answered', async () => {
      const created = await api.dials.create({ callAgentId: 'emu-demo', toNumber: '+15550160486', fromNumberId });
      const dial = await ended(api, created.dialId);
      assert.deepEqual(
        [dial.status, dial.systemResultType, dial.startedAt, dial.durationSeconds],
        ['busy', 'BUSY', null, 0],
      );
      assert.deepEqual(await api.dials.hangup(created.dialId), { success: true });
      assert.equal((await api.dials.get(created.dialId)).status, 'busy', 'a busy dial is terminal');
    });

    test('every systemResultType the seed lists is produced by a scenario or phone-number rule', async () => {
      // Two more emulators: one whose answered calls last long enough to hang up mid-call (and a
      // minute lasts 100 ms), one whose calls ring for a minute (a hangup surely comes first).
      const slow = await startApi({ phoneRingMs: 40, phoneTalkMs: 60_000, minuteMs: 100 });
      const ringing = await startApi({ phoneRingMs: 60_000 });
      try {
        const numbers = {
          slow: (await slow.api.phoneNumbers.create({ type: 'purchase', purchase: { number: '+15550142999' } })).id,
          ringing: (await ringing.api.phoneNumbers.create({ type: 'purchase', purchase: { number: '+15550142998' } }))
            .id,
        };
        const runs = Object.entries(producers).map(async ([expected, how]) => {
          const client = how.on ? { slow, ringing }[how.on].api : api;
          const created = await client.dials.create({
            callAgentId: how.agent ?? 'emu-demo',
            toNumber: how.toNumber,
            fromNumberId: how.on ? numbers[how.on] : fromNumberId,
            ...(how.timeoutMinutes ? { timeoutMinutes: how.timeoutMinutes } : {}),
          });
          if (how.hangup === 'before-answer') await client.dials.hangup(created.dialId);
          if (how.hangup === 'in-progress') {
            await eventually(
              async () => ((await client.dials.get(created.dialId)).status === 'in-progress' ? true : undefined),
              3000,
              'answered',
            );
            await client.dials.hangup(created.dialId);
          }
          const dial = await ended(client, created.dialId, 6000);
          assert.deepEqual([dial.status, dial.systemResultType], [how.status, expected], how.toNumber);
        });
        await Promise.all(runs);
      } finally {
        await Promise.all([slow.emu.close(), ringing.emu.close()]);
      }
    });

    test('the README has a table saying what produces each systemResultType', async () => {
      const readme = readDocs();
      const start = readme.indexOf('### What ends a dial');
      assert.notEqual(start, -1, 'README section "What ends a dial"');
      const section = readme.slice(start, readme.indexOf('\n### ', start + 1));
      for (const [value, how] of Object.entries(producers)) {
        assert.match(section, new RegExp(`\`${value}\``), value);
        if (/0486|0408|0503|0601|0602|0603/.test(how.toNumber))
          assert.ok(section.includes(how.toNumber.slice(-4)), `${value}: ${how.toNumber.slice(-4)}`);
      }
    });
  });

  describe('9. pagination', () => {
    test("limit above the emulator's cap of 100 answers 100; the default is 100", async () => {
      const { api: many, emu: manyEmu } = await startApi();
      try {
        for (let index = 0; index < 103; index++)
          await many.functions.create({ name: `f${index}`, description: 'bulk', type: 'api' });
        assert.equal((await many.functions.list()).data.length, 100);
        const capped = await many.functions.list({ limit: 1000 });
        assert.equal(capped.data.length, 100);
        assert.notEqual(capped.cursor, null);
        const rest = await many.functions.list({ limit: 1000, cursor: capped.cursor });
        assert.deepEqual([rest.data.length, rest.cursor], [106 - 100, null]);
      } finally {
        await manyEmu.close();
      }
    });

    test('cursors are opaque, and a cursor from one listing is refused by another with a clear 400', async () => {
      const agents = await api.agents.list({ limit: 2 });
      const cursor = present(agents.cursor);
      assert.ok(!/^\d+$/.test(cursor) && !cursor.includes('"'), 'not a bare offset');
      assert.equal((await api.agents.list({ limit: 2, cursor })).data.length, 2);
      const elsewhere = await rejectsWith(api.models.list({ cursor }), 'bad_request', 400);
      assert.match(errorBody(elsewhere).message, /another listing \(GET \/agents\)/);
      await rejectsWith(api.versionedPrompts.list('emu-demo', { cursor }), 'bad_request', 400);
      // The same path with other filters is another listing too.
      const filtered = await api.voices.list({ limit: 1, name: 'espeak' });
      await rejectsWith(api.voices.list({ limit: 1, name: 'tone', cursor: filtered.cursor }), 'bad_request', 400);
      // Tampered, or issued by another emulator process's listing of the same path: refused.
      const tampered = `${cursor.slice(0, -2)}${cursor.endsWith('AA') ? 'BB' : 'AA'}`;
      const forged = await rejectsWith(api.agents.list({ cursor: tampered }), 'bad_request', 400);
      assert.match(errorBody(forged).message, /not one this API issued/);
      await rejectsWith(api.agents.list({ cursor: '2' }), 'bad_request', 400);
    });
  });

  describe('10. idempotency modes', () => {
    test('replay (default): a reused key with the same body gets the first dial; another body a 409 naming it', async () => {
      const first = await api.dials.create(
        { callAgentId: 'emu-demo', browserCall: true },
        { idempotencyKey: 'fidelity-replay' },
      );
      const again = await api.dials.create(
        { callAgentId: 'emu-demo', browserCall: true },
        { idempotencyKey: 'fidelity-replay' },
      );
      assert.equal(again.dialId, first.dialId);
      const conflict = await rejectsWith(
        api.dials.create({ callAgentId: 'emu-quick', browserCall: true }, { idempotencyKey: 'fidelity-replay' }),
        'conflict',
        409,
      );
      assert.deepEqual(conflict.conflictingDial, { dialId: first.dialId, sessionId: first.sessionId });
      await api.dials.hangup(first.dialId);
    });

    test('strict: every reuse of a key answers 409 naming the first dial (dialId and sessionId)', async () => {
      const strict = await startApi({ idempotency: 'strict' });
      try {
        const first = await strict.api.dials.create(
          { callAgentId: 'emu-demo', browserCall: true },
          { idempotencyKey: 'fidelity-strict' },
        );
        for (const body of [
          { callAgentId: 'emu-demo', browserCall: true },
          { callAgentId: 'emu-quick', browserCall: true },
        ]) {
          const conflict = await rejectsWith(
            strict.api.dials.create(body, { idempotencyKey: 'fidelity-strict' }),
            'conflict',
            409,
          );
          assert.deepEqual(conflict.conflictingDial, { dialId: first.dialId, sessionId: first.sessionId });
        }
        const other = await strict.api.dials.create(
          { callAgentId: 'emu-demo', browserCall: true },
          { idempotencyKey: 'fidelity-strict-2' },
        );
        assert.notEqual(other.dialId, first.dialId);
        const plain = new VoiceAgentApi({ baseUrl: strict.emu.apiUrl, apiKey: strict.emu.apiKey });
        const listed = await plain.dials.get(first.dialId);
        assert.equal(listed.status, 'queued', 'the 409s created no dial and touched none');
      } finally {
        await strict.emu.close();
      }
    });
  });
});
