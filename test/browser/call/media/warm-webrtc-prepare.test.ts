// The WebRTC warm-up (warm-webrtc.test.ts) when a call's room is made before the page had an idle
// moment for it (the click loaded the media chunk, and the main thread stayed busy until the
// session made the room while the dial's request was out): the warm-up runs then, once, still
// before the join, and not again at the next idle moment. Its own file: the warm-up runs once per page.
import { expect } from '@open-wc/testing';
import { CallError } from '../../../../src/call/errors.js';
import type { MediaCallbacks } from '../../../../src/call/media/livekit-media.js';
import { countMade } from '../../../support/made.js';
import { present } from '../../../support/present.js';

const ignore = (): void => undefined;
const callbacks: MediaCallbacks = {
  onAgentJoined: ignore,
  onAgentLeft: ignore,
  onAgentAudio: ignore,
  onAgentSpeaking: ignore,
  onReconnecting: ignore,
  onReconnected: ignore,
  onDisconnected: ignore,
  onTranscript: ignore,
};

describe('media chunk: the WebRTC warm-up, when the room comes first', () => {
  const connections = countMade('RTCPeerConnection');
  const { made } = connections;

  before(() => connections.start());
  after(() => connections.restore());

  it('runs as the call’s room is made, before the join, and not again', async () => {
    const { prepareMedia } = await import('../../../../src/call/media/livekit-media.js');
    const call = new AbortController();
    const room = prepareMedia({ signal: call.signal, callbacks, call: {} });
    expect(made.length, 'the warm-up, as the room is made').to.equal(1);
    expect(made[0]?.connectionState).to.equal('closed');
    await new Promise<void>((resolve) => requestIdleCallback(() => resolve()));
    expect(made.length, 'no second warm-up at the idle moment').to.equal(1);
    // The call ends before its dial answered: the room is let go of, and its join refused.
    call.abort();
    const audio = new AudioContext();
    const microphone = present(audio.createMediaStreamDestination().stream.getAudioTracks()[0], 'a track');
    const joined = room.join({
      microphone,
      serverUrl: 'ws://127.0.0.1:9',
      participantToken: 't',
      muted: false,
    });
    const error = await joined.then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error).to.be.instanceOf(CallError);
    expect((error as CallError).code).to.equal('aborted');
    expect(made.length, 'no peer connection for a join the call’s end refused').to.equal(1);
    microphone.stop();
    await audio.close();
  });
});
