// Two widgets on one page (issue 29, item 5): one live call per page. While one widget's call is up,
// starting the other refuses at once (no microphone prompt, no dial) with a clear reason, and the
// live call goes on; once it has ended, the other starts normally. Real sessions, real emulator.
import { expect, fixture, html } from '@open-wc/testing';
import type { CallResult } from '../../src/call/types.js';
import { VoiceAgentCall } from '../../src/define.js';
import { part, text } from '../support/dom.js';
import { until } from '../support/until.js';

function nextEvent<K extends keyof HTMLElementEventMap>(el: HTMLElement, type: K): Promise<HTMLElementEventMap[K]> {
  return new Promise((resolve) => el.addEventListener(type, resolve, { once: true }));
}

describe('two widgets on one page', function () {
  this.timeout(60000);

  it('the second start refuses with call_in_progress while the first call is live; after it ends, it starts', async () => {
    const page = await fixture<HTMLElement>(html`<div>
      <voice-agent-call id="first" endpoint="/api/voice-call" agent="emu-demo"></voice-agent-call>
      <voice-agent-call id="second" endpoint="/api/voice-call" agent="emu-demo" layout="floating"></voice-agent-call>
    </div>`);
    const first = page.querySelector<VoiceAgentCall>('#first');
    const second = page.querySelector<VoiceAgentCall>('#second');
    if (!first || !second) throw new Error('the two widgets');
    const devices = navigator.mediaDevices;
    const getUserMedia = devices.getUserMedia;
    let prompts = 0;
    devices.getUserMedia = (constraints) => {
      prompts += 1;
      return getUserMedia.call(devices, constraints);
    };
    try {
      const connected = nextEvent(first, 'call-connected');
      part(first, 'call-button').click();
      await connected;
      expect(prompts).to.equal(1);

      const refused = nextEvent(second, 'call-error');
      const ended = nextEvent(second, 'call-ended');
      await second.start();
      const error = (await refused).detail;
      expect(error.code).to.equal('call_in_progress');
      expect(error.recoverable).to.equal(true);
      expect(error.message).to.contain('another call is in progress');
      const result = (await ended).detail as CallResult;
      expect(result.reason).to.equal('setup-failed');
      expect(result.dialId, 'no dial for the refused start').to.equal(null);
      expect(prompts, 'no microphone prompt for the refused start').to.equal(1);
      await second.updateComplete;
      expect(text(second, 'error')).to.contain('Another call is in progress');
      expect(text(second, 'call-button')).to.equal('Try again');
      expect(first.state, 'the live call goes on').to.equal('in-call');

      const firstEnded = nextEvent(first, 'call-ended');
      await first.hangup();
      expect((await firstEnded).detail.reason).to.equal('user-hangup');

      const secondConnected = nextEvent(second, 'call-connected');
      void second.start();
      await secondConnected;
      expect(second.state).to.equal('in-call');
      const secondEnded = nextEvent(second, 'call-ended');
      await second.hangup();
      expect((await secondEnded).detail.reason).to.equal('user-hangup');
      await until(() => second.state === 'ended', 10000, 'the second call ends');
    } finally {
      devices.getUserMedia = getUserMedia;
      await Promise.all([first.hangup(), second.hangup()]);
    }
  });
});
