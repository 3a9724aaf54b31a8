// Mute's session side alone, against a fake media connection: the call's microphone track and
// the media connection follow it at once, `call-mute` per change; set between calls it carries
// into the next one, but a call that ends muted is unmuted before `ended`.
import { expect } from '@open-wc/testing';
import { MuteFeature } from '../../../../src/features/mute/mute-feature.js';
import { details, FakeMedia, featureHarness } from '../../../support/feature-context.js';

const muted = (events: readonly Event[]) =>
  details<{ muted: boolean }>(events, 'call-mute').map((detail) => detail.muted);

async function microphone(): Promise<MediaStreamTrack> {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  const [track] = stream.getAudioTracks();
  if (!track) throw new Error('no microphone track');
  return track;
}

describe('mute feature (session side)', () => {
  it("mutes and unmutes the call's microphone and media connection, call-mute once per change", async () => {
    const harness = featureHarness();
    const media = new FakeMedia();
    const track = await microphone();
    harness.call.media = media;
    harness.call.mic = track;
    const feature = new MuteFeature(harness.context);
    feature.setMuted(true);
    feature.setMuted(true);
    expect(feature.muted).to.equal(true);
    expect(track.enabled).to.equal(false);
    feature.setMuted(false);
    expect(track.enabled).to.equal(true);
    expect(media.muted).to.deep.equal([true, false]);
    expect(muted(harness.events)).to.deep.equal([true, false]);
    track.stop();
  });

  it('set between calls it touches no media and carries into the next call', () => {
    const harness = featureHarness({ phase: 'released' });
    const media = new FakeMedia();
    harness.call.media = media;
    const feature = new MuteFeature(harness.context);
    feature.setMuted(true);
    expect(media.muted).to.deep.equal([], 'the released call is left alone');
    harness.nextCall('starting');
    expect(feature.muted).to.equal(true);
    expect(muted(harness.events)).to.deep.equal([true]);
  });

  it('a call that ends muted is unmuted (call-mute false) by the ended hook; an unmuted one fires nothing', () => {
    const harness = featureHarness({ phase: 'released' });
    const feature = new MuteFeature(harness.context);
    feature.ended(harness.call);
    expect(harness.events).to.deep.equal([]);
    feature.setMuted(true);
    feature.ended(harness.call);
    expect(feature.muted).to.equal(false);
    expect(muted(harness.events)).to.deep.equal([true, false]);
  });
});
