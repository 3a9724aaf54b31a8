// The devices menu is a chunk of its own (src/features/devices/devices-part.ts): a call with the
// default controls shows the toggle but fetches none of the menu until the visitor reaches for it;
// the pointer on the toggle fetches it ahead of the click, and the click opens the menu with the
// microphones listed and focus on the one in use. A real call through the companion and the emulator.
import { expect, fixture, html } from '@open-wc/testing';
import type { VoiceAgentCall } from '../../src/define.js';
import '../../src/define.js';
import { part, shadow } from '../support/dom.js';
import { hover, pointerAway } from '../support/pointer.js';
import { until } from '../support/until.js';

/** The page has fetched the devices chunk's module (the dev server serves each module on its own). */
const chunkFetched = (): boolean =>
  performance.getEntriesByType('resource').some((entry) => entry.name.includes('/src/features/devices/devices-chunk.'));

describe('the devices menu loads when the visitor reaches for it', function () {
  this.timeout(60000);

  it('a call with the default controls fetches it only once the pointer is on the toggle; the click opens it listed', async () => {
    await pointerAway();
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-demo"></voice-agent-call>`,
    );
    const connected = new Promise<void>((resolve) =>
      el.addEventListener('call-connected', () => resolve(), { once: true }),
    );
    part(el, 'call-button').click();
    await connected;
    await el.updateComplete;
    try {
      const toggle = part(el, 'devices-button');
      expect(chunkFetched()).to.equal(false);

      await hover(toggle);
      await until(chunkFetched, 5000, 'the devices chunk fetched on the pointer');
      expect(toggle.getAttribute('aria-expanded')).to.equal('false');

      toggle.click();
      await until(() => shadow(el).activeElement?.matches('.devices input') === true, 5000, 'focus in the menu');
      const inputs = [...shadow(el).querySelectorAll<HTMLInputElement>('.devices input[name="vac-microphone"]')];
      expect(inputs.length).to.be.greaterThan(0);
      expect(shadow(el).activeElement).to.equal(inputs.find((input) => input.checked));
      expect(toggle.getAttribute('aria-expanded')).to.equal('true');
      // The menu's styles came with it: each row is a finger's height.
      expect(inputs[0]?.closest('label')?.getBoundingClientRect().height).to.be.at.least(44);
    } finally {
      await pointerAway();
      if (el.state !== 'ended') await el.hangup();
    }
  });
});
