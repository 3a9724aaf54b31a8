// The typed client against the emulator over HTTP: phone numbers (search, create three ways, the
// deprecated purchase, link, delete), pools (a bare array), dial tasks and emulated phone dials.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Emulator } from '../../src/emulator/index.js';
import type { VoiceAgentApi } from '../../src/api/client.js';
import { paginate } from '../../src/api/paginate.js';
import type { CreatePhoneNumberInput, Dial } from '../../src/api/types/index.js';
import { collect, present, eventually, rejectsWith, startApi } from './api-client-support.js';

describe('VoiceAgentApi: phone numbers, pools, dial tasks, phone dials', () => {
  let emu: Emulator;
  let api: VoiceAgentApi;
  before(async () => {
    ({ emu, api } = await startApi());
  });
  after(() => emu.close());

  /** A number of this workspace to call from (an id that names nothing is refused). */
  const outbound = async (client: VoiceAgentApi = api): Promise<string> => {
    const [candidate] = await client.phoneNumbers.search({ prefix: '650', limit: 1 });
    return (await client.phoneNumbers.create({ type: 'purchase', purchase: { number: present(candidate).number } })).id;
  };

  const statusOf = async (dialId: string, wanted: string, client: VoiceAgentApi = api): Promise<Dial | undefined> => {
    const dial = await client.dials.get(dialId);
    return dial.status === wanted ? dial : undefined;
  };

  describe('phone numbers', () => {
    test('search answers candidates with the prefix; buying one removes it from the next search', async () => {
      const candidates = await api.phoneNumbers.search({ prefix: '415', limit: 3 });
      assert.equal(candidates.length, 3);
      for (const { number } of candidates) assert.match(number, /^\+1415\d{7}$/);
      assert.equal((await api.phoneNumbers.search({ prefix: '415' })).length, 5);
      const uk = await api.phoneNumbers.search({ prefix: '20', country: 'GB', limit: 1 });
      assert.match(present(uk[0]).number, /^\+4420\d+$/);
      const bought = await api.phoneNumbers.create({
        type: 'purchase',
        purchase: { number: present(candidates[0]).number },
      });
      assert.deepEqual(
        { ...bought, id: 'x' },
        { id: 'x', number: present(candidates[0]).number, type: 'PSTN', agentId: null },
      );
      const again = await api.phoneNumbers.search({ prefix: '415', limit: 3 });
      assert.ok(!again.some(({ number }) => number === bought.number));
      await rejectsWith(api.phoneNumbers.search({ prefix: '415', limit: 11 }), 'unprocessable', 422);
      await rejectsWith(api.phoneNumbers.search({ prefix: 'abc' }), 'unprocessable', 422);
      await rejectsWith(api.phoneNumbers.search({ prefix: '415', country: 'ZZ' }), 'unprocessable', 422);
      await rejectsWith(api.phoneNumbers.search({} as never), 'bad_request', 400);
    });

    test('create by SIP import and as a SIP username; the deprecated purchase; list walks; link, unlink, delete', async () => {
      const imported = await api.phoneNumbers.create({
        type: 'sip_import',
        sipImport: {
          phoneNumber: '+15550001111',
          terminationUri: 'sip:trunk.example.test',
          username: 'trunk',
          password: 'secret-pass',
        },
      });
      assert.equal(imported.type, 'PSTN');
      assert.equal(imported.number, '+15550001111');
      const sip = await api.phoneNumbers.create({
        type: 'vogent_sip',
        vogentSip: { sipPrefix: 'acme-', username: 'frontdesk', password: 'hunter22' },
      });
      assert.equal(sip.type, 'SIP_USERNAME');
      assert.equal(sip.number, 'acme-frontdesk');
      const purchased = await api.phoneNumbers.purchase({ number: '+15550002222' });
      assert.equal(purchased.number, '+15550002222');
      assert.ok(!JSON.stringify(await api.phoneNumbers.list()).includes('secret-pass'));

      const page = await api.phoneNumbers.list({ limit: 1 });
      assert.deepEqual(Object.keys(page).sort(), ['cursor', 'data']);
      assert.equal(page.data.length, 1);
      const walked = await collect(paginate((o, c) => api.phoneNumbers.list(o, c), { limit: 1 }));
      for (const id of [imported.id, sip.id, purchased.id]) assert.ok(walked.some((number) => number.id === id));

      assert.equal((await api.phoneNumbers.update(imported.id, { agentId: 'emu-demo' })).agentId, 'emu-demo');
      assert.equal((await api.phoneNumbers.get(imported.id)).agentId, 'emu-demo');
      assert.equal((await api.phoneNumbers.update(imported.id, { agentId: '' })).agentId, null);
      await rejectsWith(api.phoneNumbers.update(imported.id, { agentId: 'no-agent' }), 'unprocessable', 422);

      const deleted = await api.phoneNumbers.delete(purchased.id);
      assert.equal(deleted.number, '+15550002222');
      await rejectsWith(api.phoneNumbers.get(purchased.id), 'not_found', 404);
      await rejectsWith(api.phoneNumbers.delete(purchased.id), 'not_found', 404);
    });

    test('create errors: the variant object missing 400, bad numbers or short SIP credentials 422, a number owned twice 422', async () => {
      await rejectsWith(api.phoneNumbers.create({ type: 'purchase' } as CreatePhoneNumberInput), 'bad_request', 400);
      await rejectsWith(
        api.phoneNumbers.create({ type: 'lease' } as unknown as CreatePhoneNumberInput),
        'unprocessable',
        422,
      );
      await rejectsWith(
        api.phoneNumbers.create({ type: 'purchase', purchase: { number: '555-0100' } }),
        'unprocessable',
        422,
      );
      await rejectsWith(
        api.phoneNumbers.create({
          type: 'vogent_sip',
          vogentSip: { sipPrefix: 'a', username: 'abc', password: 'hunter22' },
        }),
        'unprocessable',
        422,
      );
      await api.phoneNumbers.create({ type: 'purchase', purchase: { number: '+15550003333' } });
      await rejectsWith(
        api.phoneNumbers.create({ type: 'purchase', purchase: { number: '+15550003333' } }),
        'unprocessable',
        422,
      );
    });
  });

  describe('phone number pools', () => {
    test('list answers a bare array; create, get, update; unknown numbers 422, unknown pools 404', async () => {
      assert.deepEqual(await api.phoneNumberPools.list(), []);
      const a = await api.phoneNumbers.create({ type: 'purchase', purchase: { number: '+15550004444' } });
      const b = await api.phoneNumbers.create({ type: 'purchase', purchase: { number: '+15550005555' } });
      const pool = await api.phoneNumberPools.create({ name: 'Outbound', phoneNumberIds: [a.id] });
      assert.equal(pool.name, 'Outbound');
      assert.deepEqual(pool.phoneNumberIds, [a.id]);
      const updated = await api.phoneNumberPools.update(pool.id, { phoneNumberIds: [a.id, b.id] });
      assert.deepEqual(updated.phoneNumberIds, [a.id, b.id]);
      assert.equal(updated.name, 'Outbound');
      assert.deepEqual(await api.phoneNumberPools.get(pool.id), updated);
      const pools = await api.phoneNumberPools.list();
      assert.ok(Array.isArray(pools));
      assert.deepEqual(pools, [updated]);
      await api.phoneNumbers.delete(b.id);
      assert.deepEqual((await api.phoneNumberPools.get(pool.id)).phoneNumberIds, [a.id]);
      await rejectsWith(api.phoneNumberPools.create({ name: 'Bad', phoneNumberIds: ['nope'] }), 'unprocessable', 422);
      await rejectsWith(api.phoneNumberPools.create({} as never), 'bad_request', 400);
      await rejectsWith(api.phoneNumberPools.get('nope'), 'not_found', 404);
      await rejectsWith(api.phoneNumberPools.update('nope', { name: 'x' }), 'not_found', 404);
    });
  });

  describe('phone dials', () => {
    test('a phone dial rings, is answered and the agent hangs up: completed / AGENT_HANGUP with a transcript, no media', async () => {
      // Its own emulator, ringing 1 s and talking 1 s: the file's 150 ms ring could pass between two
      // polls on a loaded machine (a CI run on Node 24 never saw `ringing`), and so could a 250 ms
      // talk (a CI run on Node 22 never saw `in-progress`).
      const { api: phone, emu: phoneEmu } = await startApi({ phoneRingMs: 1000, phoneTalkMs: 1000 });
      try {
        const created = await phone.dials.create({
          callAgentId: 'emu-demo',
          toNumber: '+15550006666',
          fromNumberId: await outbound(phone),
        });
        assert.equal((await phone.dials.get(created.dialId)).status, 'queued');
        await eventually(() => statusOf(created.dialId, 'ringing', phone), 2000, 'ringing');
        const answered = await eventually(() => statusOf(created.dialId, 'in-progress', phone), 3000, 'in-progress');
        assert.notEqual(answered.startedAt, null);
        const ended = await eventually(() => statusOf(created.dialId, 'completed', phone), 5000, 'completed');
        assert.equal(ended.systemResultType, 'AGENT_HANGUP');
        assert.equal(ended.toNumber, '+15550006666');
        assert.ok((ended.transcript ?? []).some((line) => line.speaker === 'AI'));
        assert.equal(typeof ended.durationSeconds, 'number');
      } finally {
        await phoneEmu.close();
      }
    });

    test('hanging up an answered phone dial completes it USER_HANGUP; before the answer it is canceled', async () => {
      const { api: slow, emu: slowEmu } = await startApi({ phoneRingMs: 40, phoneTalkMs: 60_000 });
      try {
        const fromNumberId = await outbound(slow);
        const answered = await slow.dials.create({ callAgentId: 'emu-demo', toNumber: '+15550007777', fromNumberId });
        await eventually(
          async () => ((await slow.dials.get(answered.dialId)).status === 'in-progress' ? true : undefined),
          2000,
        );
        assert.deepEqual(await slow.dials.hangup(answered.dialId), { success: true });
        const done = await slow.dials.get(answered.dialId);
        assert.deepEqual([done.status, done.systemResultType], ['completed', 'USER_HANGUP']);
      } finally {
        await slowEmu.close();
      }
      // Rings for a minute: the hangup surely comes before the answer.
      const { api: ringing, emu: ringingEmu } = await startApi({ phoneRingMs: 60_000 });
      try {
        const early = await ringing.dials.create({
          callAgentId: 'emu-demo',
          toNumber: '+15550007778',
          fromNumberId: await outbound(ringing),
        });
        await ringing.dials.hangup(early.dialId);
        const canceled = await ringing.dials.get(early.dialId);
        assert.deepEqual([canceled.status, canceled.systemResultType], ['canceled', 'CANCELLED']);
      } finally {
        await ringingEmu.close();
      }
    });

    test('scenarios on the phone: emu-no-agent is never answered (no-answer), emu-drop fails, emu-busy fails at once', async () => {
      const fromNumberId = await outbound();
      const noAnswer = await api.dials.create({ callAgentId: 'emu-no-agent', toNumber: '+15550008888', fromNumberId });
      const drop = await api.dials.create({ callAgentId: 'emu-drop', toNumber: '+15550008889', fromNumberId });
      const busy = await api.dials.create({ callAgentId: 'emu-busy', toNumber: '+15550008890', fromNumberId });
      assert.equal((await api.dials.get(busy.dialId)).systemResultType, 'RATE_LIMITED');
      const unanswered = await eventually(() => statusOf(noAnswer.dialId, 'no-answer'), 2000, 'no-answer');
      assert.equal(unanswered.systemResultType, 'NO_ANSWER');
      const dropped = await eventually(() => statusOf(drop.dialId, 'failed'), 3000, 'failed');
      assert.equal(dropped.systemResultType, 'FAILED');
    });
  });

  describe('dial tasks', () => {
    test('create a task, attempt it (a phone dial tagged with the task), complete it with that dial', async () => {
      const task = await api.dialTasks.create({
        callAgentId: 'emu-quick',
        inputData: { customerId: 'c-42', name: 'Ada' },
        keyInputs: ['customerId'],
      });
      assert.equal(task.status, 'PENDING');
      assert.deepEqual(task.inputData, { customerId: 'c-42', name: 'Ada' });
      const fromPhoneNumberId = await outbound();
      const attempt = await api.dialTasks.createAttempt(task.id, { fromPhoneNumberId, toNumber: '+15550009999' });
      assert.equal(typeof attempt.dialToken, 'string');
      assert.equal((await api.dialTasks.get(task.id)).status, 'RUNNING');
      const dial = await eventually(() => statusOf(attempt.dialId, 'completed'), 3000, 'the attempt completed');
      assert.equal(dial.dialTaskId, task.id);
      assert.deepEqual(dial.inputs, { customerId: 'c-42', name: 'Ada' });
      const done = await api.dialTasks.complete(task.id, { dialId: attempt.dialId });
      assert.equal(done.status, 'COMPLETED');
      assert.equal(done.completedDialId, attempt.dialId);
      assert.equal(typeof done.results?.summary, 'string');
      await rejectsWith(
        api.dialTasks.createAttempt(task.id, { fromPhoneNumberId, toNumber: '+15550009998' }),
        'unprocessable',
        422,
      );
    });

    test('task errors: missing fields 400, an unknown agent or key 422, a dial of another task 422, unknown task 404', async () => {
      await rejectsWith(api.dialTasks.create({ callAgentId: 'emu-demo' } as never), 'bad_request', 400);
      await rejectsWith(
        api.dialTasks.create({ callAgentId: 'nope', inputData: {}, keyInputs: [] }),
        'unprocessable',
        422,
      );
      await rejectsWith(
        api.dialTasks.create({ callAgentId: 'emu-demo', inputData: { a: 1 }, keyInputs: ['b'] }),
        'unprocessable',
        422,
      );
      const task = await api.dialTasks.create({ callAgentId: 'emu-demo', inputData: {}, keyInputs: [] });
      const fromPhoneNumberId = await outbound();
      await rejectsWith(
        api.dialTasks.createAttempt(task.id, { fromPhoneNumberId, toNumber: '12345' }),
        'unprocessable',
        422,
      );
      const unknownNumber = await rejectsWith(
        api.dialTasks.createAttempt(task.id, { fromPhoneNumberId: 'num-1', toNumber: '+15550000001' }),
        'unprocessable',
        422,
      );
      assert.equal(
        (unknownNumber.cause as { body: { error: { field: string } } }).body.error.field,
        'fromPhoneNumberId',
      );
      const other = await api.dials.create({ callAgentId: 'emu-demo', browserCall: true });
      await rejectsWith(api.dialTasks.complete(task.id, { dialId: other.dialId }), 'unprocessable', 422);
      await api.dials.hangup(other.dialId);
      await rejectsWith(api.dialTasks.get('nope'), 'not_found', 404);
      await rejectsWith(
        api.dialTasks.createAttempt('nope', { fromPhoneNumberId: 'num-1', toNumber: '+15550000000' }),
        'not_found',
        404,
      );
    });
  });
});
