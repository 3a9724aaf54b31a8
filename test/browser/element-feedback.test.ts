// The rating after a call (`feedback`) with a fake session: when the ended card asks, each step by
// keyboard with focus and announcements, the `call-feedback` event, `feedback="server"` handing it
// to the session, Arabic, axe in every step. The companion's route is tested in
// test/node/companion-feedback.test.ts, the whole path in element-feedback-e2e.test.ts.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { VoiceAgentCall } from '../../src/define.js';
import { findPart, part, query, shadow, text } from '../support/dom.js';
import { collect } from '../support/events.js';
import { axeViolations, useFakeSessionsCallLoaded } from '../support/element-fixture.js';
import { inCall } from '../support/fake-session.js';

const fake = useFakeSessionsCallLoaded();

function focused(el: VoiceAgentCall): Element | null {
  return shadow(el).activeElement;
}

function announced(el: VoiceAgentCall): string {
  return query(el, '[role=status]').textContent ?? '';
}

/** An element with `feedback` (or `value`), through a call that connected and ended. */
async function ratedCard(value = '', lang = 'en'): Promise<VoiceAgentCall> {
  const el = await fixture<VoiceAgentCall>(
    html`<voice-agent-call endpoint="/api" feedback=${value} lang=${lang}></voice-agent-call>`,
  );
  const session = await inCall(el);
  session.end('agent-hangup');
  await el.updateComplete;
  return el;
}

describe('<voice-agent-call feedback>', () => {
  it('after a call that connected: "How was this call?" with thumbs up and down, announced with the summary; axe-clean', async () => {
    const el = await ratedCard();
    expect(text(el, 'feedback')).to.contain('How was this call?');
    expect(part(el, 'feedback').getAttribute('role')).to.equal('group');
    expect(part(el, 'feedback-up').getAttribute('aria-label')).to.equal('Good');
    expect(part(el, 'feedback-down').getAttribute('aria-label')).to.equal('Not good');
    expect(part(el, 'feedback-up').getAttribute('aria-pressed')).to.equal('false');
    expect(findPart(el, 'feedback-comment'), 'the comment comes after a thumb').to.equal(null);
    expect(announced(el)).to.contain('Call ended').and.to.contain('How was this call?');
    expect(await axeViolations(el)).to.deep.equal([]);
  });

  it('by keyboard: a thumb, then the comment (focused, labelled), Send: call-feedback with the comment, thanks announced, focus on Call again', async () => {
    const el = await ratedCard();
    const sent = collect(el, 'call-feedback', (event) => event.detail);
    part(el, 'feedback-down').focus();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    await el.updateComplete;
    expect(part(el, 'feedback-down').getAttribute('aria-pressed')).to.equal('true');
    const comment = part<HTMLTextAreaElement>(el, 'feedback-comment');
    expect(focused(el)).to.equal(comment);
    expect(announced(el), 'the live region does not read the summary again').to.contain('How was this call?');
    expect(comment.labels?.[0]?.textContent).to.equal('Anything to add? (optional)');
    expect(comment.maxLength).to.equal(500);
    expect(await axeViolations(el)).to.deep.equal([]);
    await sendKeys({ type: 'It did not find my order.' });
    expect(sent, 'nothing sent before Send or Skip').to.deep.equal([]);
    await sendKeys({ press: 'Tab' }); // Skip
    await sendKeys({ press: 'Tab' }); // Send
    expect(focused(el)).to.equal(part(el, 'feedback-send'));
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    await el.updateComplete;
    expect(sent).to.deep.equal([{ dialId: 'dial-1', rating: 'down', comment: 'It did not find my order.' }]);
    expect(text(el, 'feedback')).to.equal('Thanks for your feedback.');
    expect(announced(el)).to.equal('Thanks for your feedback.');
    expect(focused(el)).to.equal(part(el, 'call-button'));
    expect(fake().feedbacks, 'without feedback="server" nothing goes to the session').to.deep.equal([]);
    expect(await axeViolations(el)).to.deep.equal([]);
  });

  it('Skip sends the rating alone; Ctrl+Enter in the comment sends it; a second call asks again', async () => {
    const el = await ratedCard();
    const sent = collect(el, 'call-feedback', (event) => event.detail);
    part(el, 'feedback-up').click();
    await el.updateComplete;
    part(el, 'feedback-skip').click();
    await el.updateComplete;
    expect(sent).to.deep.equal([{ dialId: 'dial-1', rating: 'up' }]);

    const session = await inCall(el);
    session.end('user-hangup');
    await el.updateComplete;
    expect(text(el, 'feedback'), 'asked again for the new call').to.contain('How was this call?');
    part(el, 'feedback-up').click();
    await el.updateComplete;
    await el.updateComplete;
    await sendKeys({ type: '  Great  ' });
    await sendKeys({ down: 'Control' });
    await sendKeys({ press: 'Enter' });
    await sendKeys({ up: 'Control' });
    expect(sent[1]).to.deep.equal({ dialId: 'dial-1', rating: 'up', comment: 'Great' });
  });

  it('feedback="server" hands the rating to the session (which posts it to the companion)', async () => {
    const el = await ratedCard('server');
    part(el, 'feedback-up').click();
    await el.updateComplete;
    const comment = part<HTMLTextAreaElement>(el, 'feedback-comment');
    comment.value = 'Quick and clear';
    comment.dispatchEvent(new Event('input'));
    part(el, 'feedback-send').click();
    expect(fake().feedbacks).to.deep.equal([{ rating: 'up', comment: 'Quick and clear' }]);
  });

  it('no rating without the attribute, nor after a call that never connected', async () => {
    const plain = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/api"></voice-agent-call>`);
    (await inCall(plain)).end('agent-hangup');
    await plain.updateComplete;
    expect(findPart(plain, 'feedback')).to.equal(null);

    const busy = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/api" feedback></voice-agent-call>`);
    part(busy, 'call-button').click();
    fake().end('busy');
    await busy.updateComplete;
    expect(busy.state).to.equal('ended');
    expect(findPart(busy, 'feedback')).to.equal(null);
  });

  it('dark theme: axe-clean at every step (question, comment, thanks)', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api" feedback theme="dark"></voice-agent-call>`,
    );
    (await inCall(el)).end('agent-hangup');
    await el.updateComplete;
    expect(await axeViolations(el), 'question').to.deep.equal([]);
    part(el, 'feedback-up').click();
    await el.updateComplete;
    expect(await axeViolations(el), 'comment').to.deep.equal([]);
    part(el, 'feedback-skip').click();
    await el.updateComplete;
    expect(text(el, 'feedback')).to.equal('Thanks for your feedback.');
    expect(await axeViolations(el), 'thanks').to.deep.equal([]);
  });

  it('Arabic: the rating in Arabic; axe-clean', async () => {
    const el = await ratedCard('', 'ar');
    expect(text(el, 'feedback')).to.contain('كيف كانت المكالمة؟');
    expect(part(el, 'feedback-up').getAttribute('aria-label')).to.equal('جيدة');
    part(el, 'feedback-up').click();
    await el.updateComplete;
    expect(part(el, 'feedback-send').textContent?.trim()).to.equal('إرسال');
    expect(await axeViolations(el)).to.deep.equal([]);
  });
});
