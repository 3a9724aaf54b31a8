// Devices' session side alone, against a fake media connection and the browser's (fake) microphone:
// switching the microphone in a call, a microphone that goes away, the choice between calls and
// what `rememberDevices` keeps.
import { expect } from '@open-wc/testing';
import { CallError } from '../../../../src/call/errors.js';
import type { CallDevice, CallErrorInfo } from '../../../../src/call/types.js';
import { DevicesFeature } from '../../../../src/features/devices/devices-feature.js';
import { DEVICES_STORAGE_KEY, openMicrophone } from '../../../../src/features/devices/devices.js';
import { details, FakeMedia, featureHarness } from '../../../support/feature-context.js';
import { revocableMicrophone } from '../../../support/revocable-microphone.js';
import { until } from '../../../support/until.js';

async function inCall(options = {}) {
  const harness = featureHarness({ options });
  const media = new FakeMedia();
  const mic = await openMicrophone('');
  harness.call.mic = mic;
  const feature = new DevicesFeature(harness.context);
  feature.started(harness.call);
  feature.microphoneOpened(harness.call);
  harness.call.media = media;
  return { harness, media, mic, feature };
}

/** A call whose microphone the test can take away as an unplugged device goes (a real `ended`). */
async function withRevocable() {
  const setup = await inCall();
  const { harness, feature, mic } = setup;
  feature.released(harness.call);
  const revocable = await revocableMicrophone(mic);
  harness.call.mic = revocable.track;
  feature.microphoneOpened(harness.call);
  return { ...setup, revoke: () => revocable.revoke() };
}

const devices = (events: readonly Event[]) => details<CallDevice>(events, 'call-device');

describe('devices feature (session side)', () => {
  afterEach(() => localStorage.removeItem(DEVICES_STORAGE_KEY));

  it('setMicrophone in a call sends the new track in place of the old one (muted as the visitor is) and stops the old one', async () => {
    const { harness, media, mic, feature } = await inCall();
    harness.setMuted(true);
    await feature.setMicrophone('');
    const [replaced] = media.replaced;
    expect(media.replaced).to.have.length(1);
    expect(replaced?.muted).to.equal(true);
    expect(replaced?.track.enabled).to.equal(false);
    expect(harness.call.mic).to.equal(replaced?.track);
    expect(mic.readyState).to.equal('ended');
    expect(devices(harness.events).map(({ kind, fallback }) => ({ kind, fallback }))).to.deep.equal([
      { kind: 'audioinput', fallback: false },
    ]);
    feature.released(harness.call);
    harness.call.mic?.stop();
  });

  it('a microphone that cannot be opened: a recoverable device_failed, and the call keeps the one it had', async () => {
    const { harness, media, mic, feature } = await inCall();
    const error = await feature.setMicrophone('no-such-microphone').catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(CallError);
    expect((error as CallError).code).to.equal('device_failed');
    expect(media.replaced).to.deep.equal([]);
    expect(harness.call.mic).to.equal(mic);
    expect(mic.readyState).to.equal('live');
    const errors = details<CallErrorInfo & { recoverable: boolean }>(harness.events, 'call-error');
    expect(errors.map(({ code, recoverable }) => ({ code, recoverable }))).to.deep.equal([
      { code: 'device_failed', recoverable: true },
    ]);
    feature.released(harness.call);
    mic.stop();
  });

  it('the microphone in use ends (unplugged): the call moves to the default one, call-device with fallback', async () => {
    const { harness, media, feature, revoke } = await withRevocable();
    await revoke();
    await until(() => media.replaced.length === 1, 5000, 'the default microphone sent');
    expect(devices(harness.events).map((device) => device.fallback)).to.deep.equal([true]);
    expect(harness.ends).to.deep.equal([]);
    feature.released(harness.call);
    harness.call.mic?.stop();
  });

  it('a microphone that ends before the room is joined ends the call (microphone-lost)', async () => {
    const { harness, feature, revoke } = await withRevocable();
    harness.call.media = null;
    await revoke();
    expect(harness.ends.map((end) => end.ending)).to.deep.equal(['microphone-lost']);
    feature.released(harness.call);
  });

  it('released: the listeners go with the call (its track ending afterwards does nothing)', async () => {
    const { harness, feature, revoke } = await withRevocable();
    feature.released(harness.call);
    // Still listening, the loss before a room would end the call at once.
    harness.call.media = null;
    await revoke();
    expect(harness.ends).to.deep.equal([]);
  });

  it('between calls the choice waits for the next call; rememberDevices keeps it, read once by the next call', async () => {
    const harness = featureHarness({ phase: 'ended', options: { rememberDevices: true } });
    const feature = new DevicesFeature(harness.context);
    await feature.setMicrophone('mic-1');
    expect(feature.microphoneId).to.equal('mic-1');
    expect(devices(harness.events)).to.deep.equal([
      { kind: 'audioinput', deviceId: 'mic-1', label: '', fallback: false },
    ]);
    expect(JSON.parse(localStorage.getItem(DEVICES_STORAGE_KEY) ?? 'null')).to.deep.equal({ microphone: 'mic-1' });

    // A new session's feature reads the stored choice when its first call starts.
    const next = featureHarness({ phase: 'starting', options: { rememberDevices: true } });
    const later = new DevicesFeature(next.context);
    expect(later.microphoneId).to.equal(null);
    later.started(next.call);
    expect(later.microphoneId).to.equal('mic-1');
  });

  it('without rememberDevices nothing is stored', async () => {
    const harness = featureHarness({ phase: 'ended' });
    await new DevicesFeature(harness.context).setMicrophone('mic-2');
    expect(localStorage.getItem(DEVICES_STORAGE_KEY)).to.equal(null);
  });
});
