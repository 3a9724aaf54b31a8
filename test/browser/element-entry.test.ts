// `import 'voice-agent-call'` (src/index.ts) has no side effects: this page never imports define.
import { expect } from '@open-wc/testing';
import * as entry from '../../src/index.js';
import { text } from '../support/dom.js';

describe('voice-agent-call entry point', () => {
  it('exports the element class without registering a tag', () => {
    expect(typeof entry.VoiceAgentCall).to.equal('function');
    expect(typeof entry.CallSession).to.equal('function');
    expect(customElements.get('voice-agent-call')).to.equal(undefined);
    expect(document.querySelector('style, audio')).to.equal(null);
  });

  it("registers under a name of the page's choosing", async () => {
    customElements.define('my-voice-call', entry.VoiceAgentCall);
    const el = document.createElement('my-voice-call') as InstanceType<typeof entry.VoiceAgentCall>;
    el.setAttribute('endpoint', '/api/voice-call');
    document.body.append(el);
    try {
      await el.updateComplete;
      expect(el.getAttribute('state')).to.equal('idle');
      expect(text(el, 'call-button')).to.equal('Start call');
    } finally {
      el.remove();
    }
  });
});
