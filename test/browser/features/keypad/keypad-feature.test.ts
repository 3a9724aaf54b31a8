// The keypad's session side alone, against a fake media connection: what goes out as DTMF, in
// which order, and what is refused before anything is sent.
import { expect } from '@open-wc/testing';
import { CallError } from '../../../../src/call/errors.js';
import { KeypadFeature } from '../../../../src/features/keypad/keypad-feature.js';
import { details, FakeMedia, featureHarness } from '../../../support/feature-context.js';

function keypad(phase: 'in-call' | 'reconnecting' | 'connecting' = 'in-call') {
  const harness = featureHarness({ phase });
  const media = new FakeMedia();
  harness.call.media = media;
  return { harness, media, feature: new KeypadFeature(harness.context) };
}

describe('keypad feature (session side)', () => {
  it('sends each digit as one DTMF tone, in order across calls of sendDigits, with call-dtmf per digit sent', async () => {
    const { harness, media, feature } = keypad();
    media.hold('dtmf');
    const first = feature.sendDigits('12');
    const second = feature.sendDigits('*#');
    await Promise.resolve();
    expect(media.dtmf).to.deep.equal(['1'], 'the second call waits for the first');
    media.release();
    await Promise.all([first, second]);
    expect(media.dtmf).to.deep.equal(['1', '2', '*', '#']);
    expect(details<{ digit: string }>(harness.events, 'call-dtmf').map((detail) => detail.digit)).to.deep.equal([
      '1',
      '2',
      '*',
      '#',
    ]);
  });

  it('also while reconnecting', async () => {
    const { media, feature } = keypad('reconnecting');
    await feature.sendDigits('0');
    expect(media.dtmf).to.deep.equal(['0']);
  });

  for (const bad of ['', '12a', '1 2', 'A', '+1']) {
    it(`refuses ${JSON.stringify(bad)} with a RangeError, sending nothing`, async () => {
      const { harness, media, feature } = keypad();
      const error = await feature.sendDigits(bad).catch((caught: unknown) => caught);
      expect(error).to.be.instanceOf(RangeError);
      expect(media.dtmf).to.deep.equal([]);
      expect(harness.events).to.deep.equal([]);
    });
  }

  it('refuses a call that is not up yet (media_failed), sending nothing', async () => {
    const { media, feature } = keypad('connecting');
    const error = await feature.sendDigits('1').catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(CallError);
    expect((error as CallError).code).to.equal('media_failed');
    expect(media.dtmf).to.deep.equal([]);
  });

  it('stops at the end of the call: digits still queued are not sent', async () => {
    const { harness, media, feature } = keypad();
    media.hold('dtmf');
    const sending = feature.sendDigits('123');
    await Promise.resolve();
    harness.call.phase = 'ending';
    media.release();
    await sending;
    expect(media.dtmf).to.deep.equal(['1']);
  });
});
