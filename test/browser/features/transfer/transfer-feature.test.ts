// Talk to a person, the session's side alone, against a fake companion: `call-transfer`
// `requested` at once and `connected` once the companion answered; a refusal `failed` with a
// recoverable `transfer_failed` (the call stays with the agent); once per call, only where offered.
import { expect } from '@open-wc/testing';
import { CallError } from '../../../../src/call/errors.js';
import type { CallErrorInfo, TransferState } from '../../../../src/call/types.js';
import { TransferFeature } from '../../../../src/features/transfer/transfer-feature.js';
import { details, fakeCompanion, featureHarness } from '../../../support/feature-context.js';

function transfer(answer?: () => Promise<void>, offered = true) {
  const harness = featureHarness();
  harness.call.dial = { dialId: 'dial-1', handle: 'h', transfer: offered };
  const asked = fakeCompanion(harness.call, answer);
  const feature = new TransferFeature(harness.context);
  feature.started(harness.call);
  return { harness, asked, feature };
}

const states = (events: readonly Event[]) =>
  details<{ state: TransferState }>(events, 'call-transfer').map((detail) => detail.state);

const rejection = (promise: Promise<void>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe('transfer feature (session side)', () => {
  it('asks the companion once: requested at once, connected when it answered, the person from the next entry', async () => {
    const { harness, asked, feature } = transfer();
    harness.call.transcript.applySegment({ segmentId: 's1', speaker: 'AI', text: 'Hello', final: true });
    expect(feature.canTransfer).to.equal(true);
    const asking = feature.requestTransfer();
    expect(feature.state).to.equal('requested');
    expect(feature.canTransfer).to.equal(false, 'one transfer per call');
    expect(states(harness.events)).to.deep.equal(['requested']);
    await asking;
    expect(feature.state).to.equal('connected');
    expect(states(harness.events)).to.deep.equal(['requested', 'connected']);
    expect(feature.personFromEntry).to.equal(1);
    expect(asked.map(({ route, dial }) => [route, dial.dialId])).to.deep.equal([['transfer', 'dial-1']]);
    expect(harness.ends).to.deep.equal([], 'the call goes on');
  });

  it('a refusal: failed, a recoverable transfer_failed, the call stays with the agent, and it rejects', async () => {
    const { harness, feature } = transfer(() => Promise.reject(new Error('the service refused')));
    const error = await rejection(feature.requestTransfer());
    expect(error).to.be.instanceOf(CallError);
    expect((error as CallError).code).to.equal('transfer_failed');
    expect(feature.state).to.equal('failed');
    expect(feature.personFromEntry).to.equal(null);
    expect(states(harness.events)).to.deep.equal(['requested', 'failed']);
    const errors = details<CallErrorInfo & { recoverable: boolean }>(harness.events, 'call-error');
    expect(errors.map(({ code, recoverable }) => ({ code, recoverable }))).to.deep.equal([
      { code: 'transfer_failed', recoverable: true },
    ]);
    expect(errors[0]?.message).to.include('the service refused');
    expect(harness.ends).to.deep.equal([]);
  });

  it('not offered, not up, or asked already: it rejects without asking the companion', async () => {
    const notOffered = transfer(undefined, false);
    expect(notOffered.feature.canTransfer).to.equal(false);
    expect(((await rejection(notOffered.feature.requestTransfer())) as CallError).message).to.include(
      'no transfer number',
    );
    expect(notOffered.asked).to.deep.equal([]);
    expect(notOffered.harness.events).to.deep.equal([]);

    const connecting = transfer();
    connecting.harness.call.phase = 'connecting';
    expect(connecting.feature.canTransfer).to.equal(false);
    expect(((await rejection(connecting.feature.requestTransfer())) as CallError).code).to.equal('transfer_failed');
    expect(connecting.asked).to.deep.equal([]);

    const twice = transfer();
    await twice.feature.requestTransfer();
    expect(((await rejection(twice.feature.requestTransfer())) as CallError).message).to.include('already');
    expect(twice.asked).to.have.length(1);
  });

  it('an answer after the call ended changes nothing more; the next call starts with the agent', async () => {
    let refuse: (error: Error) => void = () => undefined;
    const { harness, feature } = transfer(() => new Promise((_, reject) => (refuse = reject)));
    const asking = feature.requestTransfer();
    harness.call.phase = 'ending';
    refuse(new Error('late'));
    expect(await rejection(asking)).to.equal(null);
    expect(states(harness.events)).to.deep.equal(['requested']);
    expect(details(harness.events, 'call-error')).to.deep.equal([]);

    const next = harness.nextCall();
    next.dial = { dialId: 'dial-2', handle: 'h', transfer: true };
    feature.started(next);
    expect(feature.state).to.equal('none');
    expect(feature.personFromEntry).to.equal(null);
    expect(feature.canTransfer).to.equal(true);
  });
});
