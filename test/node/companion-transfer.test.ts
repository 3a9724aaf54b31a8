// Talk to a person, the companion's side: `POST /dials/:id/transfer` through the handler. The
// number is the site owner's (per agent or one for all, E.164, checked at start); the create's
// answer says whether transfer is offered; the route is guarded like the hang-up and refuses a
// foreign handle, another origin, a dial that is not live, a second transfer and a service refusal.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { companionConfigFromEnv, ConfigError } from '../../src/server/env.js';
import { createCompanionHandler } from '../../src/server/handler.js';
import {
  API_KEY,
  SECRET,
  bearer,
  body,
  expectError,
  makeCompanion,
  post,
  type TestCompanion,
} from './companion-support.js';

const NUMBER = '+14155550123';
const SALES_NUMBER = '+442071838750';

/** A dial of `agent` through the handler, the visitor in the call (the service says `in-progress`). */
async function liveDial(companion: TestCompanion, agent?: string) {
  const response = await companion.handler(post('/dials', agent ? { agent } : {}), { clientAddress: '203.0.113.7' });
  const answer = await body(response);
  assert.equal(response.status, 200, JSON.stringify(answer));
  const dialId = String(answer.dialId);
  const record = companion.service.dials.get(dialId);
  assert.ok(record);
  record.status = 'in-progress';
  return { dialId, handle: String(answer.handle), answer, record };
}

const transfer = (companion: TestCompanion, dialId: string, handle?: string, headers: Record<string, string> = {}) =>
  companion.handler(post(`/dials/${dialId}/transfer`, undefined, { ...(handle ? bearer(handle) : {}), ...headers }));

describe('POST /dials/:id/transfer', () => {
  test("the service is asked to transfer the dial to the agent's configured number, once; the create said it is offered", async () => {
    const companion = makeCompanion({ transferNumber: NUMBER, transferNumbers: { sales: SALES_NUMBER } });
    const { dialId, handle, answer } = await liveDial(companion);
    assert.equal(answer.transfer, true);
    const response = await transfer(companion, dialId, handle);
    assert.equal(response.status, 200);
    assert.deepEqual(await body(response), { success: true });
    assert.deepEqual(companion.service.transfers, [{ dialId, transferNumber: NUMBER }]);
    // The API key authorises the mutation; the number never came from the browser.
    const call = companion.service.callsTo('POST', /^\/query$/).at(-1);
    assert.equal(call?.headers.get('authorization'), `Bearer ${API_KEY}`);

    const sales = await liveDial(companion, 'sales');
    assert.equal((await transfer(companion, sales.dialId, sales.handle)).status, 200);
    assert.deepEqual(companion.service.transfers[1], { dialId: sales.dialId, transferNumber: SALES_NUMBER });

    // A second transfer of the same dial is refused, and the service is not asked again.
    await expectError(await transfer(companion, dialId, handle), 409, 'duplicate_request');
    assert.equal(companion.service.transfers.length, 2);
  });

  test('a body cannot choose the number: it is ignored', async () => {
    const companion = makeCompanion({ transferNumber: NUMBER });
    const { dialId, handle } = await liveDial(companion);
    const response = await companion.handler(
      post(`/dials/${dialId}/transfer`, { transferNumber: '+19005550000' }, bearer(handle)),
    );
    assert.equal(response.status, 200);
    assert.deepEqual(companion.service.transfers, [{ dialId, transferNumber: NUMBER }]);
  });

  test('no number configured: the create does not offer it and the route is a 404 before anything else', async () => {
    const companion = makeCompanion();
    const { dialId, handle, answer } = await liveDial(companion);
    assert.equal(answer.transfer, undefined);
    await expectError(await transfer(companion, dialId, handle), 404, 'not_found');
    await expectError(await transfer(companion, dialId), 404, 'not_found');
    assert.equal(
      companion.service.callsTo('POST', /^\/query$/).length,
      1,
      'only the create asked for media credentials',
    );
  });

  test("a number for another agent only: this agent's dial is not offered a transfer, and its route answers 404", async () => {
    const companion = makeCompanion({ transferNumbers: { sales: SALES_NUMBER } });
    const { dialId, handle, answer } = await liveDial(companion);
    assert.equal(answer.transfer, undefined);
    await expectError(await transfer(companion, dialId, handle), 404, 'not_found');
    assert.equal(companion.service.transfers.length, 0);
    const sales = await liveDial(companion, 'sales');
    assert.equal(sales.answer.transfer, true);
  });

  test("refusals: no handle, another dial's handle, another origin, a dial that is not live; none reaches the service", async () => {
    const companion = makeCompanion({ transferNumber: NUMBER });
    const { dialId, handle, record } = await liveDial(companion);
    const other = await liveDial(companion);
    await expectError(await transfer(companion, dialId), 401, 'invalid_handle');
    await expectError(await transfer(companion, dialId, other.handle), 401, 'invalid_handle');
    await expectError(
      await transfer(companion, dialId, handle, { origin: 'https://evil.example' }),
      403,
      'origin_not_allowed',
    );
    record.status = 'completed';
    await expectError(await transfer(companion, dialId, handle), 409, 'duplicate_request');
    record.status = 'ringing';
    await expectError(await transfer(companion, dialId, handle), 409, 'duplicate_request');
    assert.equal(companion.service.transfers.length, 0);
    // None of them used up the dial's one transfer.
    record.status = 'in-progress';
    assert.equal((await transfer(companion, dialId, handle)).status, 200);
    // GET is not the route's method.
    const wrong = await companion.handler(
      new Request(`https://site.example/api/voice-call/dials/${dialId}/transfer`, { headers: bearer(handle) }),
    );
    await expectError(wrong, 405, 'method_not_allowed');
  });

  test("the service refuses: a 502 that does not echo the service's words, logged with them", async () => {
    const companion = makeCompanion({ transferNumber: NUMBER });
    companion.service.transferErrors = ['transfer not allowed SERVICE-WORDS-5521'];
    const { dialId, handle } = await liveDial(companion);
    const response = await transfer(companion, dialId, handle);
    const text = await response.clone().text();
    await expectError(response, 502, 'upstream_error');
    assert.ok(!text.includes('SERVICE-WORDS-5521'));
    const line = companion.logs.find((entry) => entry.route === 'POST /dials/:id/transfer');
    assert.equal(line?.status, 502);
    assert.match(String(line?.reason), /SERVICE-WORDS-5521/);
  });
});

describe('transfer numbers in the config', () => {
  const base = { apiKey: API_KEY, baseUrl: 'https://service.example/api', secret: SECRET, logger: false as const };

  test('options: a number that is not E.164, or one for a name that is no agent, is refused at start', () => {
    for (const bad of ['4155550123', '+0123', '+1 415 555 0123', '+1234567890123456', 'tel:+14155550123']) {
      assert.throws(
        () => createCompanionHandler({ ...base, agentId: 'a', transferNumber: bad }),
        (error: unknown) => error instanceof TypeError && /E\.164/.test(error.message),
        bad,
      );
    }
    assert.throws(
      () => createCompanionHandler({ ...base, agents: { sales: 'a' }, transferNumbers: { support: NUMBER } }),
      /not an agent name/,
    );
    assert.throws(
      () =>
        createCompanionHandler({
          ...base,
          agents: { sales: 'a', again: 'a' },
          transferNumbers: { sales: NUMBER, again: SALES_NUMBER },
        }),
      /different transfer numbers/,
    );
  });

  test('environment: COMPANION_TRANSFER_NUMBER and VOICE_AGENT_TRANSFER_NUMBERS are read and checked', () => {
    const env = {
      VOICE_AGENT_API_KEY: API_KEY,
      VOICE_AGENT_BASE_URL: 'https://service.example/api',
      VOICE_AGENT_AGENTS: JSON.stringify({ default: 'a', sales: 'b' }),
      COMPANION_SECRET: SECRET,
    };
    const config = companionConfigFromEnv({
      ...env,
      COMPANION_TRANSFER_NUMBER: NUMBER,
      VOICE_AGENT_TRANSFER_NUMBERS: JSON.stringify({ sales: SALES_NUMBER }),
    });
    assert.equal(config.transferNumber, NUMBER);
    assert.deepEqual(config.transferNumbers, { sales: SALES_NUMBER });
    const problems = (extra: Record<string, string>) => {
      try {
        companionConfigFromEnv({ ...env, ...extra });
      } catch (error) {
        assert.ok(error instanceof ConfigError);
        return error.problems.join('\n');
      }
      return '';
    };
    assert.match(problems({ COMPANION_TRANSFER_NUMBER: '555-0123' }), /COMPANION_TRANSFER_NUMBER must be .*E\.164/);
    assert.match(
      problems({ VOICE_AGENT_TRANSFER_NUMBERS: '[1]' }),
      /VOICE_AGENT_TRANSFER_NUMBERS must be a JSON object/,
    );
    assert.match(
      problems({ VOICE_AGENT_TRANSFER_NUMBERS: JSON.stringify({ sales: '0800' }) }),
      /number of "sales" must be .*E\.164/,
    );
    assert.match(
      problems({ VOICE_AGENT_TRANSFER_NUMBERS: JSON.stringify({ support: NUMBER }) }),
      /"support", which is not an agent name/,
    );
  });
});
