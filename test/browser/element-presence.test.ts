// Voice presence (issue 19, item 9), with the real CallSession, companion and emulator: the agent's
// greeting and the visitor's (fake) microphone move their meters live, from the tracks' levels; the
// meters never move the layout, never reach a screen reader, stand still under reduced motion, and
// a muted visitor reads 0. Idle, the avatar breathes (an invitation) unless motion is reduced.
import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import type { VoiceLevels } from '../../src/call/types.js';
import { VoiceAgentCall } from '../../src/define.js';
import { until } from '../support/until.js';

function part(el: HTMLElement, name: string): HTMLElement | null {
  return el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
}

const frame = (): Promise<number> => new Promise((resolve) => requestAnimationFrame(resolve));

/** What the page shows for `frames` frames: the levels on the root, the meters' transforms and the voices' box. */
async function watchFrames(el: VoiceAgentCall, frames: number) {
  const root = el.shadowRoot!.querySelector<HTMLElement>('.root')!;
  const seen = { agent: [] as number[], visitor: [] as number[], transforms: new Set<string>(), boxes: new Set<string>(), agentSpeaking: 0, visitorSpeaking: 0 };
  for (let i = 0; i < frames; i += 1) {
    await frame();
    seen.agent.push(Number(root.style.getPropertyValue('--vac-agent-level') || 0));
    seen.visitor.push(Number(root.style.getPropertyValue('--vac-visitor-level') || 0));
    const voices = part(el, 'voices')!;
    const box = voices.getBoundingClientRect();
    seen.boxes.add(`${box.width}x${box.height}`);
    for (const bar of voices.querySelectorAll('.meter i')) seen.transforms.add(getComputedStyle(bar).transform);
    if (part(el, 'voice-agent')!.hasAttribute('data-speaking')) seen.agentSpeaking += 1;
    if (part(el, 'voice-visitor')!.hasAttribute('data-speaking')) seen.visitorSpeaking += 1;
  }
  return seen;
}

describe('<voice-agent-call> voice presence', function () {
  this.timeout(60000);

  afterEach(async () => {
    await emulateMedia({ reducedMotion: 'no-preference' });
  });

  it('idle: the avatar breathes, and stands still under reduced motion', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/api/voice-call" agent="emu-demo"></voice-agent-call>`);
    const avatar = part(el, 'indicator')!;
    expect(getComputedStyle(avatar, '::after').animationName).to.equal('vac-breathe');
    await emulateMedia({ reducedMotion: 'reduce' });
    expect(getComputedStyle(avatar, '::after').animationName).to.equal('none');
    expect(Number(getComputedStyle(avatar, '::after').opacity), 'still visible, as a static ring').to.be.greaterThan(0);
  });

  it('in a call: live levels for the agent and the visitor, no layout shift, nothing announced; muted reads 0', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/api/voice-call" agent="emu-demo"></voice-agent-call>`);
    const session = () => (el as unknown as { _view: { call: { session: { audioLevels: VoiceLevels } } } })._view.call.session;
    const announcer = el.shadowRoot!.querySelector('[role="status"]')!;
    let announcements = 0;
    const observer = new MutationObserver((records) => (announcements += records.length));
    try {
      part(el, 'call-button')!.click();
      await until(() => el.state === 'connecting' || el.state === 'in-call', 20000, 'the call starts');
      const voices = part(el, 'voices')!;
      expect(voices.getAttribute('aria-hidden'), 'the meters are not for screen readers').to.equal('true');
      const before = voices.getBoundingClientRect().height;
      await until(() => el.state === 'in-call', 20000, 'in-call');
      expect(voices.getBoundingClientRect().height, 'same size connecting and connected').to.equal(before);

      // The agent greets: its meter moves and its side is marked, from the track's level.
      await until(() => session().audioLevels.agent > 0.2, 20000, 'the agent is heard');
      observer.observe(announcer, { childList: true, characterData: true, subtree: true });
      const live = await watchFrames(el, 30);
      observer.disconnect();
      expect(Math.max(...live.agent), 'agent level on the root').to.be.greaterThan(0.2);
      expect(new Set(live.agent.map((level) => level.toFixed(2))).size, 'the agent level changes frame by frame').to.be.greaterThan(3);
      expect(live.agentSpeaking, 'frames with the agent marked as speaking').to.be.greaterThan(0);
      expect(live.transforms.size, 'the meters move').to.be.greaterThan(3);
      expect([...live.boxes], 'the meters never change the layout').to.have.length(1);
      expect(announcements, 'nothing announced while the levels change').to.equal(0);
      // The fake microphone plays a tone: the visitor's side is live too.
      expect(Math.max(...live.visitor), 'visitor level').to.be.greaterThan(0.2);

      // Reduced motion: the meters stand still; which side speaks still shows.
      await emulateMedia({ reducedMotion: 'reduce' });
      const still = await watchFrames(el, 20);
      for (const transform of still.transforms) expect(['matrix(1, 0, 0, 0.3, 0, 0)', 'matrix(1, 0, 0, 0.85, 0, 0)', 'matrix(1, 0, 0, 0.55, 0, 0)']).to.include(transform);
      expect(still.agentSpeaking + still.visitorSpeaking, 'the speaking side is still marked').to.be.greaterThan(0);
      await emulateMedia({ reducedMotion: 'no-preference' });

      // Muted: the visitor reads 0 and is not marked.
      el.setMuted(true);
      await until(() => session().audioLevels.visitor === 0, 5000, 'muted visitor level');
      const muted = await watchFrames(el, 10);
      expect(Math.max(...muted.visitor)).to.equal(0);
      expect(muted.visitorSpeaking).to.equal(0);

      part(el, 'hangup-button')!.click();
      await until(() => el.state === 'ended', 20000, 'ended');
      expect(part(el, 'voices'), 'no meters after the call').to.equal(null);
      expect(session().audioLevels, 'levels read 0 once the media is gone').to.deep.equal({ agent: 0, visitor: 0 });
    } finally {
      observer.disconnect();
      if (el.state !== 'ended' && el.state !== 'idle') await el.hangup();
    }
  });
});
