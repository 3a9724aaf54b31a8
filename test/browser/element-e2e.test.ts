// <voice-agent-call> with the real CallSession: real Chromium (fake microphone), the real
// companion at /api/voice-call, the emulator's REST API and its loopback room with scripted agents.
import { expect, fixture, html } from '@open-wc/testing';
import type { CallEndedEvent } from '../../src/call/events.js';
import type { CallResult, CallState } from '../../src/call/types.js';
import { VoiceAgentCall } from '../../src/define.js';

function part(el: HTMLElement, name: string): HTMLElement | null {
  return el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
}

function text(el: HTMLElement, name: string): string {
  return (part(el, name)?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function emulatorDial(dialId: string): Promise<{ status: string; systemResultType: string | null }> {
  const response = await fetch(`/__emu/dials/${dialId}`);
  expect(response.status).to.equal(200);
  return response.json();
}

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

describe('<voice-agent-call> end to end (companion + emulator)', function () {
  this.timeout(60000);

  it('emu-quick: a click calls, the transcript shows up, the agent hangs up once', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-quick"></voice-agent-call>`,
    );
    const { seen, stop } = watch(el);
    let indicatorSpoke = false;
    const speakingWatch = new MutationObserver(() => {
      if (part(el, 'indicator')!.classList.contains('speaking')) indicatorSpoke = true;
    });
    speakingWatch.observe(part(el, 'indicator')!, { attributes: true, attributeFilter: ['class'] });
    try {
      part(el, 'call-button')!.click();
      await until(() => seen.connected.length === 1, 'call-connected');
      expect(el.state).to.equal('in-call');
      expect(el.getAttribute('state')).to.equal('in-call');
      expect(part(el, 'hangup-button')).to.not.equal(null);
      await until(() => seen.ended.length > 0, 'call-ended', 30000);
      await el.updateComplete;

      expect(seen.ended.length).to.equal(1);
      expect(seen.ended[0]!.reason).to.equal('agent-hangup');
      expect(seen.ended[0]!.dialId).to.equal(seen.connected[0]);
      expect(seen.states).to.include.members(['starting', 'connecting', 'in-call', 'ended']);
      expect(seen.transcript).to.be.greaterThan(0);
      const bubbles = [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part~="entry-ai"]')];
      expect(bubbles.length).to.be.greaterThan(0);
      expect(bubbles[0]!.textContent!.length).to.be.greaterThan('Assistant: '.length);
      expect(text(el, 'summary')).to.match(/^Call ended · agent hung up · \d\d:\d\d$/);
      expect(text(el, 'call-button')).to.equal('Call again');
      expect(el.getTranscript().length).to.equal(seen.ended[0]!.transcript.length);
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
    part(el, 'call-button')!.click();
    await until(() => ended.length > 0, 'call-ended');
    await el.updateComplete;
    expect(ended.map((result) => result.reason)).to.deep.equal(['busy']);
    expect(text(el, 'error')).to.contain('All lines are busy');
    expect(text(el, 'error')).to.contain('try again in a few minutes');
    expect(text(el, 'call-button')).to.equal('Try again');
  });

  it('emu-demo: removing the element mid-call ends it as element-removed and the dial ends', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-demo"></voice-agent-call>`,
    );
    const ended: CallResult[] = [];
    el.addEventListener('call-ended', (event) => ended.push(event.detail));
    const connected = new Promise<string>((resolve) =>
      el.addEventListener('call-connected', (event) => resolve(event.detail.dialId), { once: true }),
    );
    part(el, 'call-button')!.click();
    const dialId = await connected;
    expect((await emulatorDial(dialId)).status).to.equal('in-progress');

    el.remove();
    await until(() => ended.length > 0, 'call-ended after removal');
    expect(ended.map((result) => result.reason)).to.deep.equal(['element-removed']);
    await until(async () => (await emulatorDial(dialId)).status !== 'in-progress', 'the emulator dial ending');
    const dial = await emulatorDial(dialId);
    expect(['completed', 'canceled']).to.include(dial.status);
    expect(ended.length).to.equal(1);
  });

  it('emu-demo: moving the element mid-call keeps the call', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-demo"></voice-agent-call>`,
    );
    const ended: CallResult[] = [];
    el.addEventListener('call-ended', (event) => ended.push(event.detail));
    const connected = new Promise<string>((resolve) =>
      el.addEventListener('call-connected', (event) => resolve(event.detail.dialId), { once: true }),
    );
    part(el, 'call-button')!.click();
    const dialId = await connected;

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
      part(el, 'hangup-button')!.click();
      await until(() => ended.length > 0, 'call-ended after hang-up');
      expect(ended.map((result) => result.reason)).to.deep.equal(['user-hangup']);
    } finally {
      elsewhere.remove();
    }
  });
});
