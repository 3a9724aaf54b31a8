// Every operation of the seed document (issue 9's list, the README's client table and the
// research notes §4, with issue 14's corrections), as a table of method + path. Two walks over
// it: the emulator routes each one (no route-level 404 or 405), and each `VoiceAgentApi` method
// sends exactly the seed's method and path (a recording fetch stands in for the service).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Emulator } from '../../src/emulator/index.js';
import { VoiceAgentApi } from '../../src/server/api/client.js';
import { startApi } from './api-client-support.js';

interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The seed's path; `{…}` segments are ids. */
  path: string;
  /** Calls the client method for this operation with ids `A`, `B` (in path order). */
  call: (api: VoiceAgentApi) => Promise<unknown>;
  /** What the answer must look like for the client to accept it. */
  shape?: 'array' | 'binary';
  /** Not in the seed: the path is this client's and the emulator's convention or addition. */
  convention?: true;
}

const A = 'A-id';
const B = 'B-id';
const blob = new Blob([new Uint8Array([1, 2, 3])], { type: 'audio/wav' });

const SEED_OPERATIONS: Operation[] = [
  // dials
  { method: 'POST', path: '/dials', call: (api) => api.createDial({ callAgentId: 'emu-demo', browserCall: true }) },
  { method: 'POST', path: '/dials/{id}/token', call: (api) => api.getDialToken(A) },
  { method: 'GET', path: '/dials/{id}', call: (api) => api.getDial(A) },
  { method: 'POST', path: '/dials/{id}/hangup', call: (api) => api.hangupDial(A) },
  // models
  { method: 'GET', path: '/models', call: (api) => api.listModels() },
  // agents
  { method: 'GET', path: '/agents', call: (api) => api.listAgents() },
  {
    method: 'POST',
    path: '/agents',
    call: (api) =>
      api.createAgent({
        name: 'n',
        defaultVoiceId: 'v',
        defaultVersionedPrompt: { aiModelId: 'm', agentType: 'STANDARD', name: 'p' },
      }),
  },
  { method: 'GET', path: '/agents/{id}', call: (api) => api.getAgent(A) },
  { method: 'PUT', path: '/agents/{id}', call: (api) => api.updateAgent(A, { name: 'n' }) },
  { method: 'DELETE', path: '/agents/{id}', call: (api) => api.deleteAgent(A) },
  // versioned prompts
  { method: 'GET', path: '/agents/{agentId}/versioned_prompts', call: (api) => api.listVersionedPrompts(A) },
  {
    method: 'POST',
    path: '/agents/{agentId}/versioned_prompts',
    call: (api) => api.createVersionedPrompt(A, { aiModelId: 'm', agentType: 'STANDARD', name: 'p' }),
  },
  { method: 'GET', path: '/agents/{agentId}/versioned_prompts/{id}', call: (api) => api.getVersionedPrompt(A, B) },
  {
    method: 'PUT',
    path: '/agents/{agentId}/versioned_prompts/{id}',
    call: (api) => api.updateVersionedPrompt(A, B, { name: 'p' }),
  },
  // extractors
  { method: 'GET', path: '/agents/{agentId}/extractors', call: (api) => api.listExtractors(A) },
  {
    method: 'POST',
    path: '/agents/{agentId}/extractors',
    call: (api) => api.createExtractor(A, { name: 'x', extractorFieldsJsonSchema: '{}' }),
  },
  { method: 'GET', path: '/agents/{agentId}/extractors/{extractorId}', call: (api) => api.getExtractor(A, B) },
  {
    method: 'PUT',
    path: '/agents/{agentId}/extractors/{extractorId}',
    call: (api) => api.updateExtractor(A, B, { name: 'x' }),
  },
  // phone numbers
  { method: 'GET', path: '/phone_numbers', call: (api) => api.listPhoneNumbers() },
  {
    method: 'POST',
    path: '/phone_numbers',
    call: (api) => api.createPhoneNumber({ type: 'purchase', purchase: { number: '+15550001111' } }),
  },
  { method: 'GET', path: '/phone_numbers/{id}', call: (api) => api.getPhoneNumber(A) },
  { method: 'PUT', path: '/phone_numbers/{id}', call: (api) => api.updatePhoneNumber(A, { agentId: '' }) },
  { method: 'DELETE', path: '/phone_numbers/{id}', call: (api) => api.deletePhoneNumber(A) },
  {
    method: 'POST',
    path: '/phone_numbers/search',
    call: (api) => api.searchPhoneNumbers({ prefix: '415' }),
    shape: 'array',
  },
  {
    method: 'POST',
    path: '/phone_numbers/purchase',
    call: (api) => api.purchasePhoneNumber({ number: '+15550001111' }),
  },
  // phone number pools (the seed lists the operations; their path is a convention)
  {
    method: 'GET',
    path: '/phone_number_pools',
    call: (api) => api.listPhoneNumberPools(),
    shape: 'array',
    convention: true,
  },
  {
    method: 'POST',
    path: '/phone_number_pools',
    call: (api) => api.createPhoneNumberPool({ name: 'p' }),
    convention: true,
  },
  { method: 'GET', path: '/phone_number_pools/{id}', call: (api) => api.getPhoneNumberPool(A), convention: true },
  {
    method: 'PUT',
    path: '/phone_number_pools/{id}',
    call: (api) => api.updatePhoneNumberPool(A, { name: 'p' }),
    convention: true,
  },
  // dial tasks
  {
    method: 'POST',
    path: '/tasks',
    call: (api) => api.createDialTask({ callAgentId: 'emu-demo', inputData: {}, keyInputs: [] }),
  },
  { method: 'GET', path: '/tasks/{taskId}', call: (api) => api.getDialTask(A), convention: true },
  {
    method: 'POST',
    path: '/tasks/{taskId}/attempt',
    call: (api) => api.createTaskAttempt(A, { fromPhoneNumberId: B, toNumber: '+15550001111' }),
  },
  { method: 'POST', path: '/tasks/{taskId}/complete', call: (api) => api.markTaskComplete(A, { dialId: B }) },
  // functions
  { method: 'GET', path: '/functions', call: (api) => api.listFunctions({ displayName: 'x' }) },
  {
    method: 'POST',
    path: '/functions',
    call: (api) => api.createFunction({ name: 'f', description: 'd', type: 'api' }),
  },
  { method: 'GET', path: '/functions/{id}', call: (api) => api.getFunction(A) },
  { method: 'PUT', path: '/functions/{id}', call: (api) => api.updateFunction(A, { description: 'd' }) },
  { method: 'DELETE', path: '/functions/{id}', call: (api) => api.deleteFunction(A) },
  // batch dial jobs
  { method: 'GET', path: '/batch_dial_jobs', call: (api) => api.listBatchDialJobs({ status: 'INIT' }) },
  {
    method: 'POST',
    path: '/batch_dial_jobs',
    call: (api) => api.createBatchDialJob({ callAgentId: 'a', maxConcurrentDials: 1, name: 'n', rows: [] }),
  },
  { method: 'GET', path: '/batch_dial_jobs/{id}', call: (api) => api.getBatchDialJob(A) },
  { method: 'PUT', path: '/batch_dial_jobs/{id}', call: (api) => api.updateBatchDialJob(A, { maxConcurrentDials: 2 }) },
  { method: 'POST', path: '/batch_dial_jobs/{id}/paused', call: (api) => api.setBatchDialJobPaused(A, true) },
  { method: 'POST', path: '/batch_dial_jobs/{id}/paused', call: (api) => api.pauseBatchDialJob(A) },
  { method: 'POST', path: '/batch_dial_jobs/{id}/paused', call: (api) => api.resumeBatchDialJob(A) },
  { method: 'GET', path: '/batch_dial_jobs/{id}/queue', call: (api) => api.listBatchDialJobQueue(A) },
  { method: 'GET', path: '/batch_dial_jobs/{id}/dials', call: (api) => api.listBatchDialJobDials(A) },
  // evaluations
  { method: 'POST', path: '/eval_configs', call: (api) => api.createEvalConfig({ name: 'e' }) },
  {
    method: 'POST',
    path: '/eval_configs/{id}/records',
    call: (api) => api.createEvalRecord(A, { recordType: 'PROMPT' }),
  },
  { method: 'GET', path: '/eval_configs/{id}/records', call: (api) => api.listEvalRecords(A, { search: 's' }) },
  { method: 'DELETE', path: '/eval_configs/{id}/records/{recordId}', call: (api) => api.deleteEvalRecord(A, B) },
  { method: 'POST', path: '/eval_configs/{id}/runs', call: (api) => api.runEval(A, { callAgentId: 'emu-demo' }) },
  { method: 'GET', path: '/eval_configs/{id}/runs', call: (api) => api.listEvalRuns(A) },
  { method: 'GET', path: '/eval_runs/{id}', call: (api) => api.getEvalRun(A), convention: true },
  { method: 'POST', path: '/eval_runs/{id}/cancel', call: (api) => api.cancelEvalRun(A) },
  { method: 'POST', path: '/eval_results/{id}/rerun', call: (api) => api.rerunEvalResult(A) },
  // voices and speech
  { method: 'GET', path: '/voices', call: (api) => api.listVoices({ name: 'x' }) },
  { method: 'POST', path: '/voices/clone', call: (api) => api.cloneVoice({ name: 'v', clip: blob, model: 'CSM' }) },
  { method: 'POST', path: '/tts', call: (api) => api.textToSpeech({ text: 't', voiceId: 'v' }), shape: 'binary' },
  {
    method: 'POST',
    path: '/tts/multispeaker',
    call: (api) => api.multispeakerTextToSpeech({ lines: [{ text: 't', voiceId: 'v' }] }),
    shape: 'binary',
  },
];

/** The path with its `{…}` ids replaced by A, then B. */
function concrete(path: string): string {
  const ids = [A, B];
  return path.replace(/\{[^}]+\}/g, () => ids.shift()!);
}

/** The client method an operation's `call` uses, read from its source. */
function methodName(operation: Operation): string {
  return /api\.(\w+)\(/.exec(operation.call.toString())![1]!;
}

describe('every operation of the seed', () => {
  let emu: Emulator;
  before(async () => {
    ({ emu } = await startApi());
  });
  after(() => emu.close());

  test('the table covers every public method of VoiceAgentApi', () => {
    const methods = Object.getOwnPropertyNames(VoiceAgentApi.prototype).filter((name) => name !== 'constructor');
    assert.deepEqual(new Set(SEED_OPERATIONS.map(methodName)), new Set(methods));
  });

  test('the emulator routes each one: the answer is never a route-level 404 or a 405', async () => {
    for (const operation of SEED_OPERATIONS) {
      const withBody = operation.method === 'POST' || operation.method === 'PUT';
      const response = await fetch(emu.apiUrl + concrete(operation.path), {
        method: operation.method,
        headers: { authorization: `Bearer ${emu.apiKey}`, ...(withBody ? { 'content-type': 'application/json' } : {}) },
        ...(withBody ? { body: '{}' } : {}),
      });
      const text = await response.text();
      const what = `${operation.method} ${operation.path} → ${response.status} ${text.slice(0, 160)}`;
      assert.notEqual(response.status, 405, what);
      assert.notEqual(response.status, 401, what);
      if (response.status === 404) {
        // Only "no such <thing>" for the made-up ids, never "no route".
        assert.match(JSON.parse(text).error.message, /^no such /, what);
      }
    }
  });

  test('paths the seed does not list answer a route-level 404 (the old conventions are gone)', async () => {
    for (const [method, path] of [
      ['POST', '/dial_tasks'],
      ['POST', '/tasks/x/attempts'],
      ['DELETE', '/eval_records/x'],
    ] as const) {
      const response = await fetch(emu.apiUrl + path, { method, headers: { authorization: `Bearer ${emu.apiKey}` } });
      assert.equal(response.status, 404, `${method} ${path}`);
      assert.match(((await response.json()) as { error: { message: string } }).error.message, /^no route /);
    }
  });

  test("each client method sends the seed's method and path", async () => {
    const sent: { method: string; path: string }[] = [];
    let shape: Operation['shape'];
    const recording: typeof fetch = async (input, init) => {
      const url = new URL(String(input));
      sent.push({ method: init?.method ?? 'GET', path: url.pathname.replace(/^\/api/, '') });
      if (shape === 'binary') return new Response(new Uint8Array([0]), { headers: { 'content-type': 'audio/wav' } });
      const body =
        shape === 'array'
          ? []
          : {
              data: [],
              voices: [],
              extractors: [],
              cursor: null,
              dialId: 'd',
              dialToken: 't',
              sessionId: 's',
              status: 'queued',
              success: true,
            };
      return Response.json(body);
    };
    const api = new VoiceAgentApi({ baseUrl: 'http://127.0.0.1:9/api', apiKey: 'recording-key', fetch: recording });
    for (const operation of SEED_OPERATIONS) {
      shape = operation.shape;
      sent.length = 0;
      await operation.call(api);
      assert.deepEqual(
        sent,
        [{ method: operation.method, path: concrete(operation.path) }],
        `${methodName(operation)}: ${operation.method} ${operation.path}`,
      );
    }
  });

  test("the README's client table names the seed's path of every operation", async () => {
    const { readFile } = await import('node:fs/promises');
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## The service API client'), readme.indexOf('## Benchmarks'));
    for (const operation of SEED_OPERATIONS) {
      assert.ok(section.includes(methodName(operation)), `README client table lacks ${methodName(operation)}`);
    }
    for (const path of [
      '/tasks',
      '/tasks/{taskId}/attempt',
      '/tasks/{taskId}/complete',
      '/eval_configs/{id}/records/{recordId}',
      '/eval_results/{id}/rerun',
    ]) {
      assert.ok(section.includes(path), `README client table lacks ${path}`);
    }
    assert.ok(!/dial_tasks|eval_records/.test(section), 'README still names an old convention path');
  });
});
