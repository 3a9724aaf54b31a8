// Issue 41, finding 6: the dial token the companion gives the browser (for the service's session
// protocol) also authorises the service's GraphQL `hangupCall`, which takes a `transferNumber`.
// Whether the service restricts that number for browser dials is not known; the security section
// of docs/companion.md says so. Through the real emulator (which accepts and ignores the number).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { createCompanionHandler, type CompanionHandler } from '../../src/server/handler.js';
import { graphql } from '../support/media-credentials.js';
import { bearer, body, guard, post, SECRET } from './companion-support.js';

let emulator: Emulator;
let handler: CompanionHandler;

before(async () => {
  emulator = await startEmulator({ logger: false });
  handler = guard(
    createCompanionHandler({
      apiKey: emulator.apiKey,
      baseUrl: emulator.apiUrl,
      graphqlUrl: emulator.graphqlUrl,
      agents: { default: 'emu-no-agent' },
      secret: SECRET,
      allowedOrigins: ['https://shop.example'],
      logger: false,
    }),
    [emulator.apiKey, SECRET],
  );
});
after(() => emulator.close());

describe("the browser's dial token and hangupCall's transferNumber", () => {
  test('the dial token from the token route is enough to call hangupCall with a transferNumber; the docs say the restriction is unknown', async () => {
    const created = await handler(post('/dials', {}));
    assert.equal(created.status, 200);
    const { dialId, handle } = (await body(created)) as { dialId: string; handle: string };
    const token = await handler(post(`/dials/${dialId}/token`, undefined, bearer(handle)));
    const { dialToken, graphqlUrl } = (await body(token)) as { dialToken: string; graphqlUrl: string };

    const answer = await graphql<{ hangupCall: boolean }>(graphqlUrl, dialToken, 'HangupCall', {
      dialId,
      transferNumber: '+15550100999',
    });
    // The token is accepted for the mutation: no authorisation error. The dial is not in progress
    // yet (nobody joined), so the emulator refuses the transfer for the dial's state instead
    // (FAILED_PRECONDITION, its own rule), not for the token that asked.
    const codes = ((answer as { errors?: { extensions?: { code?: string } }[] }).errors ?? []).map(
      (error) => error.extensions?.code,
    );
    assert.deepEqual(codes, ['FAILED_PRECONDITION'], JSON.stringify(answer));
    assert.ok(!codes.includes('FORBIDDEN') && !codes.includes('UNAUTHENTICATED'));

    const docs = await readFile(new URL('../../docs/companion.md', import.meta.url), 'utf8');
    const security = /### Security model\n([\s\S]*?)\n### /.exec(docs)?.[1] ?? '';
    assert.match(security, /`hangupCall\(dialId, dropVoicemail, transferNumber\)`/);
    assert.match(security, /restricts `transferNumber` for browser dials[^.]*is not known/);
  });
});
