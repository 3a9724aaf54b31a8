// What an idle page holds: the element's shell and nothing of a call (no call logic, no in-call
// UI, no other language) until the visitor shows intent; when the call chunk then arrives, the idle
// card does not change at all (same DOM, same box, no layout shift). The page imports the sources
// as separate modules, as the npm build ships them: what a bundler splits follows this graph.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { VoiceAgentCall } from '../../src/define.js';
import { loadCall, loadedCall } from '../../src/element/call-loader.js';
import { hover, pointerAway } from '../support/pointer.js';
import { part, query, shadow, text } from '../support/dom.js';

performance.setResourceTimingBufferSize(10000);

/** Source modules of the call (logic, in-call UI) and of the other languages. */
const LAZY =
  /\/src\/(call\/(call-session|companion-client|transcript|events|errors|states)|element\/(in-call|call-view|call-controller|call-styles|in-call-styles|transcript-styles|ended-styles|transcript-follow|call-icons|strings|strings-ar))\.ts/;

function lazyRequests(): string[] {
  return performance
    .getEntriesByType('resource')
    .map((entry) => new URL(entry.name).pathname)
    .filter((path) => LAZY.test(path));
}

describe('<voice-agent-call> idle', () => {
  it('loads no call logic, in-call UI or other language before intent', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    expect(text(el, 'call-button')).to.equal('Start call');
    expect(customElements.get('voice-agent-call') === VoiceAgentCall).to.equal(true);
    expect(lazyRequests()).to.deep.equal([]);
    expect(loadedCall()).to.equal(null);
  });

  it('loads Arabic only for an element that asks for it, and shows it from the first render', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x" lang="ar-EG"></voice-agent-call>`);
    expect(text(el, 'call-button')).to.equal('ابدأ المكالمة');
    expect(query(el, '.root').getAttribute('dir')).to.equal('rtl');
    expect(lazyRequests()).to.deep.equal(['/src/element/strings-ar.ts']);
    expect(loadedCall()).to.equal(null);
  });

  it('does not move or change the idle card when the call chunk arrives on intent', async () => {
    const wrapper = await fixture<HTMLDivElement>(html`<div>
      <voice-agent-call endpoint="/x"></voice-agent-call>
      <voice-agent-call endpoint="/x" layout="floating" open></voice-agent-call>
    </div>`);
    const [inline, floating] = [...wrapper.querySelectorAll('voice-agent-call')] as [VoiceAgentCall, VoiceAgentCall];
    const shifts: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) shifts.push((entry as PerformanceEntry & { value: number }).value);
    });
    observer.observe({ type: 'layout-shift' });
    const snapshot = (el: VoiceAgentCall) => ({
      markup: shadow(el).innerHTML,
      card: JSON.stringify(part(el, 'card').getBoundingClientRect()),
      button: JSON.stringify(part(el, 'call-button').getBoundingClientRect()),
      background: getComputedStyle(part(el, 'call-button')).backgroundImage,
    });
    // The floating panel opens with a short animation: compare the boxes once it has run (the idle
    // avatar's breath runs forever and moves nothing: it is a transform of a pseudo-element).
    const finite = (animation: Animation): boolean => animation.effect?.getComputedTiming().iterations !== Infinity;
    await Promise.all(
      [inline, floating].flatMap((el) =>
        shadow(el)
          .getAnimations()
          .filter(finite)
          .map((animation) => animation.finished),
      ),
    );
    const before = [snapshot(inline), snapshot(floating)];
    try {
      await hover(part(inline, 'call-button'));
      await waitUntil(() => loadedCall() !== null, 'the pointer on the call button loads the call chunk', {
        timeout: 10000,
      });
      await loadCall();
      // In the next idle moment the intent also makes the call's view (its in-call sheet joins the
      // shadow root), so the click has less to run: the card must not change for that either.
      const sheets = shadow(floating).adoptedStyleSheets.length;
      await waitUntil(() => shadow(inline).adoptedStyleSheets.length > sheets, 'the view is made on intent', {
        timeout: 10000,
      });
      await Promise.all([inline.updateComplete, floating.updateComplete]);
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      expect([snapshot(inline), snapshot(floating)]).to.deep.equal(before);
      expect(inline.state).to.equal('idle');
      expect(shifts, 'no layout shift').to.deep.equal([]);
      expect(lazyRequests()).to.include('/src/call/call-session.ts');
    } finally {
      observer.disconnect();
      await pointerAway();
    }
  });
});
