// The media chunk, once loaded ahead of a call (on intent), makes one RTCPeerConnection in idle time
// and closes it, so the call's own connection is not the page's first (the first costs the browser
// more). Loaded here as the element's intent prefetch loads it; the browser's RTCPeerConnection is
// counted, not replaced.
import { expect } from '@open-wc/testing';
import { countMade } from '../../../support/made.js';

describe('media chunk: the WebRTC warm-up', () => {
  const connections = countMade('RTCPeerConnection');
  const { made } = connections;

  before(() => connections.start());
  after(() => connections.restore());

  it('makes one peer connection in idle time after the chunk loads, and closes it', async () => {
    await import('../../../../src/call/media/livekit-media.js');
    expect(made.length, 'nothing made while the chunk evaluates').to.equal(0);
    // Idle callbacks run in the order they were asked for: this one runs after the chunk's.
    await new Promise<void>((resolve) => requestIdleCallback(() => resolve()));
    expect(made.length).to.equal(1);
    expect(made[0]?.signalingState).to.equal('closed');
    expect(made[0]?.connectionState).to.equal('closed');
  });
});
