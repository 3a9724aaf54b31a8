// Hold's session side alone, against a fake service session: `call-hold` at once, the service's
// `pauseAI`, a refusal reverted with a recoverable `hold_failed`, and a hold that ends with its call.
import { expect } from '@open-wc/testing';
import { CallError } from '../../../../src/call/errors.js';
import type { CallErrorInfo } from '../../../../src/call/types.js';
import { HoldFeature } from '../../../../src/features/hold/hold-feature.js';
import { details, FakeMedia, fakeService, featureHarness } from '../../../support/feature-context.js';

function hold(answer: (paused: boolean) => Promise<void> = async () => undefined) {
  const harness = featureHarness();
  harness.call.media = new FakeMedia();
  const service = fakeService(answer);
  harness.call.service = service;
  return { harness, service, feature: new HoldFeature(harness.context) };
}

const held = (events: readonly Event[]) => details<{ held: boolean }>(events, 'call-hold').map((detail) => detail.held);

describe('hold feature (session side)', () => {
  it('holds and resumes through pauseAI, with call-hold at once each time', async () => {
    const { harness, service, feature } = hold();
    expect(feature.canHold).to.equal(true);
    const holding = feature.setHeld(true);
    expect(feature.held).to.equal(true, 'held before the service answered');
    expect(held(harness.events)).to.deep.equal([true]);
    await holding;
    await feature.setHeld(true);
    await feature.setHeld(false);
    expect(service.paused).to.deep.equal([true, false], 'no second pauseAI for a hold already held');
    expect(held(harness.events)).to.deep.equal([true, false]);
  });

  it('a refusal puts the hold back, fires a recoverable hold_failed and rejects', async () => {
    const { harness, feature } = hold(() => Promise.reject(new Error('not accepted')));
    const error = await feature.setHeld(true).catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(CallError);
    expect((error as CallError).code).to.equal('hold_failed');
    expect(feature.held).to.equal(false);
    expect(held(harness.events)).to.deep.equal([true, false]);
    const errors = details<CallErrorInfo & { recoverable: boolean }>(harness.events, 'call-error');
    expect(errors.map(({ code, recoverable }) => ({ code, recoverable }))).to.deep.equal([
      { code: 'hold_failed', recoverable: true },
    ]);
    expect(errors[0]?.message).to.include('not accepted');
  });

  it('a refusal that arrives after the call ended changes nothing more', async () => {
    let refuse: (error: Error) => void = () => undefined;
    const { harness, feature } = hold(() => new Promise((_, reject) => (refuse = reject)));
    const holding = feature.setHeld(true);
    harness.call.phase = 'ending';
    refuse(new Error('late'));
    await holding;
    expect(details(harness.events, 'call-error')).to.deep.equal([]);
  });

  it('without the service session (or before the call is up) it rejects, changing nothing', async () => {
    const { harness, feature } = hold();
    harness.call.service = null;
    expect(feature.canHold).to.equal(false);
    const error = await feature.setHeld(true).catch((caught: unknown) => caught);
    expect((error as CallError).code).to.equal('hold_failed');
    harness.nextCall('connecting').service = fakeService(async () => undefined);
    expect(feature.canHold).to.equal(false);
    expect(feature.held).to.equal(false);
    expect(harness.events).to.deep.equal([]);
  });

  it('a hold ends with its call (call-hold false from the ended hook), an unheld call fires nothing', async () => {
    const { harness, feature } = hold();
    await feature.setHeld(true);
    feature.ended(harness.call);
    expect(feature.held).to.equal(false);
    feature.ended(harness.call);
    expect(held(harness.events)).to.deep.equal([true, false]);
  });
});
