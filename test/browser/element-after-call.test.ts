// What a keyboard or screen-reader visitor meets around a call (issue 40): hanging up with a rating
// to give lands focus on the rating's question, not past it on "Call again"; a card that gets
// `consent` after a call says it is ready, not "Call ended", above "Before you call"; the mute and
// hold toggles keep one name and say their state with `aria-pressed` alone.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { VoiceAgentCall } from '../../src/define.js';
import { part, shadow, text } from '../support/dom.js';
import { axeViolations, useFakeSessionsCallLoaded } from '../support/element-fixture.js';
import { inCall } from '../support/fake-session.js';
import { withHoldingCall } from '../support/full-session.js';
import { until } from '../support/until.js';

useFakeSessionsCallLoaded();

function focused(el: VoiceAgentCall): Element | null {
  return shadow(el).activeElement;
}

describe('<voice-agent-call> around a call, by keyboard', () => {
  it('with `feedback`, Enter on "Hang up" puts focus on "How was this call?", then Tab reaches the thumbs', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/api" feedback></voice-agent-call>`);
    await inCall(el);
    part(el, 'hangup-button').focus();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(el.state).to.equal('ended');
    const question = focused(el);
    expect(question?.textContent?.trim()).to.equal('How was this call?');
    expect(question?.id).to.equal('feedback-question');
    await sendKeys({ press: 'Tab' });
    expect(focused(el)).to.equal(part(el, 'feedback-up'));
    expect(await axeViolations(el)).to.deep.equal([]);
  });

  it('without `feedback`, Enter on "Hang up" still puts focus on "Call again"', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/api"></voice-agent-call>`);
    await inCall(el);
    part(el, 'hangup-button').focus();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(focused(el)).to.equal(part(el, 'call-button'));
    expect(text(el, 'call-button')).to.equal('Call again');
  });

  it('a card given `consent` after a call shows "Ready to talk" above the gate, not "Call ended"', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/api"></voice-agent-call>`);
    const session = await inCall(el);
    session.end('user-hangup');
    await el.updateComplete;
    expect(text(el, 'status')).to.equal('Call ended');
    el.setAttribute('consent', `Calls are recorded (${Math.random()}).`);
    part(el, 'call-button').click();
    await el.updateComplete;
    expect(text(el, 'consent')).to.contain('Calls are recorded');
    expect(text(el, 'status')).to.equal('Ready to talk');
    part(el, 'consent-cancel').click();
    await el.updateComplete;
    expect(text(el, 'status'), 'the gate closed: the last call again').to.equal('Call ended');
  });

  it('mute and hold keep their names; aria-pressed alone says muted or held', async () => {
    await withHoldingCall(async (el) => {
      await el.updateComplete;
      const names = (): string[] => ['mute-button', 'hold-button'].map((name) => text(el, name));
      const pressed = (): (string | null)[] =>
        ['mute-button', 'hold-button'].map((name) => part(el, name).getAttribute('aria-pressed'));
      expect(names()).to.deep.equal(['Mute', 'Hold']);
      expect(pressed()).to.deep.equal(['false', 'false']);
      part(el, 'mute-button').click();
      part(el, 'hold-button').click();
      await until(() => el.held, 5000, 'held');
      await el.updateComplete;
      expect(names()).to.deep.equal(['Mute', 'Hold']);
      expect(pressed()).to.deep.equal(['true', 'true']);
      for (const name of ['mute-button', 'hold-button'])
        expect(part(el, name).hasAttribute('aria-label'), `${name} is named by its text`).to.equal(false);
    });
  });
});
