// Touch targets on a phone (issue 40): with Chromium emulating a touch screen (`pointer: coarse`,
// as DevTools' device mode does) at 390 px, every control a visitor taps through a call measures at
// least 44×44 px (WCAG 2.5.5, both platforms' guidelines): the panel's close, the call button,
// every in-call control, the keypad's keys, the device menu's rows (the whole row is the radio's
// label), "Enable audio", the consent buttons, the rating's thumbs, Skip and Send.
import { expect, fixture, html } from '@open-wc/testing';
import { executeServerCommand, setViewport } from '@web/test-runner-commands';
import { VoiceAgentCall } from '../../src/define.js';
import { part, query, queryAll, shadow } from '../support/dom.js';
import { useFakeSessionsCallLoaded } from '../support/element-fixture.js';
import { FullSession } from '../support/full-session.js';
import { until } from '../support/until.js';

/** The smallest side a finger can hit reliably. */
const MIN = 44;
/** Half a pixel: layout rounds. */
const SLACK = 0.5;

useFakeSessionsCallLoaded();
let newest: FullSession | null = null;
let previousFactory: typeof VoiceAgentCall.sessionFactory;

before(async () => {
  previousFactory = VoiceAgentCall.sessionFactory;
  VoiceAgentCall.sessionFactory = (options) => (newest = new FullSession(options));
  await setViewport({ width: 390, height: 844 });
  await executeServerCommand('emulate-touch', { enabled: true });
});

after(async () => {
  VoiceAgentCall.sessionFactory = previousFactory;
  await executeServerCommand('emulate-touch', { enabled: false });
  await setViewport({ width: 800, height: 600 });
});

function session(): FullSession {
  if (!newest) throw new Error('no session was made');
  return newest;
}

/** Each target smaller than 44×44, named with its size; empty when all are big enough. */
function small(targets: HTMLElement[], what: string): string[] {
  expect(targets.length, `${what}: some to measure`).to.be.greaterThan(0);
  return targets.flatMap((target) => {
    const { width, height } = target.getBoundingClientRect();
    const name = target.getAttribute('part') ?? target.className;
    return width + SLACK < MIN || height + SLACK < MIN
      ? [`${what}: ${name} is ${width.toFixed(1)}×${height.toFixed(1)}`]
      : [];
  });
}

async function startCall(el: VoiceAgentCall): Promise<FullSession> {
  newest = null;
  part(el, 'call-button').click();
  const made = session();
  made.go('connecting');
  made.go('in-call');
  await el.updateComplete;
  return made;
}

describe('<voice-agent-call> touch targets on a phone', () => {
  it('the page sees a touch screen (the emulation is on)', () => {
    expect(matchMedia('(pointer: coarse)').matches).to.equal(true);
  });

  it('floating: close, call, every in-call control, keypad keys, device rows, Enable audio', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call
        endpoint="/api/voice-call"
        layout="floating"
        controls="mute devices keypad hold"
      ></voice-agent-call>`,
    );
    part(el, 'launcher').click();
    await el.updateComplete;
    // Measured as the panel rests, not while it grows in from 98 %.
    await Promise.all(
      query(el, '.panel')
        .getAnimations()
        .map((animation) => animation.finished),
    );
    const problems = small([part(el, 'launcher'), part(el, 'close-button'), part(el, 'call-button')], 'idle panel');
    const call = await startCall(el);
    problems.push(...small(queryAll(el, '.controls .control'), 'in call'));
    part(el, 'keypad-button').click();
    await until(() => shadow(el).querySelector('.keypad') !== null, 5000, 'the keypad');
    problems.push(...small(queryAll(el, '.keypad .key'), 'keypad'));
    part(el, 'devices-button').click();
    await until(() => queryAll(el, '.devices .option').length > 0, 5000, 'the device rows');
    // The row is the target: the radio sits inside its label, so a tap anywhere on it chooses.
    const rows = queryAll(el, '.devices .option');
    for (const row of rows) expect(row.querySelector('input[type=radio]'), 'a radio inside its row').to.not.equal(null);
    problems.push(...small(rows, 'device menu'));
    call.blockAudio();
    await el.updateComplete;
    problems.push(...small([part(el, 'unlock-button')], 'audio blocked'));
    expect(problems).to.deep.equal([]);
  });

  it('consent, then the rating: Cancel, Agree, thumbs, Skip, Send', async () => {
    newest = null;
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" consent="We record this call." feedback></voice-agent-call>`,
    );
    part(el, 'call-button').click();
    await el.updateComplete;
    const problems = small([part(el, 'consent-cancel'), part(el, 'consent-agree')], 'consent');
    part(el, 'consent-agree').click();
    const call = session();
    await until(() => call.state === 'starting', 5000, 'the call starting');
    call.go('connecting');
    call.go('in-call');
    call.end('user-hangup');
    await el.updateComplete;
    problems.push(...small([part(el, 'feedback-up'), part(el, 'feedback-down')], 'rating'));
    part(el, 'feedback-up').click();
    await el.updateComplete;
    problems.push(...small([part(el, 'feedback-skip'), part(el, 'feedback-send'), part(el, 'call-button')], 'comment'));
    expect(query(el, '.feedback')).to.not.equal(null);
    expect(problems).to.deep.equal([]);
  });
});
