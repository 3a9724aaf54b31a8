// Connection quality, the session's side alone, against a fake media connection: `call-quality`
// on each change of the media server's grade (never per sample), with the latest link figures
// rounded; the call's averages for `call-ended.detail.metrics`; nothing left watching after release.
import { expect } from '@open-wc/testing';
import type { CallQuality } from '../../../../src/call/types.js';
import { QualityFeature } from '../../../../src/features/quality/quality-feature.js';
import { details, FakeMedia, featureHarness } from '../../../support/feature-context.js';
import { until } from '../../../support/until.js';

function quality() {
  const harness = featureHarness();
  const media = new FakeMedia();
  harness.call.media = media;
  const feature = new QualityFeature(harness.context);
  feature.started(harness.call);
  return { harness, media, feature };
}

describe('quality feature (session side)', () => {
  it('fires call-quality on each change of grade only, with the latest figures rounded', async () => {
    const { harness, media, feature } = quality();
    media.stats = { rttMs: 41.26, jitterMs: 3.04, packetLoss: 0.01234 };
    feature.joined(harness.call);
    // The first sample is read as the call joins; the grade then carries its figures.
    await until(() => feature.averages().rttMs !== undefined, 2000, 'the first sample');
    expect(feature.quality).to.equal(null, 'no grade before the media server sent one');
    media.grade('good');
    media.grade('good');
    media.grade('poor');
    expect(feature.quality).to.equal('poor');
    expect(details<CallQuality>(harness.events, 'call-quality')).to.deep.equal([
      { quality: 'good', rttMs: 41.3, jitterMs: 3, packetLoss: 0.012 },
      { quality: 'poor', rttMs: 41.3, jitterMs: 3, packetLoss: 0.012 },
    ]);
    feature.released(harness.call);
  });

  it("keeps the call's averages over its samples, leaving out a figure no sample had", async () => {
    const { harness, media, feature } = quality();
    media.stats = { rttMs: 40, packetLoss: 0.01 };
    feature.joined(harness.call);
    await until(() => media.statsReads === 1 && feature.averages().rttMs === 40, 2000, 'the first sample');
    media.stats = { rttMs: 60, packetLoss: Number.NaN };
    // The next sample is the feature's own timer's (every 2 s).
    await until(() => media.statsReads === 2 && feature.averages().rttMs === 50, 5000, 'the second sample');
    expect(feature.averages()).to.deep.equal({ rttMs: 50, packetLoss: 0.01 });
    feature.released(harness.call);
  });

  it('after release nothing is watched; a grade for a call no longer live is dropped', () => {
    const { harness, media, feature } = quality();
    feature.joined(harness.call);
    expect(media.qualityListeners.size).to.equal(1);
    harness.call.phase = 'ending';
    media.grade('lost');
    expect(feature.quality).to.equal(null);
    expect(details(harness.events, 'call-quality')).to.deep.equal([]);
    feature.released(harness.call);
    expect(media.qualityListeners.size).to.equal(0);
  });

  it('each call starts ungraded, with no averages', async () => {
    const { harness, media, feature } = quality();
    media.stats = { rttMs: 20 };
    feature.joined(harness.call);
    await until(() => feature.averages().rttMs === 20, 2000, 'the first sample');
    media.grade('excellent');
    feature.released(harness.call);
    feature.started(harness.nextCall());
    expect(feature.quality).to.equal(null);
    expect(feature.averages()).to.deep.equal({});
  });
});
