// Devices as every call carries them (src/features/devices/devices-side.ts): the rest of the
// session's side (choosing, a microphone that went away, `rememberDevices`) is the devices chunk,
// which a call that never touches a device does not fetch. The part a call does carry takes the
// chunk when it is needed and hands the call to it; without it a microphone that ended still ends
// the call. Against a fake media connection and the browser's (fake) microphone; the element's
// side (the toggle's intent, the menu) is element-devices-chunk.test.ts's.
import { expect } from '@open-wc/testing';
import { CallSession } from '../../../../src/call/call-session.js';
import type { CallDevice } from '../../../../src/call/types.js';
import { DevicesSide } from '../../../../src/features/devices/devices-side.js';
import { openMicrophone } from '../../../../src/features/devices/devices.js';
import { details, FakeMedia, featureHarness } from '../../../support/feature-context.js';
import { revocableMicrophone } from '../../../support/revocable-microphone.js';
import { until } from '../../../support/until.js';

/** The page has fetched the devices chunk's module (the dev server serves each module on its own). */
const chunkFetched = (): boolean =>
  performance.getEntriesByType('resource').some((entry) => entry.name.includes('/src/features/devices/devices-chunk.'));

/** A call in progress whose microphone the test can take away (a real `ended`), its devices as a session carries them. */
async function inCall(load?: ConstructorParameters<typeof DevicesSide>[1]) {
  const harness = featureHarness();
  const revocable = await revocableMicrophone(await openMicrophone(''));
  harness.call.mic = revocable.track;
  const side = new DevicesSide(harness.context, load);
  side.started(harness.call);
  side.microphoneOpened(harness.call);
  const media = new FakeMedia();
  harness.call.media = media;
  await side.joined(harness.call);
  return { harness, side, media, revoke: () => revocable.revoke() };
}

describe('devices: what every call carries, and the chunk it loads', () => {
  // In this order: the first tests expect the chunk not fetched yet.
  it('a session reads its devices without the chunk: the microphone in use, no speaker chosen', async () => {
    const session = new CallSession({ endpoint: '/api/voice-call' });
    expect(session.microphoneId).to.equal(null);
    expect(session.speakerId).to.equal(null);
    const harness = featureHarness();
    const mic = await openMicrophone('');
    harness.call.mic = mic;
    const side = new DevicesSide(harness.context, () => Promise.reject(new Error('not wanted')));
    side.started(harness.call);
    side.microphoneOpened(harness.call);
    expect(side.microphoneId).to.be.a('string').and.equal(mic.getSettings().deviceId);
    expect(side.speakerId).to.equal(null);
    side.released(harness.call);
    mic.stop();
    expect(chunkFetched()).to.equal(false);
  });

  it('a microphone that ends while the chunk cannot load: the call ends (microphone-lost), as one with no other microphone would', async () => {
    const { harness, side, revoke } = await inCall(() => Promise.reject(new TypeError('Failed to fetch')));
    await revoke();
    await until(() => harness.ends.length > 0, 5000, 'the call ended');
    expect(harness.ends.map((end) => end.ending)).to.deep.equal(['microphone-lost']);
    side.released(harness.call);
    expect(chunkFetched()).to.equal(false);
  });

  it('a microphone that ends mid-call loads the chunk, which moves the call to the default microphone', async () => {
    const { harness, side, media, revoke } = await inCall();
    await revoke();
    await until(() => media.replaced.length === 1, 5000, 'the default microphone sent');
    expect(chunkFetched()).to.equal(true);
    expect(details<CallDevice>(harness.events, 'call-device').map((device) => device.fallback)).to.deep.equal([true]);
    expect(harness.ends).to.deep.equal([]);
    expect(harness.call.mic?.readyState).to.equal('live');
    side.released(harness.call);
    harness.call.mic?.stop();
  });

  it('setMicrophone mid-call: the chunk takes the call up and switches it', async () => {
    const { harness, side, media } = await inCall();
    await side.setMicrophone('');
    expect(media.replaced).to.have.length(1);
    expect(harness.call.mic).to.equal(media.replaced[0]?.track);
    expect(details<CallDevice>(harness.events, 'call-device').map((device) => device.fallback)).to.deep.equal([false]);
    expect(harness.ends).to.deep.equal([]);
    side.released(harness.call);
    harness.call.mic?.stop();
  });

  it('a session loads the chunk for setMicrophone between calls, and reads the choice from it', async () => {
    const session = new CallSession({ endpoint: '/api/voice-call' });
    const chosen = new Promise<CallDevice>((resolve) =>
      session.addEventListener('call-device', (event) => resolve(event.detail), { once: true }),
    );
    await session.setMicrophone('mic-1');
    expect(session.microphoneId).to.equal('mic-1');
    expect(await chosen).to.deep.equal({ kind: 'audioinput', deviceId: 'mic-1', label: '', fallback: false });
  });
});
