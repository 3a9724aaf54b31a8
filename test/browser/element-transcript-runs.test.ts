// Runs of lines from one side in the transcript: each bubble after the first of a run joins the
// one above (a smaller corner where they meet), as a chat does. The view marks the joined lines
// itself rather than with a sibling selector, which restyled every line in the log each time one
// was added or removed (issue 42). Driven by the tests' FakeSession.
import { expect, fixture, html } from '@open-wc/testing';
import type { TranscriptEntry } from '../../src/call/types.js';
import { VoiceAgentCall } from '../../src/define.js';
import { loadCall } from '../../src/element/call-loader.js';
import { parts } from '../support/dom.js';
import { inCall, useFakeSessions } from '../support/fake-session.js';

useFakeSessions();

before(async () => {
  await loadCall();
});

function line(i: number, speaker: TranscriptEntry['speaker']): TranscriptEntry {
  return { id: `r${i}`, speaker, text: `Line ${i}`, final: true };
}

/** The corner at the top of each bubble on its speaker's side, in px: 16 on its own, 6 joined. */
function topCorners(el: VoiceAgentCall): number[] {
  return parts(el, 'entry').map((entry) => {
    const style = getComputedStyle(entry);
    const side = entry.matches('[part~="entry-ai"]') ? style.borderStartStartRadius : style.borderStartEndRadius;
    return Number.parseFloat(side);
  });
}

describe('<voice-agent-call> transcript runs', () => {
  it('joins each line to the one above from the same side, not across sides', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const s = await inCall(el);
    const speakers: Array<TranscriptEntry['speaker']> = ['AI', 'AI', 'HUMAN', 'HUMAN', 'HUMAN', 'AI'];
    speakers.forEach((speaker, i) => s.say(line(i, speaker)));
    await el.updateComplete;
    expect(topCorners(el)).to.deep.equal([16, 6, 16, 6, 6, 16]);

    // A line still being spoken joins too, and its final version takes its place joined.
    s.say({ ...line(6, 'AI'), text: 'Li', final: false });
    await el.updateComplete;
    expect(topCorners(el).at(-1)).to.equal(6);
    s.say(line(6, 'AI'));
    await el.updateComplete;
    expect(topCorners(el)).to.deep.equal([16, 6, 16, 6, 6, 16, 6]);
  });

  it('starts the log’s first line shown on its own when older lines are behind "Show earlier lines"', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const s = await inCall(el);
    // One long run from the agent: the window of the newest lines slides along it.
    for (let i = 0; i < 105; i += 1) s.say(line(i, 'AI'));
    await el.updateComplete;
    const corners = topCorners(el);
    expect(corners[0]).to.equal(16);
    expect(corners.slice(1).every((corner) => corner === 6)).to.equal(true);
    // The next line slides the window again: the new first line shown is on its own.
    const second = parts(el, 'entry')[1];
    s.say(line(105, 'AI'));
    await el.updateComplete;
    expect(parts(el, 'entry')[0]).to.equal(second);
    expect(topCorners(el)[0]).to.equal(16);
  });
});
