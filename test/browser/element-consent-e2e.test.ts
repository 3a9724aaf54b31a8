// The consent gate with the real CallSession, the real companion (/api/voice-call) and the
// emulator: before "Agree" the browser is asked for nothing (no getUserMedia) and no dial is
// created (no POST /dials), whether the call chunk had loaded or not; "Cancel" spends nothing;
// "Agree and call" calls, and `call-ended` says when consent was given.
import { expect, fixture, html } from '@open-wc/testing';
import type { CallResult } from '../../src/call/types.js';
import type { VoiceAgentCall } from '../../src/define.js';
import '../../src/define.js';
import { loadedCall } from '../../src/element/call-loader.js';
import { findPart, part } from '../support/dom.js';
import { emulatorDial } from '../support/emulator.js';
import { collect } from '../support/events.js';
import { until } from '../support/until.js';

/** Every getUserMedia call and every request the page makes, from now on. */
function spy(): { microphone: number; requests: string[]; restore(): void } {
  const devices = navigator.mediaDevices;
  const getUserMedia = devices.getUserMedia;
  const fetch = window.fetch;
  const seen = { microphone: 0, requests: [] as string[], restore };
  devices.getUserMedia = function (this: MediaDevices, constraints?: MediaStreamConstraints) {
    seen.microphone += 1;
    return getUserMedia.call(this, constraints);
  };
  window.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
    const url = input instanceof Request ? input.url : String(input);
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    seen.requests.push(`${method} ${new URL(url, location.href).pathname}`);
    return fetch.call(window, input, init);
  };
  function restore(): void {
    devices.getUserMedia = getUserMedia;
    window.fetch = fetch;
  }
  return seen;
}

describe('<voice-agent-call consent> end to end (companion + emulator)', function () {
  this.timeout(60000);

  it('a click before the call chunk loaded: the disclosure, no microphone request, no dial; Agree calls; consentAt on call-ended', async () => {
    expect(loadedCall(), 'this test clicks before the call chunk has loaded').to.equal(null);
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call
        endpoint="/api/voice-call"
        agent="emu-quick"
        preload="none"
        consent="This call is recorded and transcribed."
      ></voice-agent-call>`,
    );
    const consents = collect(el, 'call-consent', (event) => event.detail);
    const ended = collect(el, 'call-ended', (event) => event.detail);
    const seen = spy();
    try {
      part(el, 'call-button').click();
      await until(() => findPart(el, 'consent') !== null, 10000, 'the disclosure');
      expect(seen.microphone, 'getUserMedia before Agree').to.equal(0);
      expect(
        seen.requests.filter((request) => request.includes('/dials')),
        'companion requests before Agree',
      ).to.deep.equal([]);
      expect(el.state).to.equal('idle');
      expect(el.shadowRoot?.querySelector('audio'), 'no audio element unlocked before Agree').to.equal(null);

      part(el, 'consent-agree').click();
      expect(seen.microphone, 'the microphone is asked for inside the Agree click').to.equal(1);
      await until(() => ended.length === 1, 45000, 'call-ended');
      expect(seen.requests).to.include('POST /api/voice-call/dials');
      const result = ended[0] as CallResult;
      expect(result.reason).to.equal('agent-hangup');
      expect(consents).to.have.length(1);
      expect(consents[0]?.accepted).to.equal(true);
      expect(result.consentAt).to.equal(consents[0]?.at);
      expect((await emulatorDial(result.dialId ?? '')).status).to.equal('completed');
    } finally {
      seen.restore();
    }
  });

  it('"Cancel" (the call chunk loaded): back to idle, no microphone request, no dial', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call
        endpoint="/api/voice-call"
        agent="emu-quick"
        consent="Another disclosure: this call is recorded."
      ></voice-agent-call>`,
    );
    const seen = spy();
    try {
      const started = el.start();
      await el.updateComplete;
      expect(findPart(el, 'consent')).to.not.equal(null);
      part(el, 'consent-cancel').click();
      await started;
      await el.updateComplete;
      expect(el.state).to.equal('idle');
      expect(findPart(el, 'call-button')).to.not.equal(null);
      expect(seen.microphone).to.equal(0);
      expect(seen.requests).to.deep.equal([]);
    } finally {
      seen.restore();
    }
  });
});
