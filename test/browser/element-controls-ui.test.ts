// The in-call controls against a scripted session (element-controls.test.ts places real calls):
// what shows when the session cannot hold (the companion gave no service session) or has no
// device or keypad methods (another CallSessionLike).
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { CallHoldEvent } from '../../src/call/events.js';
import { VoiceAgentCall } from '../../src/define.js';
import { loadCall } from '../../src/element/call-loader.js';
import { findPart, part, text } from '../support/dom.js';
import { FakeSession, inCall, useFakeSessions } from '../support/fake-session.js';
import { present } from '../support/present.js';

/** A scripted session that can hold, or not (`canHold`: whether the companion gave a service session). */
class HoldingSession extends FakeSession {
  canHold = false;
  held = false;
  async setHeld(held: boolean): Promise<void> {
    this.held = held;
    this.dispatchEvent(new CallHoldEvent({ held }));
  }
}

const fake = useFakeSessions();

before(async () => {
  await loadCall();
});

describe('<voice-agent-call> in-call controls with a scripted session', () => {
  it('a session without keypad or device methods shows neither; hang-up always shows', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" controls="mute devices keypad hold"></voice-agent-call>`,
    );
    await inCall(el);
    expect(fake().state).to.equal('in-call');
    expect(findPart(el, 'mute-button')).to.not.equal(null);
    expect(findPart(el, 'devices-button')).to.equal(null);
    expect(findPart(el, 'keypad-button')).to.equal(null);
    expect(findPart(el, 'hold-button')).to.equal(null);
    expect(findPart(el, 'hangup-button')).to.not.equal(null);
  });

  it('the hold button is absent when the call cannot be held (no service session), present when it can', async () => {
    const sessions: HoldingSession[] = [];
    const previous = VoiceAgentCall.sessionFactory;
    VoiceAgentCall.sessionFactory = (options) => {
      const made = new HoldingSession(options);
      sessions.push(made);
      return made;
    };
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" controls="hold"></voice-agent-call>`,
    );
    try {
      part(el, 'call-button').click();
    } finally {
      VoiceAgentCall.sessionFactory = previous;
    }
    const held = present(sessions[0], 'the session');
    held.go('connecting');
    held.go('in-call');
    await el.updateComplete;
    expect(findPart(el, 'hold-button')).to.equal(null);
    held.canHold = true;
    el.requestUpdate();
    await el.updateComplete;
    part(el, 'hold-button').click();
    // The element's setHeld reaches the session after the call chunk's (already loaded) import resolves.
    await waitUntil(() => el.held, 'held');
    await el.updateComplete;
    expect(part(el, 'hold-button').getAttribute('aria-pressed')).to.equal('true');
    expect(text(el, 'status')).to.equal('On hold');
  });
});
