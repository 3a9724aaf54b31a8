// A busy line (the service at capacity ends the dial as it is created: emu-busy) ends `busy`
// without one refused request (issue 40): the browser logs any HTTP error answer as a red "Failed
// to load resource" no script can hide, so the widget no longer asks the token route for a dial
// the companion's create already said had ended. Real companion and emulator.
import { expect } from '@open-wc/testing';
import { CallSession } from '../../src/call/call-session.js';
import type { EndReason } from '../../src/call/types.js';

describe('a busy line, quietly', () => {
  const realFetch = window.fetch;
  afterEach(() => {
    window.fetch = realFetch;
  });

  it('emu-busy ends busy, every answer 2xx, no token request', async () => {
    const seen: string[] = [];
    window.fetch = async (input, init) => {
      const response = await realFetch(input, init);
      const url = new URL(input instanceof Request ? input.url : String(input), location.href);
      seen.push(`${init?.method ?? 'GET'} ${url.pathname} ${response.status}`);
      return response;
    };
    const container = document.createElement('div');
    document.body.append(container);
    const session = new CallSession({ endpoint: '/api/voice-call', agent: 'emu-busy', audioContainer: container });
    const ended = new Promise<EndReason>((resolve) =>
      session.addEventListener('call-ended', (event) => resolve(event.detail.reason), { once: true }),
    );
    await session.start();
    expect(await ended).to.equal('busy');
    container.remove();
    expect(
      seen.some((line) => line.startsWith('POST /api/voice-call/dials ')),
      'the create was seen',
    ).to.equal(true);
    expect(seen.filter((line) => !/ 2\d\d$/.test(line))).to.deep.equal([]);
    expect(seen.filter((line) => line.includes('/token'))).to.deep.equal([]);
  });
});
