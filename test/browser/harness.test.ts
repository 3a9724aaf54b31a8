import { html, fixture, expect } from '@open-wc/testing';
import { LitElement } from 'lit';
import { query } from '../support/dom.js';
import { present } from '../support/present.js';

// Proves the browser harness: Lit renders in real Chromium and the fake microphone is there.
class HarnessProbe extends LitElement {
  static override properties = { label: { type: String } };
  label = 'ready';
  override render() {
    return html`<button part="probe">${this.label}</button>`;
  }
}
customElements.define('harness-probe', HarnessProbe);

describe('browser harness', () => {
  it('renders a Lit element into its shadow root', async () => {
    const el = await fixture<HarnessProbe>(html`<harness-probe label="hello"></harness-probe>`);
    expect(query(el, 'button').textContent).to.equal('hello');
  });

  it('gets a live fake microphone track', async () => {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    const track = present(stream.getAudioTracks()[0], 'an audio track');
    expect(track.readyState).to.equal('live');
    track.stop();
  });
});
