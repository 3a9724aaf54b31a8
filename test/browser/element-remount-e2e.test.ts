// Re-mounting keeps the call (issue 37, item 4): a framework that removes the element and connects
// a new one for the same endpoint (React's StrictMode double mount, a route change, a re-keyed
// parent) within a few hundred ms hands it the live call, with or without `persist`. Real
// companion, emulator and media room.
import { expect, fixture, html } from '@open-wc/testing';
import type { CallResult } from '../../src/call/types.js';
import { VoiceAgentCall } from '../../src/define.js';
import { findPart, part } from '../support/dom.js';
import { emulatorDial } from '../support/emulator.js';
import { collect } from '../support/events.js';
import { until } from '../support/until.js';

async function connected(endpoint = '/api/voice-call') {
  const el = await fixture<VoiceAgentCall>(
    html`<voice-agent-call endpoint=${endpoint} agent="emu-demo"></voice-agent-call>`,
  );
  const ended = collect(el, 'call-ended', (event) => event.detail);
  const dialId = new Promise<string>((resolve) =>
    el.addEventListener('call-connected', (event) => resolve(event.detail.dialId), { once: true }),
  );
  part(el, 'call-button').click();
  return { el, ended, dialId: await dialId };
}

/** What React does on a re-mount: the old element out and a new one in, in one task. */
function remount(el: VoiceAgentCall, endpoint: string): VoiceAgentCall {
  const parent = el.parentElement as HTMLElement;
  const next = document.createElement('voice-agent-call') as VoiceAgentCall;
  next.setAttribute('endpoint', endpoint);
  next.setAttribute('agent', 'emu-demo');
  el.remove();
  parent.append(next);
  return next;
}

/** Well past the task in which a left call waits to be taken over: nothing announces that nothing happened. */
const pastTheWindow = () => new Promise((resolve) => setTimeout(resolve, 500));

describe('<voice-agent-call> re-mounted mid-call', function () {
  this.timeout(60000);
  const left: VoiceAgentCall[] = [];
  afterEach(async () => {
    for (const el of left.splice(0)) {
      await el.hangup();
      el.remove();
    }
  });

  it('a new element for the same endpoint takes the live call over: same dial, in-call, its transcript; one call-ended at the end, from it', async () => {
    const { el, ended, dialId } = await connected();
    await until(() => el.transcript.length > 0, 20000, "the agent's first line");
    const greeting = el.transcript[0];
    const next = remount(el, '/api/voice-call');
    left.push(next);
    const endedNext = collect(next, 'call-ended', (event) => event.detail);
    await until(
      () => next.state === 'in-call' && findPart(next, 'hangup-button') !== null,
      5000,
      'the call on the new element',
    );
    expect(next.dialId).to.equal(dialId);
    expect(next.transcript[0]?.id).to.equal(greeting?.id);
    await pastTheWindow();
    expect(ended, 'the old element ended nothing').to.deep.equal([]);
    expect((await emulatorDial(dialId)).status).to.equal('in-progress');
    await next.hangup();
    expect(endedNext.map((result: CallResult) => [result.dialId, result.reason])).to.deep.equal([
      [dialId, 'user-hangup'],
    ]);
    expect(ended).to.deep.equal([]);
  });

  it('a new element for another endpoint does not take it: the call ends element-removed, as without one', async () => {
    const { el, ended, dialId } = await connected();
    const next = remount(el, '/api/voice-call-strict');
    left.push(next);
    await next.updateComplete;
    expect(next.state).to.equal('idle');
    await until(() => ended.length > 0, 10000, 'call-ended of the removed element');
    expect(ended.map((result) => result.reason)).to.deep.equal(['element-removed']);
    await until(async () => (await emulatorDial(dialId)).status !== 'in-progress', 20000, 'the dial ending');
  });
});
