// The rating is a chunk of its own (src/element/feature-parts.ts): a page whose element has no
// `feedback` never fetches it, through a whole call; an element with `feedback` fetches it once
// its call starts, and the ended card shows the rating.
import { expect, fixture, html } from '@open-wc/testing';
import type { VoiceAgentCall } from '../../../../src/define.js';
import { loadedPart } from '../../../../src/element/feature-parts.js';
import { findPart, part } from '../../../support/dom.js';
import { useFakeSessionsCallLoaded } from '../../../support/element-fixture.js';
import { inCall } from '../../../support/fake-session.js';

useFakeSessionsCallLoaded();

/** The page's requests for the rating's module so far. */
function feedbackFetches(): string[] {
  return performance
    .getEntriesByType('resource')
    .map((entry) => entry.name)
    .filter((name) => name.includes('/src/features/feedback/'));
}

describe('the rating as its own chunk', () => {
  // In this order: the page has not fetched the rating before the second test asks for it.
  it('an element without feedback: a whole call, and the rating is never fetched', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/api"></voice-agent-call>`);
    const session = await inCall(el);
    session.end('agent-hangup');
    await el.updateComplete;
    expect(findPart(el, 'call-button')).to.not.equal(null);
    expect(findPart(el, 'feedback')).to.equal(null);
    expect(feedbackFetches()).to.deep.equal([]);
    expect(loadedPart('feedback')).to.equal(undefined);
  });

  it('an element with feedback fetches it when its call starts, and the ended card asks', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/api" feedback></voice-agent-call>`);
    const session = await inCall(el);
    session.end('agent-hangup');
    await el.updateComplete;
    expect(part(el, 'feedback').textContent).to.contain('How was this call?');
    expect(feedbackFetches().some((name) => name.includes('feedback-part'))).to.equal(true);
    expect(loadedPart('feedback')).to.not.equal(undefined);
  });
});
