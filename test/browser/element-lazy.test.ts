// A click before the call chunk has loaded (`preload="none"`, a visitor who clicks at once): the
// microphone request and the audio unlock happen inside the click, in the idle entry; the
// CallSession takes both over once its chunk has loaded, the in-call UI arrives already styled,
// and the call goes through (real companion, emulator, real WebRTC).
import { expect, fixture, html } from '@open-wc/testing';
import { sendMouse } from '@web/test-runner-commands';
import type { CallResult } from '../../src/call/types.js';
import { VoiceAgentCall } from '../../src/define.js';
import { loadedCall } from '../../src/element/call-loader.js';
import { findPart, part, shadow, text } from '../support/dom.js';
import { until } from '../support/until.js';

/** Records each microphone request and each play(), with whether the page had user activation then. */
function spyGesture() {
  const seen = {
    microphone: [] as boolean[],
    plays: [] as Array<{ audio: HTMLMediaElement; active: boolean }>,
    streams: [] as MediaStream[],
  };
  const devices = navigator.mediaDevices;
  const getUserMedia = devices.getUserMedia;
  const play = HTMLMediaElement.prototype.play;
  devices.getUserMedia = function (constraints) {
    seen.microphone.push(navigator.userActivation.isActive);
    const request = getUserMedia.call(devices, constraints);
    void request.then(
      (stream) => seen.streams.push(stream),
      () => undefined,
    );
    return request;
  };
  HTMLMediaElement.prototype.play = function () {
    seen.plays.push({ audio: this, active: navigator.userActivation.isActive });
    return play.call(this);
  };
  const restore = (): void => {
    devices.getUserMedia = getUserMedia;
    HTMLMediaElement.prototype.play = play;
  };
  return { seen, restore };
}

async function clickCenter(node: HTMLElement): Promise<void> {
  const rect = node.getBoundingClientRect();
  await sendMouse({
    type: 'click',
    position: [Math.round(rect.left + rect.width / 2), Math.round(rect.top + rect.height / 2)],
  });
}

describe('<voice-agent-call>: a click before the call chunk has loaded', function () {
  this.timeout(60000);

  after(async () => {
    await sendMouse({ type: 'move', position: [0, 0] });
  });

  it('asks for the microphone and unlocks audio inside the click, hands both to the session, and the call goes through', async () => {
    expect(loadedCall(), 'the call chunk has not loaded in this page').to.equal(null);
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-quick" preload="none"></voice-agent-call>`,
    );
    const ended: CallResult[] = [];
    el.addEventListener('call-ended', (event) => ended.push(event.detail));
    // The first render of the in-call controls, caught before the browser paints it.
    let hangupStyle: { background: string; radius: string } | null = null;
    // Each status line the card shows after the click, in order: read as the card changes, not
    // once the click's round trip has returned (by then, on a loaded machine, the call had moved on).
    const statuses: string[] = [];
    const idleStatus = text(el, 'status');
    const firstCallRender = new MutationObserver(() => {
      const hangup = findPart(el, 'hangup-button');
      if (hangup && !hangupStyle) {
        const style = getComputedStyle(hangup);
        hangupStyle = { background: style.backgroundColor, radius: style.borderTopLeftRadius };
      }
      const status = findPart(el, 'status') ? text(el, 'status') : null;
      if (status !== null && status !== (statuses.at(-1) ?? idleStatus)) statuses.push(status);
    });
    firstCallRender.observe(shadow(el), { childList: true, subtree: true, characterData: true });
    // The state as the click's dispatch ends (after the element's own handler): the session does
    // not exist yet. Read once the click's round trip had returned, it was once already `starting`
    // (Firefox, on a loaded machine): the chunk had arrived in the meantime.
    let stateInClick: string | null = null;
    el.addEventListener('click', () => (stateInClick ??= el.state));
    const { seen, restore } = spyGesture();
    try {
      await clickCenter(part(el, 'call-button'));
      // Inside the click, while the call logic was still loading.
      expect(seen.microphone, 'one microphone request, inside the click').to.deep.equal([true]);
      const audio = shadow(el).querySelector('audio[data-voice-agent-audio]');
      expect(audio, 'the audio element is made in the click').to.not.equal(null);
      expect(
        seen.plays.filter((p) => p.audio === audio).map((p) => p.active),
        'played inside the click',
      ).to.deep.equal([true]);
      expect(stateInClick, 'no session yet as the click ends').to.equal('idle');
      await until(() => statuses.length > 0, 5000, 'a status after the click');
      expect(statuses[0], 'what the card says while the call logic loads').to.equal('Preparing the call…');

      await until(() => el.state === 'in-call' || ended.length > 0, 30000, 'in-call');
      expect(el.state).to.equal('in-call');
      // The session took both over: no second request, the same element plays the agent.
      expect(seen.microphone.length).to.equal(1);
      expect(shadow(el).querySelectorAll('audio[data-voice-agent-audio]').length).to.equal(1);
      expect(shadow(el).querySelector('audio[data-voice-agent-audio]') === audio, 'the same audio element').to.equal(
        true,
      );
      await until(
        () => ((audio as HTMLAudioElement).srcObject as MediaStream | null)?.getAudioTracks().length === 1,
        10000,
        'the agent plays in it',
      );
      expect(hangupStyle, 'the in-call styles applied at its first render').to.deep.equal({
        background: 'rgb(220, 38, 38)',
        radius: '999px',
      });

      await until(() => ended.length > 0, 30000, 'call-ended');
      expect(ended.map((result) => result.reason)).to.deep.equal(['agent-hangup']);
      expect(seen.streams.length).to.equal(1);
      expect(
        seen.streams[0]?.getTracks().every((track) => track.readyState === 'ended'),
        'the microphone is released',
      ).to.equal(true);
      expect(shadow(el).querySelector('audio[data-voice-agent-audio]')).to.equal(null);
    } finally {
      restore();
      firstCallRender.disconnect();
    }
  });

  it('a second call from the loaded chunk asks in the click as before', async () => {
    expect(loadedCall(), 'the call chunk is loaded now').to.not.equal(null);
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-quick" preload="none"></voice-agent-call>`,
    );
    // The state as the click's dispatch ends (after the element's own handler), not once the click's
    // round trip has returned: by then, on a loaded machine, the dial had answered (`connecting`).
    let stateInClick: string | null = null;
    el.addEventListener('click', () => (stateInClick ??= el.state));
    const { seen, restore } = spyGesture();
    try {
      await clickCenter(part(el, 'call-button'));
      expect(seen.microphone).to.deep.equal([true]);
      expect(stateInClick, 'the session exists and started in the click').to.equal('starting');
      await until(() => el.state === 'in-call', 30000, 'in-call');
      await el.hangup();
      expect(el.state).to.equal('ended');
    } finally {
      restore();
    }
  });
});
