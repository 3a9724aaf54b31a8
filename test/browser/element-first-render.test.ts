// When a call's in-call card first renders, on a click before the call chunk has loaded: after the
// setup's first steps (the dial's request, and the room's join), not before or among them, while
// the card says "Preparing the call…" (real companion, emulator, WebRTC). The media chunk is loaded
// first here, so only the view's wait keeps the render back: without it the card rendered in the
// first idle moment, while the dial was still out (and, later, while the room was still joining).
import { expect, fixture, html } from '@open-wc/testing';
import { sendMouse } from '@web/test-runner-commands';
import type { CallResult } from '../../src/call/types.js';
import { preloadMedia } from '../../src/call/media-loader.js';
import { VoiceAgentCall } from '../../src/define.js';
import { loadedCall } from '../../src/element/call-loader.js';
import { findPart, part, shadow, text } from '../support/dom.js';
import { until } from '../support/until.js';

/** The wait's cap from the call's start (SETUP_FIRST_MS in call-view.ts, 0.3 s), less a timer's slack. */
const CAP_MS = 290;

describe('<voice-agent-call>: the in-call card renders after the setup has had the main thread', function () {
  this.timeout(60000);

  after(async () => {
    await sendMouse({ type: 'move', position: [0, 0] });
  });

  it('keeps "Preparing the call…" until the room is joined, then renders the in-call card', async () => {
    expect(loadedCall(), 'the call chunk has not loaded in this page').to.equal(null);
    await preloadMedia();
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-quick" preload="none"></voice-agent-call>`,
    );
    const ended: CallResult[] = [];
    el.addEventListener('call-ended', (event) => ended.push(event.detail));
    const states: string[] = [];
    let startedAt = 0;
    el.addEventListener('call-state', (event) => {
      states.push(event.detail.state);
      if (event.detail.state === 'starting') startedAt = performance.now();
    });
    // The setup's stage "media": the room is joined (call-progress).
    let joined = false;
    el.addEventListener('call-progress', (event) => {
      if (event.detail.stage === 'media') joined = true;
    });
    // The in-call card's first render, caught before the browser paints it.
    let first: { state: string; joined: boolean; sinceStart: number } | null = null;
    const watch = new MutationObserver(() => {
      if (!first && findPart(el, 'hangup-button'))
        first = { state: el.state, joined, sinceStart: performance.now() - startedAt };
    });
    watch.observe(shadow(el), { childList: true, subtree: true });
    try {
      const button = part(el, 'call-button').getBoundingClientRect();
      await sendMouse({
        type: 'click',
        position: [Math.round(button.left + button.width / 2), Math.round(button.top + button.height / 2)],
      });
      expect(text(el, 'status')).to.equal('Preparing the call…');
      await until(() => first !== null || ended.length > 0, 30000, 'the in-call card');
      const seen = first as { state: string; joined: boolean; sinceStart: number } | null;
      expect(seen, 'the in-call card rendered before any end').to.not.equal(null);
      if (seen && seen.sinceStart < CAP_MS) {
        expect(seen.state, 'the dial had answered: the call was past starting').to.not.equal('starting');
        expect(seen.joined, 'the room was joined before the card rendered').to.equal(true);
      }
      await until(() => el.state === 'in-call' || ended.length > 0, 30000, 'in-call');
      expect(states.slice(0, 3)).to.deep.equal(['starting', 'connecting', 'in-call']);
      await el.hangup();
      await until(() => ended.length > 0, 30000, 'call-ended');
    } finally {
      watch.disconnect();
    }
  });
});
