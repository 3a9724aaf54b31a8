// <voice-agent-call> with the real CallSession: real Chromium (fake microphone), the real
// companion at /api/voice-call, the emulator's REST API and its loopback room with scripted agents.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { CallEndedEvent } from '../../src/call/events.js';
import type { CallResult, CallState } from '../../src/call/types.js';
import { VoiceAgentCall } from '../../src/define.js';
import { formatDuration } from '../../src/element/strings.js';
import { findPart, part, parts, query, shadow, text } from '../support/dom.js';
import { emulatorDial } from '../support/emulator.js';
import { collect } from '../support/events.js';
import { until } from '../support/until.js';

/** What the page sees: the element's events, caught on `document` (they bubble and are composed). */
function watch(el: VoiceAgentCall) {
  const seen = { states: [] as CallState[], connected: [] as string[], ended: [] as CallResult[], transcript: 0 };
  const onState = (event: HTMLElementEventMap['call-state']): void => {
    if (event.composedPath()[0] === el) seen.states.push(event.detail.state);
  };
  const onConnected = (event: HTMLElementEventMap['call-connected']): void => {
    if (event.composedPath()[0] === el) seen.connected.push(event.detail.dialId);
  };
  const onEnded = (event: CallEndedEvent): void => {
    if (event.composedPath()[0] === el) seen.ended.push(event.detail);
  };
  const onTranscript = (event: HTMLElementEventMap['call-transcript']): void => {
    if (event.composedPath()[0] === el) seen.transcript += 1;
  };
  document.addEventListener('call-state', onState);
  document.addEventListener('call-connected', onConnected);
  document.addEventListener('call-ended', onEnded);
  document.addEventListener('call-transcript', onTranscript);
  const stop = (): void => {
    document.removeEventListener('call-state', onState);
    document.removeEventListener('call-connected', onConnected);
    document.removeEventListener('call-ended', onEnded);
    document.removeEventListener('call-transcript', onTranscript);
  };
  return { seen, stop };
}

/** An emu-demo element in a call: the results it has ended with so far, and its dial. */
async function connectedDemo(): Promise<{ el: VoiceAgentCall; ended: CallResult[]; dialId: string }> {
  const el = await fixture<VoiceAgentCall>(
    html`<voice-agent-call endpoint="/api/voice-call" agent="emu-demo"></voice-agent-call>`,
  );
  const ended = collect(el, 'call-ended', (event) => event.detail);
  const connected = new Promise<string>((resolve) =>
    el.addEventListener('call-connected', (event) => resolve(event.detail.dialId), { once: true }),
  );
  part(el, 'call-button').click();
  return { el, ended, dialId: await connected };
}

describe('<voice-agent-call> end to end (companion + emulator)', function () {
  this.timeout(60000);

  it('emu-quick: a click calls, the transcript shows up, the agent hangs up once', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-quick"></voice-agent-call>`,
    );
    const { seen, stop } = watch(el);
    let indicatorSpoke = false;
    const speakingWatch = new MutationObserver(() => {
      if (part(el, 'indicator').classList.contains('speaking')) indicatorSpoke = true;
    });
    speakingWatch.observe(part(el, 'indicator'), { attributes: true, attributeFilter: ['class'] });
    try {
      part(el, 'call-button').click();
      await until(() => seen.connected.length === 1, 20000, 'call-connected');
      expect(el.state).to.equal('in-call');
      expect(el.getAttribute('state')).to.equal('in-call');
      expect(findPart(el, 'hangup-button')).to.not.equal(null);
      await until(() => seen.ended.length > 0, 30000, 'call-ended');
      await el.updateComplete;

      expect(seen.ended.length).to.equal(1);
      expect(seen.ended[0]?.reason).to.equal('agent-hangup');
      expect(seen.ended[0]?.dialId).to.equal(seen.connected[0]);
      expect(seen.states).to.include.members(['starting', 'connecting', 'in-call', 'ended']);
      expect(seen.transcript).to.be.greaterThan(0);
      const bubbles = parts(el, 'entry-ai');
      expect(bubbles.length).to.be.greaterThan(0);
      expect(bubbles[0]?.textContent?.length).to.be.greaterThan('Assistant: '.length);
      // The card and the event agree on the duration (issue 29, item 3: Firefox showed 00:03 beside 4).
      const reported = seen.ended[0]?.durationSeconds;
      expect(reported, 'call-ended.durationSeconds').to.be.a('number');
      expect(text(el, 'summary')).to.equal(`Agent hung up · ${formatDuration((reported ?? 0) * 1000)}`);
      expect(text(el, 'status')).to.equal('Call ended');
      // No empty space between the last line and the summary (it was 40–70 px under a short transcript).
      const lastLine = parts(el, 'entry').at(-1)?.getBoundingClientRect();
      const gap = part(el, 'summary').getBoundingClientRect().top - (lastLine?.bottom ?? 0);
      expect(gap, 'space between the last line and the summary').to.be.within(0, 24);
      expect(text(el, 'call-button')).to.equal('Call again');
      expect(el.getTranscript().length).to.equal(seen.ended[0]?.transcript.length);
      expect(indicatorSpoke, 'the speaking indicator showed the agent speaking').to.equal(true);
    } finally {
      speakingWatch.disconnect();
      stop();
    }
  });

  it('emu-busy: the element says the lines are busy and when to try again', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-busy"></voice-agent-call>`,
    );
    const ended: CallResult[] = [];
    el.addEventListener('call-ended', (event) => ended.push(event.detail));
    part(el, 'call-button').click();
    await until(() => ended.length > 0, 20000, 'call-ended');
    await el.updateComplete;
    expect(ended.map((result) => result.reason)).to.deep.equal(['busy']);
    expect(text(el, 'error')).to.contain('All lines are busy');
    expect(text(el, 'error')).to.contain('try again in a few minutes');
    expect(text(el, 'call-button')).to.equal('Try again');
    // It never connected: no "Call ended" and no duration (the service's record has one).
    expect(text(el, 'status')).to.equal('Call not connected');
    expect(text(el, 'summary')).to.equal('Lines busy');
  });

  it('emu-demo: removing the element mid-call ends it as element-removed and the dial ends', async () => {
    const { el, ended, dialId } = await connectedDemo();
    expect((await emulatorDial(dialId)).status).to.equal('in-progress');

    el.remove();
    await until(() => ended.length > 0, 20000, 'call-ended after removal');
    expect(ended.map((result) => result.reason)).to.deep.equal(['element-removed']);
    await until(async () => (await emulatorDial(dialId)).status !== 'in-progress', 20000, 'the emulator dial ending');
    const dial = await emulatorDial(dialId);
    expect(['completed', 'canceled']).to.include(dial.status);
    expect(ended.length).to.equal(1);
  });

  it('emu-demo: moving the element mid-call keeps the call', async () => {
    const { el, ended, dialId } = await connectedDemo();

    const elsewhere = document.createElement('section');
    document.body.append(elsewhere);
    try {
      // Two DOM calls, as a framework re-parenting it would make: the element is out of the
      // document for the rest of this task.
      el.remove();
      elsewhere.append(el);
      // Long enough for a removal check to have run (it runs one task later) and a hang-up to reach the emulator.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(ended).to.deep.equal([]);
      expect(el.state).to.equal('in-call');
      expect((await emulatorDial(dialId)).status).to.equal('in-progress');

      // The moved element still drives the call.
      await el.updateComplete;
      part(el, 'hangup-button').click();
      await until(() => ended.length > 0, 20000, 'call-ended after hang-up');
      expect(ended.map((result) => result.reason)).to.deep.equal(['user-hangup']);
    } finally {
      elsewhere.remove();
    }
  });
});

/** The element's rendered states, in order (its `state` attribute, as the page sees each render). */
function renderedStates(el: VoiceAgentCall): { states: string[]; stop(): void } {
  const states = [el.getAttribute('state') ?? ''];
  const observer = new MutationObserver(() => {
    const state = el.getAttribute('state') ?? '';
    if (states.at(-1) !== state) states.push(state);
  });
  observer.observe(el, { attributes: true, attributeFilter: ['state'] });
  return { states, stop: () => observer.disconnect() };
}

/** What has focus in the element (compared by identity: a failed DOM comparison is slow to print). */
function focused(el: VoiceAgentCall): Element | null {
  return shadow(el).activeElement;
}

async function ended(el: VoiceAgentCall): Promise<CallResult> {
  return new Promise((resolve) => el.addEventListener('call-ended', (event) => resolve(event.detail), { once: true }));
}

// Focus through the real `ending` state: the session hangs up and reads the dial record there, so
// the element renders `ending` (controls disabled) before `ended` (issue 19, item 1).
describe('<voice-agent-call> end to end: focus when a call ends (keyboard only)', function () {
  this.timeout(60000);

  it('visitor hang-up: focus goes from the hang-up button to "Call again"', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-demo"></voice-agent-call>`,
    );
    const rendered = renderedStates(el);
    try {
      part(el, 'call-button').focus();
      const connected = new Promise((resolve) => el.addEventListener('call-connected', resolve, { once: true }));
      await sendKeys({ press: 'Enter' });
      await connected;
      await el.updateComplete;
      expect(focused(el) === part(el, 'hangup-button'), 'focus on hang-up once in the call').to.equal(true);
      const end = ended(el);
      await sendKeys({ press: 'Enter' });
      expect((await end).reason).to.equal('user-hangup');
      await el.updateComplete;
      expect(rendered.states).to.include('ending');
      expect(focused(el) === part(el, 'call-button'), 'focus on the call button').to.equal(true);
      expect(text(el, 'call-button')).to.equal('Call again');
    } finally {
      rendered.stop();
    }
  });

  // Issue 29, item 1: focus used to move to "Hang up" while the call was still `starting`, so a
  // second Enter (the call looked slow) ended it at once: user-hangup, "00:00".
  it('a second Enter while the call sets up does not hang up: focus stays off "Hang up" until the call is up', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-demo"></voice-agent-call>`,
    );
    const endings: string[] = [];
    el.addEventListener('call-ended', (event) => endings.push(event.detail.reason));
    const connected = new Promise((resolve) => el.addEventListener('call-connected', resolve, { once: true }));
    part(el, 'call-button').focus();
    await sendKeys({ press: 'Enter' });
    await until(() => el.state !== 'idle', 10000, 'the call starts');
    expect(['starting', 'connecting']).to.include(el.state);
    // "Preparing the call…" keeps the call button (the in-call card renders once the room is
    // joined); a card that renders while the call still sets up holds focus itself.
    const holder = focused(el);
    expect(
      holder === findPart(el, 'call-button') || holder === findPart(el, 'card'),
      'focus rests on the call button or the card while the call sets up',
    ).to.equal(true);
    await sendKeys({ press: 'Enter' });
    await sendKeys({ press: 'Enter' });
    await sendKeys({ press: ' ' });
    await connected;
    await el.updateComplete;
    expect(endings, 'the repeated keys ended nothing').to.deep.equal([]);
    expect(el.state).to.equal('in-call');
    expect(focused(el) === part(el, 'hangup-button'), 'focus on hang-up once in the call').to.equal(true);
    const end = ended(el);
    await sendKeys({ press: 'Enter' });
    expect((await end).reason).to.equal('user-hangup');
  });

  it('agent hang-up (emu-quick): focus on the hang-up button moves to "Call again"', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-quick"></voice-agent-call>`,
    );
    const rendered = renderedStates(el);
    try {
      const end = ended(el);
      part(el, 'call-button').focus();
      await sendKeys({ press: 'Enter' });
      expect((await end).reason).to.equal('agent-hangup');
      await el.updateComplete;
      expect(rendered.states).to.include('ending');
      expect(focused(el) === part(el, 'call-button'), 'focus on the call button').to.equal(true);
    } finally {
      rendered.stop();
    }
  });

  it('busy (emu-busy), floating panel: focus on "Try again", and Escape still closes the panel', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-busy" layout="floating"></voice-agent-call>`,
    );
    const rendered = renderedStates(el);
    try {
      part(el, 'launcher').focus();
      await sendKeys({ press: 'Enter' });
      await el.updateComplete;
      expect(focused(el) === part(el, 'call-button'), 'focus in the panel').to.equal(true);
      const end = ended(el);
      await sendKeys({ press: 'Enter' });
      expect((await end).reason).to.equal('busy');
      await el.updateComplete;
      expect(rendered.states).to.include('ending');
      expect(focused(el) === part(el, 'call-button'), 'focus on the call button').to.equal(true);
      expect(text(el, 'call-button')).to.equal('Try again');

      await sendKeys({ press: 'Escape' });
      await el.updateComplete;
      expect(part(el, 'panel').hidden, 'the panel closed').to.equal(true);
      expect(focused(el) === part(el, 'launcher'), 'focus back on the launcher').to.equal(true);
    } finally {
      rendered.stop();
    }
  });

  it('visitor hang-up in the floating panel: focus stays in the panel, Escape closes it', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-demo" layout="floating"></voice-agent-call>`,
    );
    part(el, 'launcher').focus();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    const connected = new Promise((resolve) => el.addEventListener('call-connected', resolve, { once: true }));
    await sendKeys({ press: 'Enter' });
    await connected;
    await el.updateComplete;
    expect(focused(el) === part(el, 'hangup-button')).to.equal(true);
    const end = ended(el);
    await sendKeys({ press: 'Enter' });
    await end;
    await el.updateComplete;
    expect(focused(el) === part(el, 'call-button'), 'focus on the call button').to.equal(true);
    await sendKeys({ press: 'Escape' });
    await el.updateComplete;
    expect(part(el, 'panel').hidden, 'the panel closed').to.equal(true);
    expect(focused(el) === part(el, 'launcher'), 'focus back on the launcher').to.equal(true);
  });
});

// Mute belongs to one call (issue 19, item 2): the real CallSession, through the companion and emulator.
describe('<voice-agent-call> end to end: mute and the next call', function () {
  this.timeout(60000);

  async function connect(el: VoiceAgentCall): Promise<void> {
    const connected = new Promise((resolve) => el.addEventListener('call-connected', resolve, { once: true }));
    part(el, 'call-button').click();
    await connected;
    await el.updateComplete;
  }

  function announced(el: VoiceAgentCall): string {
    return query(el, '[role="status"]').textContent ?? '';
  }

  it('"Call again" after a muted call starts unmuted, and says nothing of a mute', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-demo"></voice-agent-call>`,
    );
    const mutes: boolean[] = [];
    el.addEventListener('call-mute', (event) => mutes.push(event.detail.muted));
    await connect(el);
    part(el, 'mute-button').click();
    await el.updateComplete;
    expect(el.muted).to.equal(true);
    expect(text(el, 'status')).to.equal('You are muted');
    const end = ended(el);
    part(el, 'hangup-button').click();
    await end;
    expect(el.muted, 'unmuted once the call ended').to.equal(false);

    await connect(el);
    expect(el.muted).to.equal(false);
    expect(part(el, 'mute-button').getAttribute('aria-pressed')).to.equal('false');
    expect(text(el, 'status')).to.not.equal('You are muted');
    expect(announced(el)).to.equal('Call connected');
    expect(mutes).to.deep.equal([true, false]);
    const again = ended(el);
    part(el, 'hangup-button').click();
    await again;
  });

  it('a mute set between calls carries into the next call, and the visitor is told', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-demo"></voice-agent-call>`,
    );
    await connect(el);
    const end = ended(el);
    part(el, 'hangup-button').click();
    await end;
    el.setMuted(true);
    await connect(el);
    expect(el.muted).to.equal(true);
    expect(part(el, 'mute-button').getAttribute('aria-pressed')).to.equal('true');
    expect(text(el, 'status')).to.equal('You are muted');
    expect(announced(el)).to.equal('Call connected. Your microphone is muted.');
    const again = ended(el);
    part(el, 'hangup-button').click();
    await again;
    expect(el.muted).to.equal(false);
  });
});

// A reconnect while muted (issue 19, item 4): emu-blip drops the connection once for real.
describe('<voice-agent-call> end to end: reconnecting while muted', function () {
  this.timeout(60000);

  it('says "Reconnecting…" with the connecting dot, then "You are muted" again', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-blip"></voice-agent-call>`,
    );
    const seen: Array<{ state: string | null; status: string; dot: string }> = [];
    const dot = (): string => getComputedStyle(query(el, '.status-dot')).backgroundColor;
    const states = new MutationObserver(() =>
      seen.push({ state: el.getAttribute('state'), status: text(el, 'status'), dot: dot() }),
    );
    const connected = new Promise((resolve) => el.addEventListener('call-connected', resolve, { once: true }));
    part(el, 'call-button').click();
    await connected;
    el.setMuted(true);
    await el.updateComplete;
    const mutedDot = dot();
    states.observe(query(el, '[part="status"]'), {
      subtree: true,
      characterData: true,
      childList: true,
    });
    try {
      await until(() => seen.some((entry) => entry.state === 'reconnecting'), 15000, 'reconnecting');
      await until(
        () => el.state === 'in-call' && text(el, 'status') === 'You are muted',
        20000,
        'back in the call, muted',
      );
      const during = seen.filter((entry) => entry.state === 'reconnecting');
      expect(during.map((entry) => entry.status)).to.include('Reconnecting…');
      expect(
        during.every((entry) => entry.status === 'Reconnecting…'),
        JSON.stringify(during),
      ).to.equal(true);
      expect(
        during.every((entry) => entry.dot !== mutedDot),
        'not the in-call dot',
      ).to.equal(true);
    } finally {
      states.disconnect();
    }
    const end = ended(el);
    part(el, 'hangup-button').click();
    await end;
  });
});

// After the end, every line is final (issue 19, item 5): a hang-up while the agent is mid-line.
describe('<voice-agent-call> end to end: the transcript after the end', function () {
  this.timeout(60000);

  it('hang-up during an interim line: call-ended and the card hold only final lines', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-demo"></voice-agent-call>`,
    );
    const end = ended(el);
    let sawInterim = false;
    el.addEventListener('call-transcript', (event) => {
      if (sawInterim || event.detail.changed.final) return;
      sawInterim = true;
      void el.hangup();
    });
    part(el, 'call-button').click();
    const result = await end;
    await el.updateComplete;
    expect(sawInterim, 'hung up during an interim line').to.equal(true);
    expect(result.transcript.filter((entry) => !entry.final)).to.deep.equal([]);
    expect(el.getTranscript().filter((entry) => !entry.final)).to.deep.equal([]);
    expect(parts(el, 'entry-interim').length).to.equal(0);
  });
});
