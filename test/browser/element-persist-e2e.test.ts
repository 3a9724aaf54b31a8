// Calls that survive the page (issue 37): `<voice-agent-call persist>` on two pages of one site,
// in an iframe the test navigates as a visitor's link would (the frame's sessionStorage is the
// site's, per tab). Real companion, emulator and media room; the dial read from the emulator.
import { expect } from '@open-wc/testing';
import type { VoiceAgentCall } from '../../src/element/voice-agent-call.js';
import type { CallResult } from '../../src/call/types.js';
import { findPart } from '../support/dom.js';
import { frameDocument, frameWindow, loadFrame } from '../support/frames.js';
import { until } from '../support/until.js';

interface Recorded {
  page: string;
  type: string;
  detail: Record<string, unknown>;
}

declare global {
  interface Window {
    __persistEvents?: Recorded[];
  }
}

const PAGE = '/test/browser/pages/persist-page.html';

function events(type?: string): Recorded[] {
  return (window.__persistEvents ?? []).filter((event) => type === undefined || event.type === type);
}

function element(frame: HTMLIFrameElement): VoiceAgentCall {
  const el = frameDocument(frame).querySelector('voice-agent-call');
  if (!el) throw new Error('the page has no <voice-agent-call>');
  return el as VoiceAgentCall;
}

async function dialStatus(dialId: string): Promise<string> {
  const response = await fetch(`/__emu/dials/${encodeURIComponent(dialId)}`);
  return ((await response.json()) as { status: string }).status;
}

/** Navigates the frame (as a followed link does) and resolves once the next page has loaded. */
function navigate(frame: HTMLIFrameElement, go: (win: Window) => void): Promise<void> {
  const loaded = new Promise<void>((resolve) => frame.addEventListener('load', () => resolve(), { once: true }));
  go(frameWindow(frame));
  return loaded;
}

async function callOnFirstPage(frame: HTMLIFrameElement): Promise<{ dialId: string; el: VoiceAgentCall }> {
  await until(
    () => element(frame).shadowRoot !== null && findPart(element(frame), 'call-button') !== null,
    20000,
    'the call button',
  );
  findPart(element(frame), 'call-button')?.click();
  await until(() => events('call-connected').length === 1, 30000, 'call-connected on the first page');
  const el = element(frame);
  await until(
    () => el.transcript.some((entry) => entry.speaker === 'AI' && entry.final && entry.text.startsWith('Hello')),
    20000,
    "the agent's greeting, whole",
  );
  return { dialId: String(events('call-connected')[0]?.detail.dialId), el };
}

describe('<voice-agent-call persist>: a call that survives the page', function () {
  this.timeout(90000);
  let frame: HTMLIFrameElement | undefined;

  beforeEach(() => {
    window.__persistEvents = [];
    // The frames' sessionStorage is this tab's: a record one test left (a closed tab's) is not the next one's.
    sessionStorage.removeItem('voice-agent-call:resume');
  });

  afterEach(async () => {
    const el = frame && frame.contentDocument ? frameDocument(frame).querySelector('voice-agent-call') : null;
    if (el && 'hangup' in el) await (el as VoiceAgentCall).hangup();
    frame?.remove();
    frame = undefined;
  });

  it('a link to the next page: the same dial rejoined without a click, transcript and timer kept, call-resumed, the agent heard again, one call-ended at the end', async () => {
    frame = await loadFrame(`${PAGE}?page=a`, { width: 420, height: 640 });
    const { dialId, el: first } = await callOnFirstPage(frame);
    const greeting = first.transcript.find((entry) => entry.speaker === 'AI');
    await navigate(frame, (win) => (win.document.getElementById('next') as HTMLAnchorElement).click());

    const second = element(frame);
    await until(
      () => second.shadowRoot !== null && findPart(second, 'status')?.textContent?.includes('Reconnecting…') === true,
      10000,
      '"Reconnecting…" on the next page',
    );
    // The dial stays up while the visitor is away.
    expect(await dialStatus(dialId)).to.equal('in-progress');
    await until(() => events('call-resumed').length === 1, 30000, 'call-resumed on the second page');
    const resumed = events('call-resumed')[0] as Recorded;
    expect(resumed.page).to.equal('b');
    expect(resumed.detail.dialId).to.equal(dialId);
    expect(resumed.detail.awaySeconds as number).to.be.within(0, 30);
    expect(second.dialId).to.equal(dialId);
    expect(second.state).to.equal('in-call');
    // The transcript so far, restored; the timer counts from the call's start, not from this page.
    expect(second.transcript.map((entry) => entry.text)).to.include(greeting?.text);
    const timer = findPart(second, 'timer')?.textContent ?? '';
    expect(timer).to.match(/\d\d:\d\d/);
    // The agent is heard again on this page.
    await until(
      () => second.transcript.some((entry) => entry.speaker === 'AI' && entry.text === 'Welcome back. Go on.'),
      20000,
      "the agent's line on the second page",
    );
    expect(events('call-connected').length, 'no second call-connected').to.equal(1);
    expect(events('call-ended'), 'no call-ended on the first page').to.deep.equal([]);

    await second.hangup();
    const ended = events('call-ended');
    expect(ended.length).to.equal(1);
    const result = (ended[0] as Recorded).detail as unknown as CallResult;
    expect(result.dialId).to.equal(dialId);
    expect(result.reason).to.equal('user-hangup');
    expect(result.transcript.some((entry) => entry.text === greeting?.text)).to.equal(true);
    expect(frameWindow(frame).sessionStorage.getItem('voice-agent-call:resume')).to.equal(null);
  });

  it('a duplicated tab: the newer rejoin wins, the older widget lets go quietly ("This call continued in another tab", moved, no hang-up)', async () => {
    frame = await loadFrame(`${PAGE}?page=a`, { width: 420, height: 640 });
    const { dialId } = await callOnFirstPage(frame);
    await navigate(frame, (win) => (win.document.getElementById('next') as HTMLAnchorElement).click());
    await until(() => events('call-resumed').length === 1, 30000, 'call-resumed on the second page');
    const older = element(frame);
    // A duplicate of this tab: the same sessionStorage (here: another frame of this tab), the same record.
    const duplicate = await loadFrame(`${PAGE}?page=c`, { width: 420, height: 640 });
    try {
      await until(() => events('call-resumed').length === 2, 30000, 'call-resumed in the duplicate');
      await until(() => older.state === 'ended', 20000, 'the older widget let go');
      const ended = events('call-ended');
      expect(ended.map((event) => [event.page, (event.detail as unknown as CallResult).reason])).to.deep.equal([
        ['b', 'moved'],
      ]);
      expect(events('call-error'), 'no call-error for a move').to.deep.equal([]);
      await older.updateComplete;
      expect(findPart(older, 'status')?.textContent?.trim()).to.equal('This call continued in another tab');
      // The dial goes on, in the duplicate.
      expect(await dialStatus(dialId)).to.equal('in-progress');
      const newer = element(duplicate);
      expect(newer.dialId).to.equal(dialId);
      expect(newer.state).to.equal('in-call');
      await newer.hangup();
      expect(events('call-ended').map((event) => event.page)).to.deep.equal(['b', 'c']);
    } finally {
      duplicate.remove();
    }
  });

  it('a tab closed mid-call: no hang-up from the page, and the companion ends the dial after its grace (8 s here)', async () => {
    frame = await loadFrame(`${PAGE}?page=a`, { width: 420, height: 640 });
    const { dialId } = await callOnFirstPage(frame);
    const closedAt = Date.now();
    frame.remove();
    frame = undefined;
    // Left, not hung up: the dial waits for a page that could take it up.
    expect(await dialStatus(dialId)).to.equal('in-progress');
    expect(events('call-ended')).to.deep.equal([]);
    await until(async () => (await dialStatus(dialId)) !== 'in-progress', 20000, 'the companion ends the dial');
    const after = Date.now() - closedAt;
    expect(after, `ended ${after} ms after the tab closed`).to.be.within(7000, 20000);
  });

  it('where the browser asks for the microphone again, the card says so and a tap continues the call', async () => {
    frame = await loadFrame(`${PAGE}?page=a`, { width: 420, height: 640 });
    const { dialId } = await callOnFirstPage(frame);
    await navigate(frame, (win) => {
      win.location.href = `${PAGE}?page=b&mic=ask-once`;
    });
    const second = element(frame);
    await until(
      () => second.shadowRoot !== null && findPart(second, 'resume-button') !== null,
      20000,
      '"Tap to continue the call"',
    );
    expect(findPart(second, 'resume-notice')?.textContent).to.include('microphone');
    expect(findPart(second, 'status')?.textContent).to.include('Reconnecting…');
    const errors = events('call-error');
    expect(errors.map((event) => [event.page, event.detail.code, event.detail.recoverable])).to.deep.equal([
      ['b', 'microphone_denied', true],
    ]);
    expect(events('call-ended'), 'waiting, not ended').to.deep.equal([]);
    findPart(second, 'resume-button')?.click();
    await until(() => events('call-resumed').length === 1, 30000, 'call-resumed after the tap');
    expect(second.dialId).to.equal(dialId);
    await second.updateComplete;
    expect(findPart(second, 'resume-button')).to.equal(null);
  });

  it("the consent given on the first page is the whole call's: call-ended on the next page carries its consentAt", async () => {
    const page = await loadFrame(`${PAGE}?page=a&consent`, { width: 420, height: 640 });
    frame = page;
    await until(
      () => element(page).shadowRoot !== null && findPart(element(page), 'call-button') !== null,
      20000,
      'the call button',
    );
    findPart(element(page), 'call-button')?.click();
    await until(() => findPart(element(page), 'consent-agree') !== null, 10000, 'the consent gate');
    findPart(element(page), 'consent-agree')?.click();
    await until(() => events('call-connected').length === 1, 30000, 'call-connected after agreeing');
    const agreedAt = events('call-consent')[0]?.detail.at;
    await navigate(page, (win) => {
      win.location.href = `${PAGE}?page=b&consent`;
    });
    await until(() => events('call-resumed').length === 1, 30000, 'call-resumed, without asking again');
    await element(page).hangup();
    const ended = events('call-ended');
    expect(ended.length).to.equal(1);
    expect((ended[0] as Recorded).detail.consentAt).to.equal(agreedAt);
  });

  it('mute and hold go with the call: the next page is muted and on hold again', async () => {
    frame = await loadFrame(`${PAGE}?page=a`, { width: 420, height: 640 });
    const { el: first } = await callOnFirstPage(frame);
    first.setMuted(true);
    await first.setHeld(true);
    expect(first.held).to.equal(true);
    await navigate(frame, (win) => (win.document.getElementById('next') as HTMLAnchorElement).click());
    await until(() => events('call-resumed').length === 1, 30000, 'call-resumed on the second page');
    const second = element(frame);
    expect(second.muted).to.equal(true);
    await until(() => second.held, 10000, 'on hold again');
    await second.updateComplete;
    expect(findPart(second, 'status')?.textContent).to.include('On hold');
  });

  it("the emulator's media room crashes while the visitor is between pages: the next page still takes the call up", async () => {
    frame = await loadFrame(`${PAGE}?page=a`, { width: 420, height: 640 });
    const { dialId } = await callOnFirstPage(frame);
    const restarts = async () =>
      ((await (await fetch('/__emu/healthz')).json()) as { media: { restarts: number } }).media.restarts;
    const before = await restarts();
    // The first page goes away (its call is away, kept for the next page) ...
    await navigate(frame, (win) => win.location.assign('about:blank'));
    // ... and the room process dies before the next page comes (a join cut off half-way is
    // another matter: see docs/emulator.md, "When the media room crashes").
    expect((await fetch('/__emu-media/crash', { method: 'POST' })).status).to.equal(200);
    await until(async () => (await restarts()) > before, 15000, 'the media room restarted');
    await navigate(frame, (win) => win.location.assign(new URL(`${PAGE}?page=b`, location.href).href));

    const second = element(frame);
    await until(() => events('call-resumed').length === 1, 30000, 'call-resumed on the second page');
    expect(second.dialId).to.equal(dialId);
    await until(
      () => second.transcript.some((entry) => entry.speaker === 'AI' && entry.text === 'Welcome back. Go on.'),
      20000,
      "the restarted room's agent on the second page",
    );
    expect(await dialStatus(dialId)).to.equal('in-progress');
    await second.hangup();
    expect(events('call-ended').length).to.equal(1);
    expect(((events('call-ended')[0] as Recorded).detail as unknown as CallResult).reason).to.equal('user-hangup');
  });

  it('a reload takes the call up again on the same page', async () => {
    frame = await loadFrame(`${PAGE}?page=a`, { width: 420, height: 640 });
    const { dialId } = await callOnFirstPage(frame);
    await navigate(frame, (win) => win.location.reload());
    await until(() => events('call-resumed').length === 1, 30000, 'call-resumed after the reload');
    expect(element(frame).dialId).to.equal(dialId);
    expect(events('call-ended')).to.deep.equal([]);
  });

  it('without persist, leaving the page still hangs up at once, and the next page starts nothing', async () => {
    frame = await loadFrame(`${PAGE}?page=a&persist=0`, { width: 420, height: 640 });
    const { dialId } = await callOnFirstPage(frame);
    await navigate(frame, (win) => {
      win.location.href = `${PAGE}?page=b`;
    });
    const ended = events('call-ended');
    expect(ended.map((event) => [event.page, (event.detail as unknown as CallResult).reason])).to.deep.equal([
      ['a', 'page-unload'],
    ]);
    await until(async () => (await dialStatus(dialId)) !== 'in-progress', 10000, 'the dial hung up');
    // The frame's load event does not wait for the page's `await import(…)` that defines the element.
    await frameWindow(frame).customElements.whenDefined('voice-agent-call');
    await element(frame).updateComplete;
    expect(element(frame).state).to.equal('idle');
    expect(events('call-resumed')).to.deep.equal([]);
  });
});
