// A microphone a test can take away the way a browser does when the device is unplugged or the
// permission revoked: the track ends with a real `ended` event. A script cannot fake one in every
// engine (Firefox delivers no script-dispatched event to a MediaStreamTrack's listeners), so the
// (fake) microphone is sent through a loopback peer connection, and the track handed out is the
// received one: stopping the sending side ends it, in Chromium and Firefox alike.
import { present } from './present.js';

export interface RevocableMicrophone {
  /** Give this to the code under test as its microphone. */
  track: MediaStreamTrack;
  /** Ends `track` as an unplugged device would (resolves once it has ended), and stops the source. */
  revoke(): Promise<void>;
}

async function negotiate(from: RTCPeerConnection, to: RTCPeerConnection): Promise<void> {
  await from.setLocalDescription();
  await to.setRemoteDescription(present(from.localDescription, 'the offer'));
  await to.setLocalDescription();
  await from.setRemoteDescription(present(to.localDescription, 'the answer'));
}

export async function revocableMicrophone(source: MediaStreamTrack): Promise<RevocableMicrophone> {
  const sender = new RTCPeerConnection();
  const receiver = new RTCPeerConnection();
  sender.onicecandidate = (event) => void (event.candidate && receiver.addIceCandidate(event.candidate));
  receiver.onicecandidate = (event) => void (event.candidate && sender.addIceCandidate(event.candidate));
  const transceiver = sender.addTransceiver(source, { direction: 'sendonly' });
  const received = new Promise<MediaStreamTrack>((resolve) => {
    receiver.ontrack = (event) => resolve(event.track);
  });
  await negotiate(sender, receiver);
  const track = await received;
  return {
    track,
    async revoke() {
      const ended = new Promise((resolve) => track.addEventListener('ended', resolve, { once: true }));
      transceiver.stop();
      await negotiate(sender, receiver);
      await ended;
      source.stop();
      sender.close();
      receiver.close();
    },
  };
}
