// Talk to a person end to end: <voice-agent-call> with the real CallSession, through the
// companion (a transfer number configured for emu-demo and emu-transfer-refused only) and the
// emulator (the person Sam in the room, another voice), in Chromium and Firefox: from the
// button and from requestTransfer(), the person heard and read, the status and the transcript
// saying who talks, the end `transferred` with both durations; no number, no button and a 404;
// a second transfer refused; a transfer the service refuses keeps the call with the agent.
import { expect, fixture, html } from '@open-wc/testing';
import type { CallResult, CallSessionLike, VoiceLevels } from '../../src/call/types.js';
import { VoiceAgentCall } from '../../src/define.js';
import { findPart, part, parts, shadow, text } from '../support/dom.js';
import { collect } from '../support/events.js';
import { until } from '../support/until.js';

const GREETING = 'Hi, this is Sam from the support team. How can I help you?';

/** An element in a call with `agent`, its events recorded from the start. */
async function inCall(agent: string, controls = 'mute transfer') {
  const el = await fixture<VoiceAgentCall>(
    html`<voice-agent-call endpoint="/api/voice-call" agent=${agent} controls=${controls}></voice-agent-call>`,
  );
  const seen = {
    transfer: collect(el, 'call-transfer', (event) => event.detail.state),
    errors: collect(el, 'call-error', (event) => event.detail),
    ended: collect(el, 'call-ended', (event) => event.detail),
    statuses: [] as string[],
  };
  const connected = new Promise<void>((resolve) =>
    el.addEventListener('call-connected', () => resolve(), { once: true }),
  );
  part(el, 'call-button').click();
  await connected;
  await el.updateComplete;
  // Every status line the visitor could read, as it changes.
  const status = part(el, 'status');
  new MutationObserver(() => seen.statuses.push(status.textContent?.trim() ?? '')).observe(status, {
    subtree: true,
    characterData: true,
    childList: true,
  });
  return { el, seen };
}

function session(el: VoiceAgentCall): CallSessionLike & { audioLevels: VoiceLevels } {
  return (el as unknown as { _view: { call: { session: CallSessionLike & { audioLevels: VoiceLevels } } } })._view.call
    .session;
}

/** The person's greeting is read in the transcript (final), marked as the person's. */
async function personGreets(el: VoiceAgentCall): Promise<void> {
  await until(
    () => el.transcript.some((entry) => entry.speaker === 'AI' && entry.final && entry.text === GREETING),
    20000,
    "the person's greeting",
  );
  await el.updateComplete;
  const person = parts(el, 'entry-person');
  expect(person.length).to.be.greaterThan(0);
  expect(person.some((entry) => entry.textContent?.includes('Sam from the support team'))).to.equal(true);
  expect(person[0]?.querySelector('.sr-only')?.textContent).to.equal('Person: ');
  // The agent's own lines before the transfer keep their label.
  const agentEntries = parts(el, 'entry-ai').filter((entry) => !entry.part.contains('entry-person'));
  expect(agentEntries[0]?.querySelector('.sr-only')?.textContent).to.equal('Assistant: ');
}

/** Hangs up and checks the end: `transferred`, both durations, the whole call longer than the agent's part. */
async function endsTransferred(el: VoiceAgentCall, ended: CallResult[]): Promise<void> {
  await el.hangup();
  await until(() => ended.length === 1, 10000, 'call-ended');
  const result = ended[0];
  expect(result?.reason).to.equal('transferred');
  expect(result?.systemResultType).to.equal('TRANSFERRED');
  expect(result?.durationSeconds).to.be.a('number');
  expect(result?.aiDurationSeconds).to.be.a('number');
  expect(result?.durationSeconds ?? 0).to.be.greaterThan(result?.aiDurationSeconds ?? Infinity);
  await el.updateComplete;
  expect(text(el, 'summary')).to.match(/^Transferred · \d\d:\d\d$/);
}

describe('talk to a person (companion + emulator)', function () {
  this.timeout(90000);

  it('from the button: "Connecting you to a person…", then "With a person", the person heard and read, the end `transferred` with both durations', async () => {
    const { el, seen } = await inCall('emu-demo');
    try {
      const button = part(el, 'transfer-button');
      expect(button.textContent?.trim()).to.equal('Talk to a person');
      expect(el.transferState).to.equal('none');
      button.click();
      await until(() => seen.transfer.length === 2, 10000, 'call-transfer requested, then connected');
      expect(seen.transfer).to.deep.equal(['requested', 'connected']);
      await el.updateComplete;
      expect(seen.statuses).to.include('Connecting you to a person…');
      expect(text(el, 'status')).to.equal('With a person');
      expect(el.transferState).to.equal('connected');
      expect(findPart(el, 'transfer-button'), 'one transfer per call: the button is gone').to.equal(null);
      expect(el.state).to.equal('in-call');

      // The person is heard: the other side's level rises with the greeting.
      let loudest = 0;
      await until(
        () => {
          loudest = Math.max(loudest, session(el).audioLevels.agent);
          return loudest > 0.05;
        },
        20000,
        'the person is heard',
      );
      await personGreets(el);
      expect(text(el, 'voice-agent')).to.contain('Person');
      expect(seen.errors).to.deep.equal([]);

      // A second transfer in the same call is refused by the session, asking nothing.
      let error: unknown = null;
      await el.requestTransfer().catch((caught: unknown) => (error = caught));
      expect((error as Error | null)?.message).to.contain('already');
      expect(seen.transfer).to.deep.equal(['requested', 'connected']);

      await endsTransferred(el, seen.ended);
    } finally {
      if (el.state !== 'ended') await el.hangup();
    }
  });

  it('from requestTransfer(), without the control shown: the same transfer, and the end `transferred`', async () => {
    const { el, seen } = await inCall('emu-demo', 'mute');
    try {
      expect(findPart(el, 'transfer-button')).to.equal(null);
      await el.requestTransfer();
      expect(seen.transfer).to.deep.equal(['requested', 'connected']);
      await el.updateComplete;
      expect(text(el, 'status')).to.equal('With a person');
      await personGreets(el);
      await endsTransferred(el, seen.ended);
    } finally {
      if (el.state !== 'ended') await el.hangup();
    }
  });

  it('no number configured for the agent: no button, requestTransfer() rejects, the route answers 404', async () => {
    const created: Array<{ dialId: string; handle: string; transfer?: boolean }> = [];
    const pageFetch = window.fetch;
    // The create's answer, read as it reaches the widget: it offers no transfer, and holds the handle.
    window.fetch = async (input, init) => {
      const response = await pageFetch(input, init);
      if (String(input).endsWith('/api/voice-call/dials') && init?.method === 'POST')
        created.push((await response.clone().json()) as (typeof created)[number]);
      return response;
    };
    let call;
    try {
      call = await inCall('emu-keypad');
    } finally {
      window.fetch = pageFetch;
    }
    const { el, seen } = call;
    expect(created.length).to.equal(1);
    expect(created[0]?.transfer).to.equal(undefined);
    try {
      expect(findPart(el, 'transfer-button')).to.equal(null);
      let error: unknown = null;
      await el.requestTransfer().catch((caught: unknown) => (error = caught));
      expect((error as Error | null)?.message).to.contain('does not offer');
      expect(seen.transfer).to.deep.equal([]);
      const { dialId, handle } = created[0] ?? {};
      expect(dialId).to.equal(el.dialId);
      // The dial's own handle, as the widget would send it: still no transfer for this agent.
      const answer = await fetch(`/api/voice-call/dials/${dialId}/transfer`, {
        method: 'POST',
        headers: { authorization: `Bearer ${handle}` },
      });
      expect(answer.status).to.equal(404);
      expect(((await answer.json()) as { error: { code: string } }).error.code).to.equal('not_found');
      expect(el.state).to.equal('in-call');
    } finally {
      if (el.state !== 'ended') await el.hangup();
    }
  });

  it('the service refuses (emu-transfer-refused): `failed`, a recoverable transfer_failed, the notice, and the call stays with the agent', async () => {
    const { el, seen } = await inCall('emu-transfer-refused');
    try {
      part(el, 'transfer-button').click();
      await until(() => seen.transfer.length === 2, 10000, 'call-transfer requested, then failed');
      expect(seen.transfer).to.deep.equal(['requested', 'failed']);
      expect(seen.errors.map((error) => [error.code, error.recoverable])).to.deep.equal([['transfer_failed', true]]);
      await el.updateComplete;
      expect(el.state).to.equal('in-call');
      expect(el.transferState).to.equal('failed');
      expect(text(el, 'device-notice')).to.contain('could not connect you to a person');
      expect(text(el, 'status')).to.not.contain('person');
      expect(findPart(el, 'transfer-button')).to.equal(null);
      expect(parts(el, 'entry-person')).to.deep.equal([]);
      await el.hangup();
      await until(() => seen.ended.length === 1, 10000, 'call-ended');
      expect(seen.ended[0]?.reason).to.equal('user-hangup');
    } finally {
      if (el.state !== 'ended') await el.hangup();
    }
  });

  it('with every control on: the button is a real button in the controls row, and hold goes once the call is with a person', async () => {
    const { el, seen } = await inCall('emu-demo', 'mute devices keypad hold transfer');
    try {
      const button = part(el, 'transfer-button');
      expect(button.tagName).to.equal('BUTTON');
      expect(shadow(el).querySelector('[part~="controls"]')?.contains(button)).to.equal(true);
      expect(button.getAttribute('aria-disabled')).to.equal('false');
      expect(findPart(el, 'hold-button')).to.not.equal(null);
      button.click();
      await until(() => seen.transfer.length === 2, 10000, 'call-transfer requested, then connected');
      await el.updateComplete;
      // With a person there is no AI to put on hold.
      expect(findPart(el, 'hold-button')).to.equal(null);
      expect(findPart(el, 'keypad-button')).to.not.equal(null);
    } finally {
      if (el.state !== 'ended') await el.hangup();
    }
  });
});
