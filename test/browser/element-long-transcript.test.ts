// A long call's transcript in <voice-agent-call>: only the newest lines are in the DOM, "Show
// earlier lines" reveals older ones without moving what the visitor reads, and the newest line
// stays in view. Driven by the tests' FakeSession (the element's rendering is what is tested).
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { TranscriptEntry } from '../../src/call/types.js';
import { VoiceAgentCall } from '../../src/define.js';
import { loadCall } from '../../src/element/call-loader.js';
import { findPart, part, parts, shadow, text } from '../support/dom.js';
import { type FakeSession, inCall, useFakeSessions } from '../support/fake-session.js';
import { present } from '../support/present.js';

const WINDOW = 100;

useFakeSessions();

// With the call chunk loaded (as after the visitor's intent), a click makes the session at once.
before(async () => {
  await loadCall();
});

function line(i: number): TranscriptEntry {
  return { id: `t${i}`, speaker: i % 2 ? 'HUMAN' : 'AI', text: `Line ${i} of the conversation`, final: true };
}

function entries(el: VoiceAgentCall): HTMLElement[] {
  return parts(el, 'entry');
}

function log(el: VoiceAgentCall): HTMLElement {
  return part(el, 'transcript');
}

function earlierButton(el: VoiceAgentCall): HTMLButtonElement {
  return part<HTMLButtonElement>(el, 'earlier-button');
}

/** Whether `node` is there and inside the log's visible box. */
function inView(el: VoiceAgentCall, node: HTMLElement | undefined): boolean {
  if (!node) return false;
  const box = log(el).getBoundingClientRect();
  const rect = node.getBoundingClientRect();
  return rect.bottom > box.top && rect.top < box.bottom && rect.height > 0;
}

/** Resolves on the log's next `scroll` event. */
function nextScroll(el: VoiceAgentCall): Promise<void> {
  return new Promise((resolve) => log(el).addEventListener('scroll', () => resolve(), { once: true }));
}

function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}

/**
 * Scrolls the log to its top (the oldest line shown, under "Show earlier lines") and resolves with
 * that line once it rests: lines slide in by a few pixels when they arrive (a short transform
 * animation), and one that leaves mid-slide has its animation cancelled.
 */
async function readFromTop(el: VoiceAgentCall): Promise<HTMLElement> {
  const scrolled = nextScroll(el);
  log(el).scrollTop = 0;
  await scrolled;
  await el.updateComplete;
  await Promise.allSettled(
    shadow(el)
      .getAnimations()
      .map((animation) => animation.finished),
  );
  return present(entries(el)[0], 'a line at the top of the log');
}

async function fill(el: VoiceAgentCall, s: FakeSession, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    s.say({ ...line(i), text: 'Line', final: false });
    s.say(line(i));
  }
  await el.updateComplete;
}

describe('<voice-agent-call> long transcript', () => {
  it('keeps only the newest lines in the DOM, with the newest in view', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const s = await inCall(el);
    await fill(el, s, 1000);
    const shown = entries(el);
    expect(shown.length).to.equal(WINDOW);
    expect(shown.at(-1)?.textContent).to.equal('You: Line 999 of the conversation');
    expect(shown[0]?.textContent).to.equal(`Assistant: Line ${1000 - WINDOW} of the conversation`);
    expect(inView(el, shown.at(-1))).to.equal(true);
    expect(text(el, 'earlier-button')).to.equal('Show earlier lines');
    // The public list is still the whole transcript.
    expect(el.transcript.length).to.equal(1000);

    // Following the end, the window slides: still bounded, the newest line in view.
    s.say({ ...line(1000), text: 'A new', final: false });
    await el.updateComplete;
    s.say(line(1000));
    await el.updateComplete;
    expect(entries(el).length).to.equal(WINDOW);
    expect(entries(el).at(-1)?.textContent).to.equal('Assistant: Line 1000 of the conversation');
    expect(inView(el, entries(el).at(-1))).to.equal(true);
  });

  it('"Show earlier lines" reveals older lines without moving the ones in view, until all are shown', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const s = await inCall(el);
    const total = WINDOW * 2 + 50;
    await fill(el, s, total);
    const anchor = await readFromTop(el);
    expect(anchor.textContent).to.equal(`Assistant: Line ${total - WINDOW} of the conversation`);
    const top = anchor.getBoundingClientRect().top;

    earlierButton(el).focus();
    earlierButton(el).click();
    await waitUntil(() => entries(el).length === WINDOW * 2, 'the next lines are shown');
    expect(entries(el)[0]?.textContent).to.equal('Assistant: Line 50 of the conversation');
    expect(Math.abs(anchor.getBoundingClientRect().top - top)).to.be.lessThan(2);
    expect(inView(el, anchor)).to.equal(true);

    earlierButton(el).click();
    await waitUntil(() => entries(el).length === total, 'all lines are shown');
    expect(entries(el)[0]?.textContent).to.equal('Assistant: Line 0 of the conversation');
    expect(findPart(el, 'earlier-button')).to.equal(null);
    // The button went away under the visitor's focus: focus stays in the widget, on the log.
    expect(shadow(el).activeElement).to.equal(log(el));
  });

  it('Enter on "Show earlier lines" keeps the line being read where it is, and focus in the log', async () => {
    // WebKit keeps a focused element in view when the lines around it change: a button left
    // focused at the top of the revealed lines took the reader back to the top (issue 20).
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const s = await inCall(el);
    await fill(el, s, WINDOW * 3);
    const anchor = await readFromTop(el);
    const top = anchor.getBoundingClientRect().top;
    // Where the line being read was each time the log scrolled: never elsewhere.
    const seen: number[] = [];
    log(el).addEventListener('scroll', () => seen.push(Math.round(anchor.getBoundingClientRect().top - top)));

    earlierButton(el).focus();
    const scrolled = nextScroll(el);
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => entries(el).length === WINDOW * 2, 'the earlier lines are shown');
    await scrolled;
    // A jump would come within a frame or two of the lines' arrival.
    await nextFrame();
    await nextFrame();
    expect(
      seen.every((offset) => Math.abs(offset) < 2),
      `the line being read moved by ${seen.join(', ')} px`,
    ).to.equal(true);
    expect(Math.abs(anchor.getBoundingClientRect().top - top)).to.be.lessThan(2);
    expect(inView(el, anchor)).to.equal(true);
    expect(shadow(el).activeElement, 'focus is in the log').to.equal(log(el));
    // The button, now above the revealed lines, is the next stop for the keyboard.
    await sendKeys({ press: 'Tab' });
    expect(shadow(el).activeElement).to.equal(earlierButton(el));
  });

  it('keeps the lines being read while the visitor is scrolled up, and slides again after "Jump to latest"', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const s = await inCall(el);
    await fill(el, s, 300);
    const scrolled = new Promise((resolve) => log(el).addEventListener('scroll', resolve, { once: true }));
    log(el).scrollTop = 0;
    await scrolled;
    await el.updateComplete;
    const first = present(entries(el)[0], 'the first line shown');
    for (let i = 300; i < 310; i += 1) s.say(line(i));
    await el.updateComplete;
    expect(entries(el)[0]).to.equal(first);
    expect(entries(el).length).to.equal(WINDOW + 10);
    expect(log(el).scrollTop).to.equal(0);

    part(el, 'jump-button').click();
    await el.updateComplete;
    s.say(line(310));
    await el.updateComplete;
    expect(entries(el).length).to.equal(WINDOW);
    expect(entries(el).at(-1)?.textContent).to.equal('Assistant: Line 310 of the conversation');
    await waitUntil(() => inView(el, entries(el).at(-1)), 'the newest line is in view');
  });

  it('shows only the changed line as new: an interim line becomes final in place of its bubble', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const s = await inCall(el);
    await fill(el, s, 250);
    const before = entries(el);
    const added: Node[] = [];
    const removed: Node[] = [];
    const observer = new MutationObserver((records) => {
      for (const record of records) {
        added.push(...record.addedNodes);
        removed.push(...record.removedNodes);
      }
    });
    observer.observe(log(el), { childList: true, subtree: true, characterData: true });
    s.say({ id: 't250', speaker: 'AI', text: 'Hel', final: false });
    await el.updateComplete;
    s.say({ id: 't250', speaker: 'AI', text: 'Hello', final: false });
    await el.updateComplete;
    observer.disconnect();
    // One new bubble at the end and the oldest one out; every other bubble untouched.
    const after = entries(el);
    expect(after.length).to.equal(WINDOW);
    expect(after.slice(0, -1).every((node, i) => node === before[i + 1])).to.equal(true);
    expect(after.at(-1)?.textContent).to.equal('Assistant: Hello');
    expect(added.filter((node) => node instanceof HTMLElement && node.matches('[part~="entry"]')).length).to.equal(1);
    expect(removed.filter((node) => node instanceof HTMLElement && node.matches('[part~="entry"]')).length).to.equal(1);
  });
});
