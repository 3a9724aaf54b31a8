// What hold looks and reads like (issue 40): the status dot turns amber and says "On hold", the
// agent's line the hold cut off ends in "…", and the transcript marks where the hold began and
// ended, with what the visitor said meanwhile (still transcribed by the service) between them.
import { expect } from '@open-wc/testing';
import { VoiceAgentCall } from '../../src/define.js';
import { part, query, queryAll, text } from '../support/dom.js';
import { axeViolations, useFakeSessionsCallLoaded } from '../support/element-fixture.js';
import { withHoldingCall } from '../support/full-session.js';
import { until } from '../support/until.js';

useFakeSessionsCallLoaded();

/** The transcript as a visitor reads it: each line's text, a marker as `— word —`. */
function transcriptLines(el: VoiceAgentCall): string[] {
  return queryAll(el, '.transcript > .entry, .transcript > .hold-mark').map((line) =>
    line.classList.contains('hold-mark')
      ? `— ${line.textContent?.trim()} —`
      : (line.textContent ?? '').replace(/^(Assistant|You): /, ''),
  );
}

describe('<voice-agent-call> on hold', () => {
  it('amber dot, "On hold", the cut-off line ends in "…", markers where the hold began and ended', async () => {
    await withHoldingCall(async (el, session) => {
      session.say({ id: 'a1', speaker: 'AI', text: 'Hello, how can I help?', final: true });
      session.say({ id: 'h1', speaker: 'HUMAN', text: 'Tell me more.', final: true });
      session.speaking(true);
      session.say({ id: 'a2', speaker: 'AI', text: 'Interesting. Anything', final: true });
      await el.updateComplete;
      const dot = query(el, '.status-dot');
      const live = getComputedStyle(dot).backgroundColor;

      part(el, 'hold-button').click();
      await until(() => el.held, 5000, 'held');
      await el.updateComplete;
      expect(text(el, 'status')).to.equal('On hold');
      const warning = getComputedStyle(el).getPropertyValue('--vac-warning').trim();
      const probe = document.createElement('span');
      probe.style.color = warning;
      document.body.append(probe);
      const amber = getComputedStyle(probe).color;
      probe.remove();
      expect(getComputedStyle(dot).backgroundColor, 'the dot is amber on hold').to.equal(amber);
      expect(getComputedStyle(dot).backgroundColor).to.not.equal(live);

      session.speaking(false);
      session.say({ id: 'h2', speaker: 'HUMAN', text: 'Hello? Are you there?', final: true });
      part(el, 'hold-button').click();
      await until(() => !el.held, 5000, 'resumed');
      session.say({ id: 'a3', speaker: 'AI', text: 'I am back.', final: true });
      // A line that ends its sentence was whole, even if its audio still played: no "…". A hold
      // with nothing said during it still leaves both markers.
      session.speaking(true);
      session.say({ id: 'a4', speaker: 'AI', text: 'Anything else?', final: true });
      part(el, 'hold-button').click();
      await until(() => el.held, 5000, 'held again');
      part(el, 'hold-button').click();
      await until(() => !el.held, 5000, 'resumed again');
      await el.updateComplete;
      // Wait for the frame the transcript lines render in.
      await new Promise((resolve) => requestAnimationFrame(resolve));
      await el.updateComplete;
      expect(text(el, 'status')).to.not.equal('On hold');
      expect(getComputedStyle(dot).backgroundColor, 'live again').to.equal(live);
      expect(transcriptLines(el)).to.deep.equal([
        'Hello, how can I help?',
        'Tell me more.',
        'Interesting. Anything…',
        '— On hold —',
        'Hello? Are you there?',
        '— Resumed —',
        'I am back.',
        'Anything else?',
        '— On hold —',
        '— Resumed —',
      ]);
      // Contrast as the lines rest, not while they fade in.
      const fading = (el.shadowRoot?.getAnimations() ?? []).filter(
        (animation) => animation.effect?.getComputedTiming().iterations !== Infinity,
      );
      await Promise.all(fading.map((animation) => animation.finished));
      expect(await axeViolations(el)).to.deep.equal([]);
    });
  });
});
