// The visitor's display preferences: theme="auto" follows the colour scheme, and reduced motion
// stills every animation while still showing who speaks. Runs in each preference state the
// browser can show (test/support/preferences.ts): Chromium emulates both, Firefox runs this file
// once as installed and once with dark + reduced motion in its profile.
import { expect, fixture, html } from '@open-wc/testing';
import { VoiceAgentCall } from '../../src/define.js';
import { loadCall } from '../../src/element/call-loader.js';
import { part, query } from '../support/dom.js';
import { useFakeSessions } from '../support/fake-session.js';
import { eachPreference } from '../support/preferences.js';

const fake = useFakeSessions();

before(async () => {
  await loadCall();
});

const WHITE = 'rgb(255, 255, 255)';
const DARK = 'rgb(21, 22, 29)';

describe('<voice-agent-call> under the visitor’s preferences', () => {
  it('theme="auto" follows the colour scheme; theme="light" and "dark" override it', async () => {
    await eachPreference(async ({ colorScheme }) => {
      const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
      const background = (): string => getComputedStyle(part(el, 'card')).backgroundColor;
      expect(background(), `auto under ${colorScheme}`).to.equal(colorScheme === 'dark' ? DARK : WHITE);
      el.theme = 'light';
      await el.updateComplete;
      expect(background(), `light under ${colorScheme}`).to.equal(WHITE);
      el.theme = 'dark';
      await el.updateComplete;
      expect(background(), `dark under ${colorScheme}`).to.equal(DARK);
    });
  });

  it('idle: the avatar breathes, and stands still (still visible) under reduced motion', async () => {
    await eachPreference(async ({ reducedMotion }) => {
      const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
      const ring = getComputedStyle(part(el, 'indicator'), '::after');
      expect(ring.animationName, reducedMotion).to.equal(reducedMotion === 'reduce' ? 'none' : 'vac-breathe');
      expect(Number(ring.opacity), 'visible either way').to.be.greaterThan(0);
    });
  });

  it('the agent speaking: the bars move, or under reduced motion stand still with the ring shown', async () => {
    await eachPreference(async ({ reducedMotion }) => {
      const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
      part(el, 'call-button').click();
      const s = fake();
      s.go('connecting');
      s.go('in-call');
      s.speaking(true);
      await el.updateComplete;
      const bar = query<HTMLElement>(el, '[part~="indicator"] .bars i');
      const ring = getComputedStyle(part(el, 'indicator'), '::after');
      if (reducedMotion === 'reduce') {
        expect(getComputedStyle(bar).animationName).to.equal('none');
        expect(ring.animationName).to.equal('none');
        expect(Number(ring.opacity), 'the still ring marks the speaker').to.be.greaterThan(0);
      } else {
        expect(getComputedStyle(bar).animationName).to.equal('vac-bar');
      }
      await el.hangup();
    });
  });
});
