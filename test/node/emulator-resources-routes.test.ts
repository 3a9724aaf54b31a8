// The emulator's resource routes over raw HTTP (no client): each listing's exact envelope, auth,
// methods, bodies (malformed, too large, empty) and that no answer ever carries the API key.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';

const API_KEY = 'resources-test-key-0a9b8c7d';
const bodies: string[] = [];

async function call(
  emu: Emulator,
  method: string,
  path: string,
  init: { body?: unknown; raw?: string; key?: string | null } = {},
) {
  const headers: Record<string, string> = {};
  const key = init.key === undefined ? emu.apiKey : init.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  const body = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(emu.apiUrl + path, { method, headers, body });
  const text = await response.text();
  bodies.push(text);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON answer, read field by field by the assertions
  return { status: response.status, headers: response.headers, body: JSON.parse(text) as any };
}

describe('emulator resource routes', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ apiKey: API_KEY, logger: false, maxBodyBytes: 2048 });
  });
  after(async () => {
    await emu.close();
    assert.ok(bodies.length > 20);
    for (const text of bodies)
      assert.ok(!text.includes(API_KEY), `an answer carried the API key: ${text.slice(0, 200)}`);
  });

  test('each listing has the seed envelope: {data, cursor}, {voices, cursor}, {extractors}, or a bare array', async () => {
    const paged = [
      '/agents',
      '/models',
      '/functions',
      '/phone_numbers',
      '/batch_dial_jobs',
      '/agents/emu-demo/versioned_prompts',
    ];
    for (const path of paged) {
      const answer = await call(emu, 'GET', path);
      assert.equal(answer.status, 200, path);
      assert.deepEqual(Object.keys(answer.body).sort(), ['cursor', 'data'], path);
      assert.ok(Array.isArray(answer.body.data), path);
    }
    assert.deepEqual(Object.keys((await call(emu, 'GET', '/voices')).body).sort(), ['cursor', 'voices']);
    assert.deepEqual(Object.keys((await call(emu, 'GET', '/agents/emu-quick/extractors')).body), ['extractors']);
    assert.ok(Array.isArray((await call(emu, 'GET', '/phone_number_pools')).body));
    assert.ok(Array.isArray((await call(emu, 'POST', '/phone_numbers/search', { body: { prefix: '212' } })).body));
  });

  test('the default page size is 100 and larger limits are capped; a cursor comes back only while more remain', async () => {
    for (let index = 0; index < 101; index++) {
      const created = await call(emu, 'POST', '/functions', {
        body: { name: `fn_${index}`, description: 'bulk', type: 'api' },
      });
      assert.equal(created.status, 200);
    }
    const first = await call(emu, 'GET', '/functions');
    assert.equal(first.body.data.length, 100);
    assert.equal(typeof first.body.cursor, 'string');
    const capped = await call(emu, 'GET', '/functions?limit=500');
    assert.equal(capped.body.data.length, 100);
    const rest = await call(emu, 'GET', `/functions?cursor=${encodeURIComponent(first.body.cursor)}`);
    assert.equal(rest.body.data.length, 104 - 100);
    assert.equal(rest.body.cursor, null);
    assert.equal((await call(emu, 'GET', '/functions?cursor=bogus')).status, 400);
    assert.equal((await call(emu, 'GET', '/functions?limit=-1')).status, 400);
  });

  test('every resource route needs the API key (401)', async () => {
    const routes: [string, string][] = [
      ['GET', '/models'],
      ['POST', '/agents'],
      ['PUT', '/phone_numbers/x'],
      ['DELETE', '/eval_configs/x/records/y'],
      ['GET', '/phone_number_pools'],
    ];
    for (const [method, path] of routes) {
      const answer = await call(emu, method, path, {
        key: null,
        body: method === 'GET' || method === 'DELETE' ? undefined : {},
      });
      assert.equal(answer.status, 401, `${method} ${path}`);
      assert.equal(answer.body.error.code, 'unauthorized');
    }
  });

  test('a wrong method is 405 with Allow; unknown paths 404', async () => {
    const search = await call(emu, 'GET', '/phone_numbers/search');
    assert.equal(search.status, 405);
    assert.equal(search.headers.get('allow'), 'POST');
    const pool = await call(emu, 'DELETE', '/phone_number_pools/x');
    assert.equal(pool.status, 405);
    assert.equal(pool.headers.get('allow'), 'GET, PUT');
    assert.equal((await call(emu, 'GET', '/agents/emu-demo/nothing')).status, 404);
    assert.equal((await call(emu, 'GET', '/eval_configs')).status, 405);
  });

  test('PUT and POST bodies: malformed JSON 400, not an object 400, too large 413, empty 400 where fields are required', async () => {
    const malformed = await call(emu, 'PUT', '/agents/emu-demo', { raw: '{"name":' });
    assert.deepEqual([malformed.status, malformed.body.error.code], [400, 'invalid_request']);
    assert.equal((await call(emu, 'PUT', '/agents/emu-demo', { body: ['name'] })).status, 400);
    const large = await call(emu, 'POST', '/eval_configs', { body: { name: 'x'.repeat(4096) } });
    assert.deepEqual([large.status, large.body.error.code], [413, 'payload_too_large']);
    assert.equal((await call(emu, 'POST', '/eval_configs')).status, 400);
    const unprocessable = await call(emu, 'POST', '/phone_numbers/search', { body: { prefix: '1', limit: 50 } });
    assert.deepEqual([unprocessable.status, unprocessable.body.error.code], [422, 'validation_failed']);
    const missing = await call(emu, 'GET', '/functions/nope');
    assert.deepEqual([missing.status, missing.body.error.code], [404, 'not_found']);
  });

  test('an empty PUT changes nothing and answers the record', async () => {
    const before = await call(emu, 'GET', '/agents/emu-silent-user');
    const after = await call(emu, 'PUT', '/agents/emu-silent-user', { body: {} });
    assert.equal(after.status, 200);
    assert.deepEqual(after.body, before.body);
  });
});
