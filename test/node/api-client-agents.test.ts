// The typed client against the emulator over HTTP: agents, versioned prompts, extractors,
// models, voices and functions — shapes, envelopes, pagination walks and error statuses.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SCENARIO_AGENT_IDS, type Emulator } from '../../src/emulator/index.js';
import type { VoiceAgentApi } from '../../src/api/client.js';
import { paginate } from '../../src/api/paginate.js';
import type { CreateAgentInput, FlowDefinition, FlowDefinitionInput } from '../../src/api/types/index.js';
import { collect, present, rejectsWith, startApi, newAgent } from './api-client-support.js';

const flow: FlowDefinitionInput = {
  nodes: [
    {
      id: 'start',
      name: 'Greeting',
      type: 'say',
      transitionRules: [{ conditionType: 'always', transitionNodeId: 'ask' }],
      nodeData: { text: 'Hi' },
    },
    {
      id: 'ask',
      name: 'Ask',
      type: 'prompt',
      transitionRules: [{ conditionType: 'equal', field: 'answer', value: 'yes', transitionNodeId: 'start' }],
    },
  ],
  openingLineType: 'INBOUND_OUTBOUND',
};

/** `flow` as answered: the response-only fields filled in. */
const flowAnswered: FlowDefinition = {
  nodes: [
    {
      ...present(flow.nodes[0]),
      outputSchema: null,
      transitionRules: [{ conditionType: 'always', transitionNodeId: 'ask', arrayConditionType: null }],
    },
    {
      ...present(flow.nodes[1]),
      outputSchema: null,
      transitionRules: [
        { conditionType: 'equal', field: 'answer', value: 'yes', transitionNodeId: 'start', arrayConditionType: null },
      ],
    },
  ],
  openingLineType: 'INBOUND_OUTBOUND',
};

describe('VoiceAgentApi: agents, prompts, extractors, catalogue', () => {
  let emu: Emulator;
  let api: VoiceAgentApi;
  before(async () => {
    ({ emu, api } = await startApi());
  });
  after(() => emu.close());

  describe('agents', () => {
    test('lists the scenario agents in a {data, cursor} envelope; a walk with limit 2 sees each once', async () => {
      const first = await api.agents.list();
      assert.deepEqual(Object.keys(first).sort(), ['cursor', 'data']);
      assert.deepEqual(
        first.data.map((agent) => agent.id),
        [...SCENARIO_AGENT_IDS],
      );
      assert.equal(first.cursor, null);
      const pageOfTwo = await api.agents.list({ limit: 2 });
      assert.equal(pageOfTwo.data.length, 2);
      assert.equal(typeof pageOfTwo.cursor, 'string');
      const walked = await collect(paginate((options, call) => api.agents.list(options, call), { limit: 2 }));
      assert.deepEqual(
        walked.map((agent) => agent.id),
        [...SCENARIO_AGENT_IDS],
      );
    });

    test('create, get, update and delete; DELETE answers the deleted agent and later reads are 404', async () => {
      const created = await api.agents.create(
        newAgent('Support line', {
          metadata: { team: 'support' },
          language: 'de',
          defaultExtractor: {
            name: 'Summary',
            extractorFieldsJsonSchema: JSON.stringify({ type: 'object', properties: { summary: { type: 'string' } } }),
          },
          transcriberParams: { type: 'openai', keywords: ['Acme'] },
          linkedFunctionDefinitionInputs: [
            { functionDefinitionId: 'emu-function-lookup', lifecycleMessagesOverride: { started: ['Checking.'] } },
          ],
        }),
      );
      assert.match(created.id, /^[0-9a-f-]{36}$/);
      assert.equal(created.name, 'Support line');
      assert.equal(created.language, 'de');
      assert.equal(created.maxDurationSeconds, 10800);
      assert.deepEqual(created.transcriberParams, { type: 'openai', keywords: ['Acme'] });
      assert.deepEqual(created.linkedFunctionDefinitions, [
        { functionDefinitionId: 'emu-function-lookup', lifecycleMessagesOverride: { started: ['Checking.'] } },
      ]);
      assert.equal(typeof created.defaultExtractorId, 'string');
      assert.deepEqual(await api.agents.get(created.id), created);
      assert.ok(
        (await collect(paginate((o, c) => api.agents.list(o, c), { limit: 4 }))).some(
          (agent) => agent.id === created.id,
        ),
      );

      const updated = await api.agents.update(created.id, {
        name: 'Support line 2',
        maxDurationSeconds: 600,
        callAgentExtractorId: '',
      });
      assert.equal(updated.name, 'Support line 2');
      assert.equal(updated.maxDurationSeconds, 600);
      assert.equal(updated.defaultExtractorId, null);
      assert.equal(updated.language, 'de');

      const deleted = await api.agents.delete(created.id);
      assert.equal(deleted.id, created.id);
      assert.equal(deleted.name, 'Support line 2');
      await rejectsWith(api.agents.get(created.id), 'not_found', 404);
      await rejectsWith(api.agents.delete(created.id), 'not_found', 404);
      await rejectsWith(api.agents.update(created.id, { name: 'x' }), 'not_found', 404);
    });

    test('a created agent is dialable, behaves like emu-demo, or like the scenario its metadata names', async () => {
      const plain = await api.agents.create(newAgent('Plain'));
      const quick = await api.agents.create(newAgent('Quick', { metadata: { scenario: 'emu-quick' } }));
      const busy = await api.agents.create(newAgent('Busy', { metadata: { scenario: 'emu-busy' } }));
      const plainDial = await api.dials.create({ callAgentId: plain.id, browserCall: true });
      const quickDial = await api.dials.create({ callAgentId: quick.id, browserCall: true });
      assert.equal(emu.control.sessionForRoom(`dial-${plainDial.dialId}`)?.scenario, 'emu-demo');
      assert.equal(emu.control.sessionForRoom(`dial-${quickDial.dialId}`)?.scenario, 'emu-quick');
      const record = await api.dials.get(plainDial.dialId);
      assert.equal(record.status, 'queued');
      assert.equal(record.agent?.id, plain.id);
      assert.equal(record.versionedPromptId, plain.defaultVersionedPromptId);
      const busyDial = await api.dials.create({ callAgentId: busy.id, browserCall: true });
      const busyRecord = await api.dials.get(busyDial.dialId);
      assert.equal(busyRecord.status, 'failed');
      assert.equal(busyRecord.systemResultType, 'RATE_LIMITED');
      await api.dials.hangup(plainDial.dialId);
      await api.dials.hangup(quickDial.dialId);
    });

    test('a deleted agent can no longer be dialled (422); scenario agents cannot be deleted (422)', async () => {
      const agent = await api.agents.create(newAgent('Short-lived'));
      await api.agents.delete(agent.id);
      await rejectsWith(api.dials.create({ callAgentId: agent.id, browserCall: true }), 'unprocessable', 422);
      await rejectsWith(api.agents.delete('emu-demo'), 'unprocessable', 422);
      assert.equal((await api.agents.get('emu-demo')).id, 'emu-demo');
    });

    test('invalid agents: wrong types or missing fields 400, unusable values 422', async () => {
      const bad = (body: unknown) => api.agents.create(body as CreateAgentInput);
      await rejectsWith(
        bad({ defaultVoiceId: 'emu-voice-tone', defaultVersionedPrompt: newAgent('x').defaultVersionedPrompt }),
        'bad_request',
        400,
      );
      await rejectsWith(bad({ ...newAgent('x'), name: 7 }), 'bad_request', 400);
      await rejectsWith(bad({ ...newAgent('x'), defaultVersionedPrompt: 'prompt' }), 'bad_request', 400);
      await rejectsWith(bad({ ...newAgent('x'), defaultVoiceId: 'no-such-voice' }), 'unprocessable', 422);
      await rejectsWith(bad({ ...newAgent('x'), name: '  ' }), 'unprocessable', 422);
      await rejectsWith(bad({ ...newAgent('x'), backgroundNoiseType: 'jungle' }), 'unprocessable', 422);
      await rejectsWith(bad({ ...newAgent('x'), metadata: { scenario: 'emu-unknown' } }), 'unprocessable', 422);
      await rejectsWith(
        bad({ ...newAgent('x'), defaultVersionedPrompt: { aiModelId: 'gpt-nope', agentType: 'STANDARD', name: 'v1' } }),
        'unprocessable',
        422,
      );
      await rejectsWith(
        bad({ ...newAgent('x'), utteranceDetectorConfig: { sensitivity: 'SLEEPY' } }),
        'unprocessable',
        422,
      );
      await rejectsWith(
        bad({ ...newAgent('x'), linkedFunctionDefinitionInputs: [{ functionDefinitionId: 'nope' }] }),
        'unprocessable',
        422,
      );
      await rejectsWith(
        api.agents.update('emu-demo', { defaultVersionedPromptId: 'not-a-prompt' }),
        'unprocessable',
        422,
      );
      await rejectsWith(
        api.agents.update('emu-demo', { callAgentExtractorId: 'not-an-extractor' }),
        'unprocessable',
        422,
      );
      await rejectsWith(api.agents.get('no-such-agent'), 'not_found', 404);
    });
  });

  describe('versioned prompts', () => {
    test('STANDARD and CUSTOM_FLOW prompts: create, get, update, list with a cursor walk; the agent can switch to one', async () => {
      const agent = await api.agents.create(newAgent('Prompted'));
      const standard = await api.versionedPrompts.create(agent.id, {
        aiModelId: 'emu-model-large',
        agentType: 'STANDARD',
        name: 'v2',
        prompt: 'Hello {{name}}',
        modelOptionValues: [{ optionId: 'temperature', value: '0.2' }],
      });
      assert.equal(standard.agentType, 'STANDARD');
      assert.equal(standard.prompt, 'Hello {{name}}');
      assert.equal(standard.flowDefinition, null);
      const flowPrompt = await api.versionedPrompts.create(agent.id, {
        aiModelId: 'emu-model-flow',
        agentType: 'CUSTOM_FLOW',
        name: 'flow',
        flowDefinition: flow,
      });
      assert.deepEqual(flowPrompt.flowDefinition, flowAnswered);
      assert.equal(flowPrompt.prompt, null);
      assert.deepEqual(await api.versionedPrompts.get(agent.id, flowPrompt.id), flowPrompt);
      const renamed = await api.versionedPrompts.update(agent.id, standard.id, { name: 'v2.1' });
      assert.equal(renamed.name, 'v2.1');
      assert.equal(renamed.prompt, 'Hello {{name}}');
      const listed = await api.versionedPrompts.list(agent.id, { limit: 2 });
      assert.equal(listed.data.length, 2);
      assert.notEqual(listed.cursor, null);
      const all = await collect(paginate((o, c) => api.versionedPrompts.list(agent.id, o, c), { limit: 1 }));
      assert.deepEqual(
        all.map((prompt) => prompt.id),
        [agent.defaultVersionedPromptId, standard.id, flowPrompt.id],
      );
      const switched = await api.agents.update(agent.id, { defaultVersionedPromptId: flowPrompt.id });
      assert.equal(switched.defaultVersionedPromptId, flowPrompt.id);
    });

    test('prompt errors: CUSTOM_FLOW without a flow 422, unknown model option 422, wrong type 400, unknown ids 404', async () => {
      // A prompt of emu-demo on the small model, with `fields` added (or wrongly typed).
      const create = (fields: Record<string, unknown>) =>
        api.versionedPrompts.create('emu-demo', {
          aiModelId: 'emu-model-small',
          agentType: 'STANDARD',
          name: 'p',
          ...fields,
        } as Parameters<VoiceAgentApi['versionedPrompts']['create']>[1]);
      await rejectsWith(create({ agentType: 'CUSTOM_FLOW', name: 'f' }), 'unprocessable', 422);
      await rejectsWith(create({ modelOptionValues: [{ optionId: 'max-tokens', value: '9' }] }), 'unprocessable', 422);
      await rejectsWith(create({ agentType: 'SIMPLE' }), 'unprocessable', 422);
      await rejectsWith(create({ name: 5 }), 'bad_request', 400);
      await rejectsWith(api.versionedPrompts.get('emu-demo', 'nope'), 'not_found', 404);
      await rejectsWith(api.versionedPrompts.list('no-agent'), 'not_found', 404);
      await rejectsWith(api.versionedPrompts.list('emu-demo', { cursor: 'not-a-cursor' }), 'bad_request', 400);
    });
  });

  describe('extractors', () => {
    test('answer {extractors} without a cursor; create, get, update; the schema is held as text', async () => {
      const quick = await api.extractors.list('emu-quick');
      assert.deepEqual(Object.keys(quick), ['extractors']);
      assert.equal(quick.extractors[0]?.id, 'emu-quick-extractor');
      assert.deepEqual((await api.extractors.list('emu-demo')).extractors, []);
      const schema = JSON.stringify({
        type: 'object',
        properties: { sentiment: { type: 'string', enum: ['good', 'bad'] } },
      });
      const created = await api.extractors.create('emu-demo', { name: 'Sentiment', extractorFieldsJsonSchema: schema });
      assert.equal(created.extractorFieldsJsonSchema, schema);
      assert.deepEqual(await api.extractors.get('emu-demo', created.id), created);
      const updated = await api.extractors.update('emu-demo', created.id, { name: 'Mood' });
      assert.deepEqual(updated, { ...created, name: 'Mood' });
      assert.deepEqual((await api.extractors.list('emu-demo')).extractors, [updated]);
      await rejectsWith(
        api.extractors.create('emu-demo', { name: 'Broken', extractorFieldsJsonSchema: '{not json' }),
        'unprocessable',
        422,
      );
      await rejectsWith(
        api.extractors.create('emu-demo', {
          name: 'Object',
          extractorFieldsJsonSchema: { type: 'object' } as unknown as string,
        }),
        'bad_request',
        400,
      );
      await rejectsWith(api.extractors.get('emu-demo', 'nope'), 'not_found', 404);
      await rejectsWith(api.extractors.update('no-agent', created.id, { name: 'x' }), 'not_found', 404);
    });
  });

  describe('models, voices, functions', () => {
    test('models: {data, cursor}, each with its options; walked one at a time', async () => {
      const models = await api.models.list();
      assert.deepEqual(Object.keys(models).sort(), ['cursor', 'data']);
      assert.ok(models.data.length >= 3);
      for (const model of models.data) {
        assert.equal(typeof model.name, 'string');
        for (const option of model.modelOptions) assert.ok(['STRING', 'INT', 'FLOAT'].includes(option.valueType));
      }
      assert.deepEqual(
        (await collect(paginate((o, c) => api.models.list(o, c), { limit: 1 }))).map((model) => model.id),
        models.data.map((model) => model.id),
      );
      await rejectsWith(api.models.list({ limit: 0 }), 'bad_request', 400);
    });

    test('voices: the envelope is {voices, cursor}; name and voiceType filter; the walk follows the voices key', async () => {
      const all = await api.voices.list();
      assert.deepEqual(Object.keys(all).sort(), ['cursor', 'voices']);
      assert.ok(all.voices.some((voice) => voice.id === 'emu-voice-espeak-en'));
      const espeak = await api.voices.list({ name: 'espeak' });
      assert.ok(espeak.voices.length >= 3);
      assert.ok(espeak.voices.every((voice) => voice.name.toLowerCase().includes('espeak')));
      const cloned = await api.voices.list({ voiceType: 'CLONED' });
      assert.deepEqual(
        cloned.voices.map((voice) => voice.voiceType),
        ['CLONED'],
      );
      const walked = await collect(paginate((o, c) => api.voices.list(o, c), { limit: 2 }, { name: 'espeak' }));
      assert.deepEqual(walked, espeak.voices);
      const firstPage = await api.voices.list({ limit: 2 });
      assert.equal(firstPage.voices.length, 2);
      assert.notEqual(firstPage.cursor, null);
    });

    test('functions: list with displayName and limit, create, get, update, delete (unlinking it from agents)', async () => {
      const listed = await api.functions.list({ limit: 2 });
      assert.equal(listed.data.length, 2);
      assert.notEqual(listed.cursor, null);
      const byName = await api.functions.list({ displayName: 'Transfer to front desk' });
      assert.deepEqual(
        byName.data.map((fn) => fn.id),
        ['emu-function-transfer'],
      );
      const created = await api.functions.create({
        name: 'transfer_to_billing',
        displayName: 'Transfer to billing',
        description: 'Billing questions',
        type: 'transfer',
        allowedNumbers: [{ number: '+15550100200' }],
        lifecycleMessages: { started: ['Transferring.'] },
      });
      assert.equal(created.displayName, 'Transfer to billing');
      assert.deepEqual(await api.functions.get(created.id), created);
      const updated = await api.functions.update(created.id, { description: 'Billing and invoices' });
      assert.equal(updated.description, 'Billing and invoices');
      assert.equal(updated.type, 'transfer');
      const agent = await api.agents.create(
        newAgent('Linked', { linkedFunctionDefinitionInputs: [{ functionDefinitionId: created.id }] }),
      );
      assert.equal(agent.linkedFunctionDefinitions?.length, 1);
      const deleted = await api.functions.delete(created.id);
      assert.equal(deleted.id, created.id);
      assert.deepEqual((await api.agents.get(agent.id)).linkedFunctionDefinitions, []);
      await rejectsWith(api.functions.get(created.id), 'not_found', 404);
      const all = await collect(paginate((o, c) => api.functions.list(o, c), { limit: 1 }));
      assert.ok(!all.some((fn) => fn.id === created.id));
      await rejectsWith(api.functions.create({ name: 'x', description: 'y', type: 'transfer' }), 'unprocessable', 422);
      await rejectsWith(
        api.functions.create({ name: 'x', description: 'y', type: 'transfer', allowedNumbers: [{ number: '555' }] }),
        'unprocessable',
        422,
      );
      await rejectsWith(api.functions.create({ name: 'x', type: 'api' } as never), 'bad_request', 400);
      await rejectsWith(
        api.functions.create({ name: 'x', description: 'y', type: 'webhook' as 'api' }),
        'unprocessable',
        422,
      );
    });
  });
});
