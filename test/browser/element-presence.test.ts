// Voice presence (issue 19, item 9), with the real CallSession, companion and emulator: the agent's
// greeting and the visitor's (fake) microphone move their meters live, from the tracks' levels; the
// meters never move the layout, never reach a screen reader, stand still under reduced motion, and
// a muted visitor reads 0. The idle avatar's breathing is in element-preferences.test.ts.
import { expect, fixture, html } from '@open-wc/testing';
import type { VoiceLevels } from '../../src/call/types.js';
import { VoiceAgentCall } from '../../src/define.js';
import { findPart, part, query } from '../support/dom.js';
import { eachPreference } from '../support/preferences.js';
import { until } from '../support/until.js';

/** The meters' bars under reduced motion: fixed heights, one per bar position. */
const STILL = ['matrix(1, 0, 0, 0.3, 0, 0)', 'matrix(1, 0, 0, 0.85, 0, 0)', 'matrix(1, 0, 0, 0.55, 0, 0)'];

const frame = (): Promise<number> => new Promise((resolve) => requestAnimationFrame(resolve));

/**
 * What the page shows for `frames` frames: the levels on `::part(voices)` (where the docs say they
 * are), the meters' transforms, the voices' box, and whether the card's root ever carried a level
 * (set there, each frame would restyle the whole card, not just the meters).
 */
async function watchFrames(el: VoiceAgentCall, frames: number) {
  const root = query<HTMLElement>(el, '.root');
  const seen = {
    agent: [] as number[],
    visitor: [] as number[],
    transforms: new Set<string>(),
    boxes: new Set<string>(),
    agentSpeaking: 0,
    visitorSpeaking: 0,
    onRoot: 0,
  };
  for (let i = 0; i < frames; i += 1) {
    await frame();
    const voices = part(el, 'voices');
    seen.agent.push(Number(getComputedStyle(voices).getPropertyValue('--vac-agent-level') || 0));
    seen.visitor.push(Number(getComputedStyle(voices).getPropertyValue('--vac-visitor-level') || 0));
    if (getComputedStyle(root).getPropertyValue('--vac-agent-level') !== '') seen.onRoot += 1;
    const box = voices.getBoundingClientRect();
    seen.boxes.add(`${box.width}x${box.height}`);
    for (const bar of voices.querySelectorAll('.meter i')) seen.transforms.add(getComputedStyle(bar).transform);
    if (part(el, 'voice-agent').hasAttribute('data-speaking')) seen.agentSpeaking += 1;
    if (part(el, 'voice-visitor').hasAttribute('data-speaking')) seen.visitorSpeaking += 1;
  }
  return seen;
}

describe('<voice-agent-call> voice presence', function () {
  this.timeout(60000);

  it('in a call: live levels for the agent and the visitor, no layout shift, nothing announced; muted reads 0', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-demo"></voice-agent-call>`,
    );
    const session = () =>
      (el as unknown as { _view: { call: { session: { audioLevels: VoiceLevels } } } })._view.call.session;
    const announcer = query(el, '[role="status"]');
    // What the status region says while the meters move. A loaded machine may make the media server
    // grade the link poor: "Weak connection" is then announced once, and the region goes back to
    // "Call connected" when the notice stops. Those are the connection's, not the meters'.
    const announced: string[] = [];
    const observer = new MutationObserver(() => announced.push(announcer.textContent?.trim() ?? ''));
    try {
      part(el, 'call-button').click();
      await until(() => el.state === 'connecting' || el.state === 'in-call', 20000, 'the call starts');
      // A render while connecting comes in the main thread's next idle moment (the room's join first).
      await el.updateComplete;
      const voices = part(el, 'voices');
      expect(voices.getAttribute('aria-hidden'), 'the meters are not for screen readers').to.equal('true');
      const before = voices.getBoundingClientRect().height;
      await until(() => el.state === 'in-call', 20000, 'in-call');
      expect(voices.getBoundingClientRect().height, 'same size connecting and connected').to.equal(before);

      // The agent greets: its meter moves and its side is marked, from the track's level. Under
      // reduced motion the meters stand still and which side speaks still shows.
      await until(() => session().audioLevels.agent > 0.2, 20000, 'the agent is heard');
      observer.observe(announcer, { childList: true, characterData: true, subtree: true });
      await eachPreference(async ({ reducedMotion }) => {
        const seen = await watchFrames(el, 30);
        expect([...seen.boxes], 'the meters never change the layout').to.have.length(1);
        expect(seen.onRoot, 'frames with a level on the card root').to.equal(0);
        // The fake microphone plays a tone: the visitor's side is live too.
        expect(Math.max(...seen.visitor), 'visitor level').to.be.greaterThan(0.2);
        if (reducedMotion === 'reduce') {
          for (const transform of seen.transforms) expect(STILL).to.include(transform);
          expect(seen.agentSpeaking + seen.visitorSpeaking, 'the speaking side is still marked').to.be.greaterThan(0);
          return;
        }
        expect(Math.max(...seen.agent), 'agent level on ::part(voices)').to.be.greaterThan(0.2);
        expect(
          new Set(seen.agent.map((level) => level.toFixed(2))).size,
          'the agent level changes frame by frame',
        ).to.be.greaterThan(3);
        expect(seen.agentSpeaking, 'frames with the agent marked as speaking').to.be.greaterThan(0);
        expect(seen.transforms.size, 'the meters move').to.be.greaterThan(3);
      });
      observer.disconnect();
      expect(
        announced.filter((said) => !['', 'Weak connection', 'Call connected'].includes(said)),
        'nothing announced while the levels change',
      ).to.deep.equal([]);

      // Muted: the visitor reads 0 and is not marked.
      el.setMuted(true);
      await until(() => session().audioLevels.visitor === 0, 5000, 'muted visitor level');
      const muted = await watchFrames(el, 10);
      expect(Math.max(...muted.visitor)).to.equal(0);
      expect(muted.visitorSpeaking).to.equal(0);

      part(el, 'hangup-button').click();
      await until(() => el.state === 'ended', 20000, 'ended');
      expect(findPart(el, 'voices'), 'no meters after the call').to.equal(null);
      expect(session().audioLevels, 'levels read 0 once the media is gone').to.deep.equal({ agent: 0, visitor: 0 });
    } finally {
      observer.disconnect();
      if (el.state !== 'ended' && el.state !== 'idle') await el.hangup();
    }
  });
});
