// <voice-agent-call> driven by a fake session: rendering per state, events, options, strings,
// focus, removal. The same element against the real CallSession is in element-e2e.test.ts.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { CallEndedEvent, CallErrorEvent, CallStateEvent, CallTranscriptEvent } from '../../src/call/events.js';
import type { EndReason } from '../../src/call/types.js';
import { VoiceAgentCall, defineVoiceAgentCall } from '../../src/define.js';
import { findPart, part, parts, query, shadow, text } from '../support/dom.js';
import { collect } from '../support/events.js';
import { axeViolations, useFakeSessionsCallLoaded } from '../support/element-fixture.js';
import { inCall } from '../support/fake-session.js';
import { pair, present } from '../support/present.js';

// The call chunk is loaded before these tests; element-idle.test.ts covers the click before it has loaded.
const fake = useFakeSessionsCallLoaded();

async function settle(el: VoiceAgentCall): Promise<void> {
  await el.updateComplete;
}

/**
 * The floating panel has opened and its opening animation (0.2 s, opacity from 0) is over: until
 * then axe skips its text as invisible or reads its colours half faded.
 */
async function panelOpened(el: VoiceAgentCall): Promise<void> {
  await el.updateComplete;
  const panel = present(shadow(el).querySelector<HTMLElement>('.panel'), 'the floating panel');
  await Promise.all(panel.getAnimations().map((animation) => animation.finished));
}

describe('<voice-agent-call> states', () => {
  it('idle: says it is ready and offers a labelled call button, nothing else', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/api/voice-call"></voice-agent-call>`);
    expect(el.state).to.equal('idle');
    expect(el.getAttribute('state')).to.equal('idle');
    expect(text(el, 'status')).to.equal('Ready to talk');
    expect(text(el, 'call-button')).to.equal('Start call');
    expect(findPart(el, 'mute-button')).to.equal(null);
    expect(findPart(el, 'hangup-button')).to.equal(null);
    expect(findPart(el, 'timer')).to.equal(null);
    expect(findPart(el, 'transcript')).to.equal(null);
  });

  it('walks through every state with the right status text and controls', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/api/voice-call"></voice-agent-call>`);
    part(el, 'call-button').click();
    const s = fake();
    await settle(el);
    expect(el.getAttribute('state')).to.equal('starting');
    expect(text(el, 'status')).to.equal('Preparing the call…');
    expect(text(el, 'hangup-button')).to.equal('Hang up');
    expect(part(el, 'mute-button').getAttribute('aria-pressed')).to.equal('false');
    expect(findPart(el, 'call-button')).to.equal(null);

    s.go('connecting');
    await settle(el);
    expect(text(el, 'status')).to.equal('Connecting…');
    expect(part(el, 'indicator').classList.contains('connecting')).to.equal(true);

    s.go('in-call');
    await settle(el);
    expect(el.getAttribute('state')).to.equal('in-call');
    expect(text(el, 'status')).to.equal('Listening');
    expect(text(el, 'timer')).to.equal('Call duration 00:00');

    s.speaking(true);
    await settle(el);
    expect(text(el, 'status')).to.equal('Assistant is speaking');
    expect(part(el, 'indicator').classList.contains('speaking')).to.equal(true);
    s.speaking(false);
    await settle(el);
    expect(part(el, 'indicator').classList.contains('speaking')).to.equal(false);

    s.go('reconnecting');
    await settle(el);
    expect(text(el, 'status')).to.equal('Reconnecting…');
    expect(findPart(el, 'timer')).to.not.equal(null);

    s.go('in-call');
    s.go('ending');
    await settle(el);
    expect(text(el, 'status')).to.equal('Ending the call…');
    // aria-disabled, not disabled: the button keeps focus until "Call again" takes it.
    expect(part(el, 'hangup-button').getAttribute('aria-disabled')).to.equal('true');
    expect(part(el, 'mute-button').getAttribute('aria-disabled')).to.equal('true');

    s.result = { dialId: 'dial-1', reason: 'agent-hangup', transcript: [] };
    s.go('ended');
    await settle(el);
    expect(el.getAttribute('state')).to.equal('ended');
    expect(text(el, 'status')).to.equal('Call ended');
    expect(text(el, 'summary')).to.equal('Agent hung up · 00:00');
    expect(text(el, 'call-button')).to.equal('Call again');
    expect(findPart(el, 'error')).to.equal(null);
    expect(findPart(el, 'timer')).to.equal(null);
  });

  // Issue 29, item 3: under a short transcript the ended card had a 40–70 px gap before the summary,
  // and said "Call ended" twice (status and summary).
  it('ended after a short transcript: the summary follows the last line, and "Call ended" is said once', async () => {
    for (const layout of ['inline', 'floating']) {
      const el = await fixture<VoiceAgentCall>(
        html`<voice-agent-call endpoint="/x" layout=${layout}></voice-agent-call>`,
      );
      const s = await inCall(el);
      s.say({ id: 'a1', speaker: 'AI', text: 'Bye!', final: true });
      s.end('agent-hangup');
      await settle(el);
      const last = parts(el, 'entry').at(-1)?.getBoundingClientRect();
      const gap = part(el, 'summary').getBoundingClientRect().top - (last?.bottom ?? 0);
      expect(gap, `${layout}: space between the last line and the summary`).to.be.within(0, 24);
      const said =
        shadow(el)
          .querySelector('.card')
          ?.textContent?.match(/Call ended/g) ?? [];
      expect(said.length, `${layout}: "Call ended" on the card`).to.equal(1);
    }
  });

  it('counts the call time in mm:ss while in the call and freezes it at the end', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const s = await inCall(el);
    s.connectedAt = Date.now() - 83_000;
    el.requestUpdate();
    await settle(el);
    expect(text(el, 'timer')).to.equal('Call duration 01:23');
    await waitUntil(() => text(el, 'timer') === 'Call duration 01:24', 'the timer did not tick', { timeout: 2500 });
    s.end('agent-hangup');
    await settle(el);
    expect(text(el, 'summary')).to.equal('Agent hung up · 01:24');
  });

  const errors: Array<[EndReason, string, string]> = [
    ['microphone-denied', 'Microphone access is blocked', 'site settings'],
    ['busy', 'All lines are busy', 'try again in a few minutes'],
    ['setup-failed', 'The call could not be set up', 'try again later'],
    ['agent-unavailable', 'The assistant did not answer', 'try again'],
  ];
  for (const [reason, title, advice] of errors) {
    it(`after ${reason}: says what happened and what to do, offers "Try again"`, async () => {
      const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
      part(el, 'call-button').click();
      fake().end(reason);
      await settle(el);
      expect(text(el, 'error')).to.contain(title);
      expect(text(el, 'error').toLowerCase()).to.contain(advice.toLowerCase());
      expect(text(el, 'call-button')).to.equal('Try again');
      expect(query(el, '[role="status"]').textContent).to.contain(title);
    });
  }

  it('a call that never connected says "Call not connected", with no duration, even when the record has one', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    part(el, 'call-button').click();
    const s = fake();
    s.go('connecting');
    s.go('ending');
    s.result = { dialId: 'dial-1', reason: 'busy', transcript: [], status: 'failed', durationSeconds: 15 };
    s.go('ended');
    await settle(el);
    expect(text(el, 'status')).to.equal('Call not connected');
    expect(text(el, 'summary')).to.equal('Lines busy');
    expect(query(el, '[role="status"]').textContent).to.not.contain('Call ended');
    expect(query(el, '[role="status"]').textContent).to.not.match(/\d\d:\d\d/);
  });

  it("after silence: suggests checking the microphone; a drop the service saw does not blame the visitor's internet", async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const s = await inCall(el);
    s.end('silence');
    await settle(el);
    expect(text(el, 'error')).to.contain('The assistant could not hear you');
    expect(text(el, 'error')).to.contain('microphone');
    expect(text(el, 'summary')).to.equal('Ended after silence · 00:00');

    await el.start();
    s.go('connecting');
    s.go('in-call');
    s.go('ending');
    // The record was read after the drop (status set): the companion answered, the visitor is online.
    s.result = {
      dialId: 'dial-1',
      reason: 'network-lost',
      transcript: [],
      status: 'completed',
      systemResultType: 'USER_HANGUP',
    };
    s.go('ended');
    await settle(el);
    expect(text(el, 'error')).to.contain('The connection was lost');
    expect(text(el, 'error')).to.not.contain('internet');

    await el.start();
    s.go('connecting');
    s.go('in-call');
    s.end('network-lost');
    await settle(el);
    expect(text(el, 'error')).to.contain('Check your internet connection');
  });

  it('words each end in Arabic too', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x" lang="ar"></voice-agent-call>`);
    part(el, 'call-button').click();
    await settle(el);
    fake().end('busy');
    await settle(el);
    expect(text(el, 'status')).to.equal('لم يتم الاتصال');
    expect(text(el, 'summary')).to.equal('الخطوط مشغولة');
    const s = await inCall(el);
    s.end('silence');
    await settle(el);
    expect(text(el, 'error')).to.contain('لم يتمكّن المساعد من سماعك');
    expect(text(el, 'summary')).to.match(/^انتهت بسبب الصمت · 00:00$/);
  });

  it('"Call again" starts a new call on the same session', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const s = await inCall(el);
    s.end('agent-hangup');
    await settle(el);
    part(el, 'call-button').click();
    await settle(el);
    expect(fake() === s, 'same session').to.equal(true);
    expect(el.state).to.equal('starting');
  });

  it('announces state changes in a polite live region, not the speaking flips', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const region = query(el, '[role="status"]');
    expect(region.getAttribute('aria-live')).to.equal('polite');
    expect(region.textContent).to.equal('');
    const s = await inCall(el);
    expect(region.textContent).to.equal('Call connected');
    s.speaking(true);
    await settle(el);
    expect(region.textContent).to.equal('Call connected');
    s.end('agent-hangup');
    await settle(el);
    expect(region.textContent).to.equal('Call ended · agent hung up · 00:00');
  });
});

describe('<voice-agent-call> events', () => {
  it('re-dispatches each public event once, bubbling and composed through a parent shadow root', async () => {
    const outer = await fixture<HTMLDivElement>(html`<div></div>`);
    const root = outer.attachShadow({ mode: 'open' });
    const el = document.createElement('voice-agent-call');
    el.setAttribute('endpoint', '/x');
    root.append(el);
    await el.updateComplete;

    const names = ['call-state', 'call-connected', 'call-transcript', 'call-mute', 'call-error', 'call-ended'] as const;
    const seen = new Map<string, Event[]>();
    let endedFrom: EventTarget | undefined;
    const record = (event: Event): void => {
      seen.set(event.type, [...(seen.get(event.type) ?? []), event]);
      if (event.type === 'call-ended') endedFrom = event.composedPath()[0];
    };
    for (const name of [...names, 'agent-speaking', 'audio-blocked']) document.addEventListener(name, record);
    const originals = new Map<string, Event>();
    try {
      await el.start();
      const s = fake();
      s.addEventListener('call-ended', (event) => originals.set('call-ended', event));
      s.addEventListener('call-transcript', (event) => originals.set('call-transcript', event));
      s.go('connecting');
      s.go('in-call');
      s.say({ id: 'a1', speaker: 'AI', text: 'Hello', final: true });
      s.setMuted(true);
      s.dispatchEvent(
        new CallErrorEvent({ code: 'network_lost', message: 'the media connection was lost', recoverable: true }),
      );
      s.speaking(true);
      s.blockAudio();
      s.end('agent-hangup');
    } finally {
      for (const name of [...names, 'agent-speaking', 'audio-blocked']) document.removeEventListener(name, record);
    }

    expect((seen.get('call-state') ?? []).map((e) => (e as CallStateEvent).detail.state)).to.deep.equal([
      'starting',
      'connecting',
      'in-call',
      'ending',
      'ended',
    ]);
    for (const name of ['call-connected', 'call-transcript', 'call-mute', 'call-error', 'call-ended']) {
      expect(seen.get(name)?.length, name).to.equal(1);
    }
    expect(seen.has('agent-speaking')).to.equal(false);
    expect(seen.has('audio-blocked')).to.equal(false);
    const ended = present(seen.get('call-ended')?.[0], 'a call-ended on the document');
    expect(ended).to.be.instanceOf(CallEndedEvent);
    expect(ended).to.not.equal(originals.get('call-ended'));
    expect(endedFrom === el, 'dispatched on the element').to.equal(true);
    expect((ended as CallEndedEvent).detail).to.equal((originals.get('call-ended') as CallEndedEvent).detail);
    expect((ended as CallEndedEvent).detail.reason).to.equal('agent-hangup');
    expect(ended.bubbles && ended.composed).to.equal(true);
    expect((present(seen.get('call-transcript')?.[0], 'a call-transcript') as CallTranscriptEvent).detail).to.equal(
      (originals.get('call-transcript') as CallTranscriptEvent).detail,
    );
  });
});

describe('<voice-agent-call> options and API', () => {
  it('passes endpoint, agent, transcript mode and inputs to the session when a call starts', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-quick" transcript="poll"></voice-agent-call>`,
    );
    el.inputs = { name: 'Ada' };
    part(el, 'call-button').click();
    const { options } = fake();
    expect(options.endpoint).to.equal('/api/voice-call');
    expect(options.agent).to.equal('emu-quick');
    expect(options.transcript).to.equal('poll');
    expect(options.inputs).to.deep.equal({ name: 'Ada' });
    expect(options.audioContainer === el.shadowRoot, 'audio container').to.equal(true);
  });

  it('applies attribute changes to the next call', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/a" agent="one"></voice-agent-call>`);
    const s = await inCall(el);
    s.end('agent-hangup');
    el.setAttribute('agent', 'two');
    el.setAttribute('transcript', 'off');
    await settle(el);
    await el.start();
    expect(s.options.agent).to.equal('two');
    expect(s.options.transcript).to.equal('off');
  });

  it('exposes dialId, muted, transcript and getTranscript from the session', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    expect(el.dialId).to.equal(null);
    expect(el.muted).to.equal(false);
    expect(el.getTranscript()).to.deep.equal([]);
    const s = await inCall(el);
    s.say({ id: 'a1', speaker: 'AI', text: 'Hi', final: true });
    expect(el.dialId).to.equal('dial-1');
    expect(el.getTranscript().map((e) => e.text)).to.deep.equal(['Hi']);
    expect(el.transcript.map((e) => e.text)).to.deep.equal(['Hi']);
    el.setMuted(true);
    expect(el.muted).to.equal(true);
  });

  it('keeps the state attribute its own: a write from outside is put back', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    el.setAttribute('state', 'in-call');
    expect(el.getAttribute('state')).to.equal('idle');
    el.removeAttribute('state');
    expect(el.getAttribute('state')).to.equal('idle');
  });
});

describe('<voice-agent-call> transcript', () => {
  it('shows AI and visitor bubbles apart, interim lines tentative and hidden from the log', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const s = await inCall(el);
    s.say({ id: 'a1', speaker: 'AI', text: 'Hello, how can I help?', final: true });
    s.say({ id: 'h1', speaker: 'HUMAN', text: 'I would', final: false });
    await settle(el);
    const log = part(el, 'transcript');
    expect(log.getAttribute('role')).to.equal('log');
    const [ai, human] = pair(parts(el, 'entry'), 'transcript entries');
    expect(ai.getAttribute('part')).to.contain('entry-ai');
    expect(human.getAttribute('part')).to.contain('entry-human');
    expect(human.getAttribute('part')).to.contain('entry-interim');
    expect(human.getAttribute('aria-hidden')).to.equal('true');
    expect(ai.hasAttribute('aria-hidden')).to.equal(false);
    expect(getComputedStyle(human).fontStyle).to.equal('italic');
    expect(Number(getComputedStyle(human).opacity)).to.be.lessThan(1);
    expect(getComputedStyle(ai).backgroundColor).to.not.equal(getComputedStyle(human).backgroundColor);
    expect(ai.getBoundingClientRect().left).to.be.lessThan(human.getBoundingClientRect().left);

    s.say({ id: 'h1', speaker: 'HUMAN', text: 'I would like a table.', final: true });
    await settle(el);
    const entries = parts(el, 'entry');
    expect(entries.length).to.equal(2);
    const visitor = present(entries[1], "the visitor's line");
    expect(visitor.textContent).to.equal('You: I would like a table.');
    expect(visitor.hasAttribute('aria-hidden')).to.equal(false);
    expect(getComputedStyle(visitor).fontStyle).to.equal('normal');
  });

  it('adds a line to the log when it becomes final (so it is announced once, as final text)', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const s = await inCall(el);
    const log = part(el, 'transcript');
    expect(log.getAttribute('aria-live')).to.equal('polite');
    const added: string[] = [];
    const observer = new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (node instanceof HTMLElement && !node.hasAttribute('aria-hidden')) added.push(node.textContent ?? '');
        }
      }
    });
    observer.observe(log, { childList: true });
    s.say({ id: 'a1', speaker: 'AI', text: 'Good', final: false });
    await settle(el);
    s.say({ id: 'a1', speaker: 'AI', text: 'Good evening', final: false });
    await settle(el);
    s.say({ id: 'a1', speaker: 'AI', text: 'Good evening!', final: true });
    await settle(el);
    observer.disconnect();
    expect(added).to.deep.equal(['Assistant: Good evening!']);
  });

  it('renders markup in transcript text as text', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const s = await inCall(el);
    const attack = '<img src=x onerror="window.__pwned=1"><b>bold</b>';
    s.say({ id: 'h1', speaker: 'HUMAN', text: attack, final: true });
    await settle(el);
    expect(part(el, 'entry').textContent).to.contain(attack);
    expect(shadow(el).querySelector('img')).to.equal(null);
    expect(shadow(el).querySelector('b')).to.equal(null);
  });

  it('follows new lines, stops when the visitor scrolls up, and offers to jump back', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const s = await inCall(el);
    for (let i = 0; i < 20; i += 1)
      s.say({ id: `a${i}`, speaker: 'AI', text: `Line ${i} of a long answer`, final: true });
    await settle(el);
    const log = part(el, 'transcript');
    const atBottom = (): boolean => log.scrollHeight - log.scrollTop - log.clientHeight < 2;
    expect(log.scrollHeight).to.be.greaterThan(log.clientHeight);
    expect(atBottom()).to.equal(true);

    const scrolled = new Promise((resolve) => log.addEventListener('scroll', resolve, { once: true }));
    log.scrollTop = 0;
    await scrolled;
    expect(findPart(el, 'jump-button')).to.equal(null);
    s.say({ id: 'a20', speaker: 'AI', text: 'A new line', final: true });
    await settle(el);
    expect(log.scrollTop).to.equal(0);
    expect(text(el, 'jump-button')).to.equal('Jump to latest');

    part(el, 'jump-button').click();
    await settle(el);
    expect(atBottom()).to.equal(true);
    s.say({ id: 'a21', speaker: 'AI', text: 'Another line', final: true });
    await settle(el);
    expect(atBottom()).to.equal(true);
  });

  it('shows no transcript with transcript="off"', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/x" transcript="off"></voice-agent-call>`,
    );
    const s = await inCall(el);
    s.say({ id: 'a1', speaker: 'AI', text: 'Hello', final: true });
    await settle(el);
    expect(findPart(el, 'transcript')).to.equal(null);
    expect(text(el, 'status')).to.equal('Listening');
  });
});

describe('<voice-agent-call> controls', () => {
  it('toggles mute with aria-pressed and says so', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const s = await inCall(el);
    const mutes = collect(el, 'call-mute', (event) => event.detail.muted);
    part(el, 'mute-button').click();
    await settle(el);
    expect(s.muted).to.equal(true);
    expect(part(el, 'mute-button').getAttribute('aria-pressed')).to.equal('true');
    // One name, the state in aria-pressed alone (the WAI-ARIA toggle pattern): not "Unmute, pressed".
    expect(text(el, 'mute-button')).to.equal('Mute');
    expect(text(el, 'status')).to.equal('You are muted');
    part(el, 'mute-button').click();
    await settle(el);
    expect(s.muted).to.equal(false);
    expect(part(el, 'mute-button').getAttribute('aria-pressed')).to.equal('false');
    expect(text(el, 'mute-button')).to.equal('Mute');
    expect(mutes).to.deep.equal([true, false]);
  });

  it('says "Reconnecting…" with the connecting dot while muted, and "You are muted" once back', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const s = await inCall(el);
    const dot = (): string => getComputedStyle(query(el, '.status-dot')).backgroundColor;
    s.setMuted(true);
    await settle(el);
    const inCallDot = dot();
    s.go('reconnecting');
    await settle(el);
    expect(text(el, 'status')).to.equal('Reconnecting…');
    expect(dot()).to.not.equal(inCallDot);
    expect(part(el, 'mute-button').getAttribute('aria-pressed')).to.equal('true');
    s.go('in-call');
    await settle(el);
    expect(text(el, 'status')).to.equal('You are muted');
  });

  it('hangs up from the hang-up button and keeps focus on the next action', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    await inCall(el);
    const ended = collect(el, 'call-ended', (event) => event.detail.reason);
    part(el, 'hangup-button').focus();
    part(el, 'hangup-button').click();
    await settle(el);
    await settle(el);
    expect(ended).to.deep.equal(['user-hangup']);
    expect(text(el, 'summary')).to.equal('You hung up · 00:00');
    expect(shadow(el).activeElement === part(el, 'call-button'), 'focus on the call button').to.equal(true);
  });

  it('keeps focus through a real `ending` render: the hang-up button holds it, then "Call again" takes it', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const s = await inCall(el);
    const hangup = part(el, 'hangup-button');
    hangup.focus();
    s.go('ending');
    await settle(el);
    expect(shadow(el).activeElement === hangup, 'the hang-up button keeps focus while ending').to.equal(true);
    hangup.click();
    part(el, 'mute-button').click();
    expect(s.muted, 'no mute while ending').to.equal(false);
    s.result = { dialId: 'dial-1', reason: 'agent-hangup', transcript: [] };
    s.go('ended');
    await settle(el);
    expect(shadow(el).activeElement === part(el, 'call-button'), 'focus on the call button').to.equal(true);
  });

  it('offers "Tap to enable audio" when the browser blocks playback, and unlocks from the click', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const s = await inCall(el);
    expect(findPart(el, 'unlock-button')).to.equal(null);
    s.blockAudio();
    await settle(el);
    expect(text(el, 'unlock-button')).to.equal('Tap to enable audio');
    part(el, 'unlock-button').click();
    await settle(el);
    expect(s.unlocks).to.equal(1);
    expect(findPart(el, 'unlock-button')).to.equal(null);
  });
});

describe('<voice-agent-call layout="floating">', () => {
  it('opens from the launcher with focus inside, closes on Escape with focus back on the launcher', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/x" layout="floating"></voice-agent-call>`,
    );
    const launcher = part<HTMLButtonElement>(el, 'launcher');
    const panel = part(el, 'panel');
    expect(getComputedStyle(launcher).position).to.equal('fixed');
    expect(launcher.getAttribute('aria-expanded')).to.equal('false');
    expect(panel.hidden).to.equal(true);

    launcher.focus();
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => shadow(el).activeElement === part(el, 'call-button'), 'focus did not move into the panel');
    expect(panel.hidden).to.equal(false);
    expect(launcher.getAttribute('aria-expanded')).to.equal('true');
    expect(el.open).to.equal(true);

    await sendKeys({ press: 'Escape' });
    await waitUntil(() => shadow(el).activeElement === launcher, 'focus did not return to the launcher');
    expect(panel.hidden).to.equal(true);
    expect(launcher.getAttribute('aria-expanded')).to.equal('false');

    // Escape also works with focus left on the launcher.
    launcher.click();
    await settle(el);
    launcher.focus();
    await sendKeys({ press: 'Escape' });
    await settle(el);
    expect(panel.hidden).to.equal(true);
  });

  it('closes from the close button; stays open during a call (Escape does nothing)', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/x" layout="floating"></voice-agent-call>`,
    );
    part(el, 'launcher').click();
    await settle(el);
    part(el, 'close-button').click();
    await settle(el);
    expect(part(el, 'panel').hidden).to.equal(true);

    await el.start();
    await settle(el);
    expect(part(el, 'panel').hidden).to.equal(false);
    fake().go('connecting');
    fake().go('in-call');
    await settle(el);
    expect(findPart(el, 'close-button')).to.equal(null);
    part(el, 'hangup-button').focus();
    await sendKeys({ press: 'Escape' });
    part(el, 'launcher').click();
    await settle(el);
    expect(part(el, 'panel').hidden).to.equal(false);
    expect(el.state).to.equal('in-call');
  });

  it('sits in the chosen corner', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/x" layout="floating" placement="bottom-left"></voice-agent-call>`,
    );
    const box = part(el, 'launcher').getBoundingClientRect();
    expect(box.left).to.be.lessThan(window.innerWidth / 2);
    el.placement = 'bottom-right';
    await settle(el);
    expect(part(el, 'launcher').getBoundingClientRect().left).to.be.greaterThan(window.innerWidth / 2);
  });
});

describe('<voice-agent-call> strings and languages', () => {
  it('takes overrides from the strings property', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    el.strings = { startCall: 'Talk to Ada', statusIdle: 'Ada is free' };
    await settle(el);
    expect(text(el, 'call-button')).to.equal('Talk to Ada');
    expect(text(el, 'status')).to.equal('Ada is free');
    expect(text(el, 'title')).to.equal('Voice assistant');
  });

  it('speaks Arabic right to left with lang="ar", overrides still apply', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x" lang="ar"></voice-agent-call>`);
    expect(text(el, 'status')).to.equal('جاهز للتحدث');
    expect(text(el, 'call-button')).to.equal('ابدأ المكالمة');
    const root = query<HTMLElement>(el, '.root');
    expect(root.getAttribute('dir')).to.equal('rtl');
    const s = await inCall(el);
    s.say({ id: 'a1', speaker: 'AI', text: 'مرحبا', final: true });
    s.say({ id: 'h1', speaker: 'HUMAN', text: 'أهلا', final: true });
    await settle(el);
    const [ai, human] = pair(parts(el, 'entry'), 'transcript entries');
    // Mirrored: the agent speaks from the right, the visitor from the left.
    expect(ai.getBoundingClientRect().right).to.be.greaterThan(human.getBoundingClientRect().right);
    el.strings = { hangup: 'إغلاق الخط' };
    el.lang = 'en';
    await settle(el);
    expect(text(el, 'hangup-button')).to.equal('إغلاق الخط');
    expect(text(el, 'status')).to.equal('Listening');
    expect(root.hasAttribute('dir')).to.equal(false);
  });
});

describe('<voice-agent-call> styling', () => {
  it('takes --vac-* custom properties and branding slots', async () => {
    const el =
      await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x" style="--vac-accent: rgb(200, 0, 0); --vac-radius: 4px">
      <span slot="title">Bella Cucina</span>
      <img slot="logo" alt="" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" />
    </voice-agent-call>`);
    const card = part(el, 'card');
    expect(getComputedStyle(card).borderTopLeftRadius).to.equal('4px');
    const s = await inCall(el);
    s.say({ id: 'h1', speaker: 'HUMAN', text: 'Hi', final: true });
    await settle(el);
    expect(getComputedStyle(part(el, 'entry')).backgroundColor).to.equal('rgb(200, 0, 0)');
    const titleSlot = query<HTMLSlotElement>(el, 'slot[name="title"]');
    expect(titleSlot.assignedNodes()[0]?.textContent).to.equal('Bella Cucina');
    expect(query<HTMLSlotElement>(el, 'slot[name="logo"]').assignedElements().length).to.equal(1);
  });
});

describe('<voice-agent-call> registration', () => {
  it('is registered by define and a second registration only warns', async () => {
    expect(customElements.get('voice-agent-call') === VoiceAgentCall).to.equal(true);
    const warnings: unknown[][] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args);
    try {
      expect(() => defineVoiceAgentCall()).to.not.throw();
      class Other extends HTMLElement {}
      expect(() => {
        if (!customElements.get('voice-agent-call')) customElements.define('voice-agent-call', Other);
      }).to.not.throw();
    } finally {
      console.warn = warn;
    }
    expect(warnings.length).to.equal(1);
    expect(String(warnings[0]?.[0])).to.contain('voice-agent-call');
    expect(customElements.get('voice-agent-call') === VoiceAgentCall).to.equal(true);
  });

  it('the package entry point defines nothing', async () => {
    const entry = await import('../../src/index.js');
    expect(entry.VoiceAgentCall === VoiceAgentCall).to.equal(true);
    expect(typeof entry.resolveStrings).to.equal('function');
  });
});

describe('<voice-agent-call> removal', () => {
  it('ends the call once when removed from the document mid-call', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const s = await inCall(el);
    const ended = collect(el, 'call-ended', (event) => event.detail.reason);
    el.remove();
    await waitUntil(() => s.abandoned.length > 0, 'abandon was not called');
    expect(s.abandoned).to.deep.equal(['element-removed']);
    expect(ended).to.deep.equal(['element-removed']);
    expect(s.listeners).to.equal(0);
  });

  it('keeps the call when the element moves within the document', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const s = await inCall(el);
    const ended = collect(el, 'call-ended', (event) => event.detail.reason);
    const elsewhere = document.createElement('div');
    document.body.append(elsewhere);
    try {
      // Two DOM calls, as a framework re-parenting it would make: the element is out of the
      // document for the rest of this task.
      el.remove();
      elsewhere.append(el);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(s.abandoned).to.deep.equal([]);
      expect(ended).to.deep.equal([]);
      expect(el.state).to.equal('in-call');
      s.say({ id: 'a1', speaker: 'AI', text: 'Still here', final: true });
      await settle(el);
      expect(text(el, 'entry')).to.equal('Assistant: Still here');
    } finally {
      elsewhere.remove();
    }
  });

  it('lets go of an idle session when removed, and listens again when put back', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const s = await inCall(el);
    s.end('agent-hangup');
    const parent = present(el.parentElement, "the fixture's container");
    el.remove();
    await waitUntil(() => s.listeners === 0, 'listeners were not removed');
    expect(s.abandoned).to.deep.equal([]);
    parent.append(el);
    expect(s.listeners).to.be.greaterThan(0);
  });
});

describe('<voice-agent-call> accessibility (axe-core)', () => {
  it('has no violations when idle', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    expect(await axeViolations(el)).to.deep.equal([]);
  });

  it('has no violations in a call with a transcript, muted, audio blocked', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    const s = await inCall(el);
    s.say({ id: 'a1', speaker: 'AI', text: 'Hello, how can I help?', final: true });
    s.say({ id: 'h1', speaker: 'HUMAN', text: 'I would like', final: false });
    s.setMuted(true);
    s.blockAudio();
    await settle(el);
    expect(await axeViolations(el)).to.deep.equal([]);
  });

  it('has no violations after the end and after an error, in both themes', async () => {
    for (const theme of ['light', 'dark']) {
      const el = await fixture<VoiceAgentCall>(
        html`<voice-agent-call endpoint="/x" theme=${theme}></voice-agent-call>`,
      );
      const s = await inCall(el);
      s.say({ id: 'a1', speaker: 'AI', text: 'Goodbye!', final: true });
      s.end('agent-hangup');
      await settle(el);
      expect(await axeViolations(el), `${theme} ended`).to.deep.equal([]);
      await el.start();
      s.end('microphone-denied');
      await settle(el);
      expect(await axeViolations(el), `${theme} error`).to.deep.equal([]);
    }
  });

  it('has no violations in the open floating panel', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/x" layout="floating"></voice-agent-call>`,
    );
    part(el, 'launcher').click();
    await panelOpened(el);
    expect(await axeViolations(el)).to.deep.equal([]);
  });

  it('adds no landmark to a page that has its own banner, inline or floating, idle or in a call', async () => {
    // A site's page: its own <header> (the banner) and <main>; the widget must not add a second
    // banner. axe checks landmarks only on the whole document (page-level rules).
    const page = await fixture<HTMLElement>(html`<div>
      <header><p>Site</p></header>
      <main>
        <voice-agent-call endpoint="/x"></voice-agent-call>
        <voice-agent-call endpoint="/x" layout="floating"></voice-agent-call>
      </main>
    </div>`);
    const [inline, floating] = pair([...page.querySelectorAll('voice-agent-call')], 'widgets on the page');
    part(floating, 'launcher').click();
    await panelOpened(floating);
    // The test page itself has no title, lang or h1: those are the page's business, not the widget's.
    const theWidgets = (ids: string[]): string[] =>
      ids.filter((v) => !/^(document-title|html-has-lang|page-has-heading-one):/.test(v));
    expect(theWidgets(await axeViolations(document)), 'idle').to.deep.equal([]);
    await inCall(floating);
    await settle(inline);
    expect(theWidgets(await axeViolations(document)), 'floating in a call').to.deep.equal([]);
    // Whatever a checker's rules, no landmark element inside the widget: only its region or dialog.
    for (const el of [inline, floating]) {
      const landmarks = shadow(el).querySelectorAll(
        'header, footer, nav, main, aside, form, [role="banner"], [role="contentinfo"], [role="navigation"], [role="main"], [role="complementary"], [role="form"], [role="search"]',
      );
      expect(landmarks.length, `${el.layout ?? 'inline'}: landmarks`).to.equal(0);
    }
  });
});
