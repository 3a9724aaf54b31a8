// The AudioContexts a call opens, through the real element, companion, emulator and room: the
// room's (livekit-client's, for its audio elements) and the voice meter's, no more (livekit-client's
// LocalAudioTrack would open one more each time it checks the microphone for silence, when the track
// is made and again when it is published: the widget turns that check off), and every one is
// closed once the call has ended. Each is made on the main thread while the call is being set up.
import { expect, fixture, html } from '@open-wc/testing';
import { VoiceAgentCall } from '../../../../src/define.js';
import { part } from '../../../support/dom.js';
import { countMade } from '../../../support/made.js';
import { until } from '../../../support/until.js';

describe('a call and its AudioContexts', function () {
  this.timeout(60000);
  const contexts = countMade('AudioContext');
  const { made } = contexts;

  before(() => contexts.start());
  after(() => contexts.restore());

  it('opens two (the room and the meter), none to check the microphone for silence, and closes them all when it ends', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-demo"></voice-agent-call>`,
    );
    const session = () =>
      (el as unknown as { _view: { call: { session: { audioLevels: { agent: number } } } } })._view.call.session;
    try {
      part(el, 'call-button').click();
      await until(() => el.state === 'in-call', 20000, 'in-call');
      // The agent is heard through the meter: the microphone has been published for a while (a
      // silence check would have opened its context by now).
      await until(() => session().audioLevels.agent > 0.2, 20000, 'the agent is heard');
      expect(made.length, 'AudioContexts opened by the call').to.equal(2);
      part(el, 'hangup-button').click();
      await until(() => el.state === 'ended', 20000, 'ended');
      await until(() => made.every((context) => context.state === 'closed'), 5000, 'every AudioContext closed');
    } finally {
      if (el.state !== 'ended' && el.state !== 'idle') await el.hangup();
    }
  });
});
