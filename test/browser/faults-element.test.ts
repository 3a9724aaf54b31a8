// The fault matrix through <voice-agent-call> itself: a double click on the call button, two
// elements clicked at once on one page (one live call per page), the element removed while the dial is on its way,
// removed and re-added (a later task) mid-call. Real Chromium, the real companion (through
// test/support/fault-proxy.mjs where a request is held), the emulator's loopback room.
import { expect, fixture, html } from '@open-wc/testing';
import { VoiceAgentCall } from '../../src/define.js';
import { part } from '../support/dom.js';
import { expectCleanEnd, faultLog, until, useHarness } from '../support/fault-matrix.js';
import type { Harness, Seen } from '../support/fault-matrix.js';
import { present } from '../support/present.js';

function watch(el: VoiceAgentCall): Seen {
  const seen: Seen = { states: [], ended: [], errors: [], connected: [] };
  el.addEventListener('call-state', (event) => seen.states.push(event.detail.state));
  el.addEventListener('call-ended', (event) => seen.ended.push(event.detail));
  el.addEventListener('call-error', (event) => seen.errors.push(event.detail.code));
  el.addEventListener('call-connected', (event) => seen.connected.push(event.detail.dialId));
  return seen;
}

const lives = (harness: Harness) => harness.micTracks.filter((track) => track.readyState === 'live').length;

describe('fault matrix: the element', function () {
  this.timeout(40000);
  const harness = useHarness();

  it('double click on the call button: one dial, one call, then one user-hangup', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/__fault/dials-hold" agent="emu-demo"></voice-agent-call>`,
    );
    const seen = watch(el);
    const button = part(el, 'call-button');
    button.click();
    button.click();
    await until(() => seen.connected.length > 0, 20000, 'call-connected');
    const creates = (await faultLog()).slice(harness.logStart).filter((entry) => entry.path === '/dials');
    expect(creates, 'POST /dials').to.have.length(1);
    await el.updateComplete;
    part(el, 'hangup-button').click();
    await until(() => seen.ended.length > 0, 20000, 'call-ended');
    expect(seen.ended.map((r) => r.reason)).to.deep.equal(['user-hangup']);
    expect(seen.connected).to.have.length(1);
    expect(el.state).to.equal('ended');
    expect(lives(harness)).to.equal(0);
  });

  // One live call per page (issue 29, item 5): clicked in the same moment, the first starts and the
  // second refuses at once, spending nothing; the first is untouched and ends once.
  it('two elements on one page clicked at once: one call, the other refused (call_in_progress), no second dial', async () => {
    const box = await fixture<HTMLDivElement>(html`<div>
      <voice-agent-call endpoint="/api/voice-call" agent="emu-demo"></voice-agent-call>
      <voice-agent-call endpoint="/api/voice-call" agent="emu-demo"></voice-agent-call>
    </div>`);
    const [a, b] = [...box.querySelectorAll<VoiceAgentCall>('voice-agent-call')] as [VoiceAgentCall, VoiceAgentCall];
    const seenA = watch(a);
    const seenB = watch(b);
    part(a, 'call-button').click();
    part(b, 'call-button').click();
    await until(() => seenA.connected.length > 0 && seenB.ended.length > 0, 25000, 'one connected, one refused');
    expect(seenB.errors).to.deep.equal(['call_in_progress']);
    expect(seenB.ended.map((r) => [r.reason, r.dialId])).to.deep.equal([['setup-failed', null]]);
    expect(seenB.connected).to.deep.equal([]);
    expect(a.state, 'the live call is untouched').to.equal('in-call');
    await a.hangup();
    expect(seenA.ended.map((r) => r.reason)).to.deep.equal(['user-hangup']);
    expect(seenA.ended[0]?.systemResultType).to.equal('USER_HANGUP');
    expect(lives(harness)).to.equal(0);
  });

  it('removed while the dial is on its way: element-removed at once, the dial created later ends', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/__fault/dials-hold" agent="emu-demo"></voice-agent-call>`,
    );
    const seen = watch(el);
    part(el, 'call-button').click();
    await until(() => seen.states.includes('starting'), 5000, 'starting');
    await new Promise((resolve) => setTimeout(resolve, 300));
    el.remove();
    await expectCleanEnd(harness, el, seen, { reason: 'element-removed', code: null, dials: 1 });
  });

  it('removed, then re-added a moment later mid-call: element-removed, the dial ends, and it can call again', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-demo"></voice-agent-call>`,
    );
    const parent = present(el.parentElement, "the fixture's container");
    const seen = watch(el);
    part(el, 'call-button').click();
    await until(() => seen.connected.length > 0, 20000, 'call-connected');
    el.remove();
    await new Promise((resolve) => setTimeout(resolve, 100));
    parent.append(el);
    await expectCleanEnd(harness, el, seen, { reason: 'element-removed', code: null, dials: 1 });
    await el.updateComplete;
    part(el, 'call-button').click();
    await until(() => seen.connected.length > 1, 20000, 'second call connected');
    await el.hangup();
    expect(seen.ended.map((r) => r.reason)).to.deep.equal(['element-removed', 'user-hangup']);
    expect(lives(harness)).to.equal(0);
  });
});
