// Every operation of the seed document (issue 9's list, the README's client table and the
// research notes §4, with issue 14's corrections), as a table of method + path. Two walks over
// it: the emulator routes each one (no route-level 404 or 405), and each `VoiceAgentApi` method
// sends exactly the seed's method and path (a recording fetch stands in for the service).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Emulator } from '../../src/emulator/index.js';
import { VoiceAgentApi } from '../../src/api/client.js';
import { startApi } from './api-client-support.js';
import { readDocs } from '../../scripts/docs.js';

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
  { method: 'POST', path: '/dials', call: (api) => api.dials.create({ callAgentId: 'emu-demo', browserCall: true }) },
  { method: 'POST', path: '/dials/{id}/token', call: (api) => api.dials.token(A) },
  { method: 'GET', path: '/dials/{id}', call: (api) => api.dials.get(A) },
  { method: 'POST', path: '/dials/{id}/hangup', call: (api) => api.dials.hangup(A) },
  // models
  { method: 'GET', path: '/models', call: (api) => api.models.list() },
  // agents
  { method: 'GET', path: '/agents', call: (api) => api.agents.list() },
  {
    method: 'POST',
    path: '/agents',
    call: (api) =>
      api.agents.create({
        name: 'n',
        defaultVoiceId: 'v',
        defaultVersionedPrompt: { aiModelId: 'm', agentType: 'STANDARD', name: 'p' },
      }),
  },
  { method: 'GET', path: '/agents/{id}', call: (api) => api.agents.get(A) },
  { method: 'PUT', path: '/agents/{id}', call: (api) => api.agents.update(A, { name: 'n' }) },
  { method: 'DELETE', path: '/agents/{id}', call: (api) => api.agents.delete(A) },
  // versioned prompts
  { method: 'GET', path: '/agents/{agentId}/versioned_prompts', call: (api) => api.versionedPrompts.list(A) },
  {
    method: 'POST',
    path: '/agents/{agentId}/versioned_prompts',
    call: (api) => api.versionedPrompts.create(A, { aiModelId: 'm', agentType: 'STANDARD', name: 'p' }),
  },
  { method: 'GET', path: '/agents/{agentId}/versioned_prompts/{id}', call: (api) => api.versionedPrompts.get(A, B) },
  {
    method: 'PUT',
    path: '/agents/{agentId}/versioned_prompts/{id}',
    call: (api) => api.versionedPrompts.update(A, B, { name: 'p' }),
  },
  // extractors
  { method: 'GET', path: '/agents/{agentId}/extractors', call: (api) => api.extractors.list(A) },
  {
    method: 'POST',
    path: '/agents/{agentId}/extractors',
    call: (api) => api.extractors.create(A, { name: 'x', extractorFieldsJsonSchema: '{}' }),
  },
  { method: 'GET', path: '/agents/{agentId}/extractors/{extractorId}', call: (api) => api.extractors.get(A, B) },
  {
    method: 'PUT',
    path: '/agents/{agentId}/extractors/{extractorId}',
    call: (api) => api.extractors.update(A, B, { name: 'x' }),
  },
  // phone numbers
  { method: 'GET', path: '/phone_numbers', call: (api) => api.phoneNumbers.list() },
  {
    method: 'POST',
    path: '/phone_numbers',
    call: (api) => api.phoneNumbers.create({ type: 'purchase', purchase: { number: '+15550001111' } }),
  },
  { method: 'GET', path: '/phone_numbers/{id}', call: (api) => api.phoneNumbers.get(A) },
  { method: 'PUT', path: '/phone_numbers/{id}', call: (api) => api.phoneNumbers.update(A, { agentId: '' }) },
  { method: 'DELETE', path: '/phone_numbers/{id}', call: (api) => api.phoneNumbers.delete(A) },
  {
    method: 'POST',
    path: '/phone_numbers/search',
    call: (api) => api.phoneNumbers.search({ prefix: '415' }),
    shape: 'array',
  },
  {
    method: 'POST',
    path: '/phone_numbers/purchase',
    call: (api) => api.phoneNumbers.purchase({ number: '+15550001111' }),
  },
  // phone number pools (the seed lists the operations; their path is a convention)
  {
    method: 'GET',
    path: '/phone_number_pools',
    call: (api) => api.phoneNumberPools.list(),
    shape: 'array',
    convention: true,
  },
  {
    method: 'POST',
    path: '/phone_number_pools',
    call: (api) => api.phoneNumberPools.create({ name: 'p' }),
    convention: true,
  },
  { method: 'GET', path: '/phone_number_pools/{id}', call: (api) => api.phoneNumberPools.get(A), convention: true },
  {
    method: 'PUT',
    path: '/phone_number_pools/{id}',
    call: (api) => api.phoneNumberPools.update(A, { name: 'p' }),
    convention: true,
  },
  // dial tasks
  {
    method: 'POST',
    path: '/tasks',
    call: (api) => api.dialTasks.create({ callAgentId: 'emu-demo', inputData: {}, keyInputs: [] }),
  },
  { method: 'GET', path: '/tasks/{taskId}', call: (api) => api.dialTasks.get(A), convention: true },
  {
    method: 'POST',
    path: '/tasks/{taskId}/attempt',
    call: (api) => api.dialTasks.createAttempt(A, { fromPhoneNumberId: B, toNumber: '+15550001111' }),
  },
  { method: 'POST', path: '/tasks/{taskId}/complete', call: (api) => api.dialTasks.complete(A, { dialId: B }) },
  // functions
  { method: 'GET', path: '/functions', call: (api) => api.functions.list({ displayName: 'x' }) },
  {
    method: 'POST',
    path: '/functions',
    call: (api) => api.functions.create({ name: 'f', description: 'd', type: 'api' }),
  },
  { method: 'GET', path: '/functions/{id}', call: (api) => api.functions.get(A) },
  { method: 'PUT', path: '/functions/{id}', call: (api) => api.functions.update(A, { description: 'd' }) },
  { method: 'DELETE', path: '/functions/{id}', call: (api) => api.functions.delete(A) },
  // batch dial jobs
  { method: 'GET', path: '/batch_dial_jobs', call: (api) => api.batchDialJobs.list({ status: 'INIT' }) },
  {
    method: 'POST',
    path: '/batch_dial_jobs',
    call: (api) => api.batchDialJobs.create({ callAgentId: 'a', maxConcurrentDials: 1, name: 'n', rows: [] }),
  },
  { method: 'GET', path: '/batch_dial_jobs/{id}', call: (api) => api.batchDialJobs.get(A) },
  {
    method: 'PUT',
    path: '/batch_dial_jobs/{id}',
    call: (api) => api.batchDialJobs.update(A, { maxConcurrentDials: 2 }),
  },
  { method: 'POST', path: '/batch_dial_jobs/{id}/paused', call: (api) => api.batchDialJobs.setPaused(A, true) },
  { method: 'POST', path: '/batch_dial_jobs/{id}/paused', call: (api) => api.batchDialJobs.pause(A) },
  { method: 'POST', path: '/batch_dial_jobs/{id}/paused', call: (api) => api.batchDialJobs.resume(A) },
  { method: 'GET', path: '/batch_dial_jobs/{id}/queue', call: (api) => api.batchDialJobs.listQueue(A) },
  { method: 'GET', path: '/batch_dial_jobs/{id}/dials', call: (api) => api.batchDialJobs.listDials(A) },
  // evaluations
  { method: 'POST', path: '/eval_configs', call: (api) => api.evals.createConfig({ name: 'e' }) },
  {
    method: 'POST',
    path: '/eval_configs/{id}/records',
    call: (api) => api.evals.createRecord(A, { recordType: 'PROMPT' }),
  },
  { method: 'GET', path: '/eval_configs/{id}/records', call: (api) => api.evals.listRecords(A, { search: 's' }) },
  { method: 'DELETE', path: '/eval_configs/{id}/records/{recordId}', call: (api) => api.evals.deleteRecord(A, B) },
  { method: 'POST', path: '/eval_configs/{id}/runs', call: (api) => api.evals.run(A, { callAgentId: 'emu-demo' }) },
  { method: 'GET', path: '/eval_configs/{id}/runs', call: (api) => api.evals.listRuns(A) },
  { method: 'GET', path: '/eval_runs/{id}', call: (api) => api.evals.getRun(A), convention: true },
  { method: 'POST', path: '/eval_runs/{id}/cancel', call: (api) => api.evals.cancelRun(A) },
  { method: 'POST', path: '/eval_results/{id}/rerun', call: (api) => api.evals.rerunResult(A) },
  // voices and speech
  { method: 'GET', path: '/voices', call: (api) => api.voices.list({ name: 'x' }) },
  { method: 'POST', path: '/voices/clone', call: (api) => api.voices.clone({ name: 'v', clip: blob, model: 'CSM' }) },
  { method: 'POST', path: '/tts', call: (api) => api.speech.synthesize({ text: 't', voiceId: 'v' }), shape: 'binary' },
  {
    method: 'POST',
    path: '/tts/multispeaker',
    call: (api) => api.speech.synthesizeMultispeaker({ lines: [{ text: 't', voiceId: 'v' }] }),
    shape: 'binary',
  },
];

/** The path with its `{…}` ids replaced by A, then B. */
function concrete(path: string): string {
  const ids = [A, B];
  return path.replace(/\{[^}]+\}/g, () => {
    const id = ids.shift();
    if (id === undefined) throw new Error(`${path} has more than two ids`);
    return id;
  });
}

/** The client method an operation's `call` uses (`group.method`), read from its source. */
function methodName(operation: Operation): string {
  const name = /api\.(\w+\.\w+)\(/.exec(operation.call.toString())?.[1];
  if (name === undefined) throw new Error(`no api.group.method( call in ${operation.call.toString()}`);
  return name;
}

/** The methods of an object, its own class's and those it inherits, `constructor` left out. */
function methodsOf(resource: object): string[] {
  const names = new Set<string>();
  for (let proto = Object.getPrototypeOf(resource); proto !== Object.prototype; proto = Object.getPrototypeOf(proto))
    for (const name of Object.getOwnPropertyNames(proto)) if (name !== 'constructor') names.add(name);
  return [...names];
}

/** Every method of every resource group of a client, as `group.method`. */
function clientMethods(api: VoiceAgentApi): string[] {
  return Object.entries(api).flatMap(([group, resource]: [string, object]) =>
    methodsOf(resource).map((name) => `${group}.${name}`),
  );
}

/** Client methods that are not REST operations of the seed: the GraphQL mutation the companion needs. */
const NOT_REST = ['dials.browserDialToken'];

describe('every operation of the seed', () => {
  let emu: Emulator;
  before(async () => {
    ({ emu } = await startApi());
  });
  after(() => emu.close());

  test('the table covers every public method of VoiceAgentApi, resource by resource', () => {
    const methods = clientMethods(new VoiceAgentApi({ baseUrl: emu.apiUrl, apiKey: emu.apiKey }));
    assert.ok(methods.length > 60, `found ${methods.length} methods`);
    assert.deepEqual(new Set([...SEED_OPERATIONS.map(methodName), ...NOT_REST]), new Set(methods));
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
    const readme = readDocs();
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
