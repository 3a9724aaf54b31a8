// `controls`, `consent`, `consent-storage`, `feedback` and `remember-devices` are declared
// properties of the element (as React sets them, through @lit/react; the call chunk reads the
// properties): set as properties they work as the attributes do, a change re-renders, and an
// attribute reads back as its property. With a fake session.
import { expect, fixture, html } from '@open-wc/testing';
import type { VoiceAgentCall } from '../../src/define.js';
import { findPart, part, text } from '../support/dom.js';
import { useFakeSessionsCallLoaded } from '../support/element-fixture.js';
import { inCall } from '../support/fake-session.js';

const fake = useFakeSessionsCallLoaded();

async function element(): Promise<VoiceAgentCall> {
  return fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/api"></voice-agent-call>`);
}

describe('<voice-agent-call> attributes as properties', () => {
  it('an attribute reads back as its property', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call
        endpoint="/api"
        controls="mute hold"
        consent="Calls are recorded."
        consent-storage="session"
        feedback="server"
        remember-devices
      ></voice-agent-call>`,
    );
    expect(el.controls).to.equal('mute hold');
    expect(el.consent).to.equal('Calls are recorded.');
    expect(el.consentStorage).to.equal('session');
    expect(el.feedback).to.equal('server');
    expect(el.rememberDevices).to.equal(true);
    el.removeAttribute('remember-devices');
    el.setAttribute('feedback', '');
    expect(el.rememberDevices).to.equal(false);
    expect(el.feedback).to.equal('');
  });

  it('controls set as a property during a call changes the buttons at once', async () => {
    const el = await element();
    el.controls = 'hold';
    await inCall(el);
    expect(findPart(el, 'mute-button'), 'controls without mute: no mute button').to.equal(null);
    el.controls = 'mute devices';
    await el.updateComplete;
    expect(findPart(el, 'mute-button'), 'the new value re-renders the row').to.not.equal(null);
    el.controls = 'hold';
    await el.updateComplete;
    expect(findPart(el, 'mute-button')).to.equal(null);
    el.controls = undefined;
    await el.updateComplete;
    expect(findPart(el, 'mute-button'), 'unset: the default, which has mute').to.not.equal(null);
  });

  it('consent and consentStorage set as properties show the gate before any session', async () => {
    const el = await element();
    el.consent = 'Calls are recorded.';
    el.consentStorage = 'session';
    await el.updateComplete;
    part(el, 'call-button').click();
    await el.updateComplete;
    expect(text(el, 'consent')).to.contain('Calls are recorded.');
    expect(fake().state, 'no call before "Agree"').to.equal('idle');
    part(el, 'consent-agree').click();
    await el.updateComplete;
    expect(fake().state).to.equal('starting');
    expect(sessionStorage.length, 'the agreement is kept where consentStorage says').to.equal(1);
    sessionStorage.clear();
  });

  it('feedback as a boolean property: true asks for a rating after the call, false does not', async () => {
    const el = await element();
    el.feedback = true;
    const session = await inCall(el);
    session.end('agent-hangup');
    await el.updateComplete;
    expect(text(el, 'feedback')).to.contain('How was this call?');
    el.feedback = false;
    await el.updateComplete;
    expect(findPart(el, 'feedback')).to.equal(null);
  });

  it('rememberDevices set as a property reaches the session when a call starts', async () => {
    const el = await element();
    el.rememberDevices = true;
    await inCall(el);
    expect(fake().options.rememberDevices).to.equal(true);
    el.rememberDevices = false;
    fake().end('user-hangup');
    await el.updateComplete;
    await inCall(el);
    expect(fake().options.rememberDevices, 'the next call reads it again').to.equal(false);
  });
});
