// The transcript's motion: a new line slides in, but only the newest one. Lines can come faster
// than the slide lasts (interim segments, many a second), and every running animation is restyled
// on every frame: with each line animating, a fast log made frames of 100 ms on a loaded machine
// (BENCHMARKS.md, endurance). Driven by the tests' FakeSession.
import { expect, fixture, html } from '@open-wc/testing';
import type { TranscriptEntry } from '../../src/call/types.js';
import { VoiceAgentCall } from '../../src/define.js';
import { loadCall } from '../../src/element/call-loader.js';
import { parts } from '../support/dom.js';
import { inCall, useFakeSessions } from '../support/fake-session.js';
import { present } from '../support/present.js';

useFakeSessions();

before(async () => {
  await loadCall();
});

function line(i: number, final = true): TranscriptEntry {
  return { id: `m${i}`, speaker: i % 2 ? 'HUMAN' : 'AI', text: `Line ${i}`, final };
}

/** The transcript's lines that have an animation running (or about to start). */
function sliding(el: VoiceAgentCall): HTMLElement[] {
  return parts(el, 'entry').filter((entry) =>
    entry.getAnimations().some((animation) => animation.playState === 'running' || animation.pending),
  );
}

describe('<voice-agent-call> transcript motion', () => {
  it('slides in only the newest line when lines come faster than the slide', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const s = await inCall(el);
    for (let i = 0; i < 30; i += 1) {
      s.say(line(i, false));
      s.say(line(i));
    }
    await el.updateComplete;
    const entries = parts(el, 'entry');
    expect(entries.length).to.equal(30);
    expect(sliding(el)).to.deep.equal([entries.at(-1)]);

    // The next line takes over: the one before it stops where it is meant to end.
    const previous = present(entries.at(-1), 'the newest line');
    s.say(line(30));
    await el.updateComplete;
    const newest = present(parts(el, 'entry').at(-1), 'the new line');
    expect(newest.textContent).to.equal('Assistant: Line 30');
    expect(sliding(el)).to.deep.equal([newest]);
    expect(previous.getAnimations()).to.deep.equal([]);
  });

  it('lets a line at a call’s pace slide in to its end', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const s = await inCall(el);
    s.say(line(0));
    await el.updateComplete;
    const entry = present(parts(el, 'entry').at(-1), 'the line');
    const [animation] = entry.getAnimations();
    const slide = present(animation, 'the line’s slide-in');
    await slide.finished;
    expect(slide.playState).to.equal('finished');
    expect(getComputedStyle(entry).opacity).to.equal('1');
  });
});
