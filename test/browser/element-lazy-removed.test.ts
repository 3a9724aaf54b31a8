// An element removed while its call chunk is still loading (the click came first): no call
// starts for it, and what the click took is given back (microphone tracks stopped, audio element
// gone). Its own page, so the call chunk has not loaded before the click.
import { expect, fixture, html } from '@open-wc/testing';
import { VoiceAgentCall } from '../../src/define.js';
import { loadCall, loadedCall } from '../../src/element/call-loader.js';
import { shadow } from '../support/dom.js';
import { until } from '../support/until.js';

describe('<voice-agent-call> removed while the call chunk loads', () => {
  it('makes no call and releases the microphone and the audio element', async () => {
    expect(loadedCall(), 'the call chunk has not loaded in this page').to.equal(null);
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-quick" preload="none"></voice-agent-call>`,
    );
    const streams: MediaStream[] = [];
    const devices = navigator.mediaDevices;
    const getUserMedia = devices.getUserMedia;
    devices.getUserMedia = (constraints) =>
      getUserMedia.call(devices, constraints).then((stream) => (streams.push(stream), stream));
    const dials: string[] = [];
    const fetchBefore = window.fetch;
    window.fetch = (input, init) => {
      dials.push(String(input instanceof Request ? input.url : input));
      return fetchBefore(input, init);
    };
    const states: string[] = [];
    el.addEventListener('call-state', (event) => states.push(event.detail.state));
    try {
      const started = el.start();
      const audio = shadow(el).querySelector('audio[data-voice-agent-audio]');
      expect(audio, 'the click made the audio element').to.not.equal(null);
      el.remove();
      await started;
      await loadCall();
      await until(
        () =>
          streams.length === 1 &&
          streams.every((stream) => stream.getTracks().every((track) => track.readyState === 'ended')),
        5000,
        'the microphone is released',
      );
      expect(audio?.isConnected, 'the audio element is gone').to.equal(false);
      expect(el.state).to.equal('idle');
      expect(states).to.deep.equal([]);
      expect(
        dials.filter((url) => url.includes('/dials')),
        'no dial',
      ).to.deep.equal([]);
    } finally {
      devices.getUserMedia = getUserMedia;
      window.fetch = fetchBefore;
    }
  });
});
