// A companion on another origin that allows the page (COMPANION_ALLOWED_ORIGINS): what the page
// sends while it goes away (the hang-up, and with `persist` the leave) must reach it. A beacon
// always carries credentials, so one the browser preflights (a JSON body) is dropped by a
// companion whose CORS grants no credentials; these beacons go without a preflight. The
// browser does the real CORS checks; the page is http://127.0.0.1:<port>, the companion its own port.
import { expect } from '@open-wc/testing';
import { CallSession } from '../../src/call/call-session.js';
import { CompanionClient } from '../../src/call/companion-client.js';
import { emulatorDial } from '../support/emulator.js';
import { present } from '../support/present.js';
import { until } from '../support/until.js';

let container: HTMLElement;

async function companionOnAnotherOrigin(): Promise<string> {
  const services = (await (await fetch('/__services')).json()) as { companionUrl: string };
  expect(new URL(services.companionUrl).origin, 'the companion is on another origin').not.to.equal(location.origin);
  return services.companionUrl;
}

describe('a companion on another origin: the beacons of a page going away arrive', function () {
  this.timeout(60000);

  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
  });

  afterEach(() => {
    container.remove();
  });

  it('the hang-up beacon reaches it: a dial the page created and never joined is cancelled', async () => {
    // No room joined, so nothing but the beacon can end the dial (a caller leaving the room would).
    const client = new CompanionClient(await companionOnAnotherOrigin());
    const dial = await client.createDial({ agent: 'emu-demo' }, crypto.randomUUID(), AbortSignal.timeout(10000));
    expect((await emulatorDial(dial.dialId)).status).to.be.oneOf(['queued', 'ringing']);
    client.hangupBeacon(dial);
    await until(
      async () => (await emulatorDial(dial.dialId)).status === 'canceled',
      10000,
      'the dial cancelled by the beacon',
    );
  });

  it('with persist, pagehide tells the companion the page left, and it ends the dial after its grace (8 s here)', async () => {
    const session = new CallSession({
      endpoint: await companionOnAnotherOrigin(),
      agent: 'emu-demo',
      audioContainer: container,
      persist: true,
    });
    await session.start();
    const dialId = present(session.dialId, "the call's dial id");
    const leftAt = Date.now();
    window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
    // Left, not hung up: the dial waits for a page that could take it up, until the grace is over.
    expect((await emulatorDial(dialId)).status).to.equal('in-progress');
    await until(
      async () => (await emulatorDial(dialId)).status !== 'in-progress',
      25000,
      'the companion ends the dial',
    );
    const after = Date.now() - leftAt;
    expect(after, `ended ${after} ms after the page left`).to.be.within(7000, 25000);
    sessionStorage.clear();
  });
});
