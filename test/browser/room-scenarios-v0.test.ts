// The room suite (room-suite.ts) with the project's livekit-client on the v0 signal path (`/rtc`,
// a publisher and a subscriber peer connection), as an app that sets `singlePeerConnection: false`.
import * as livekit from 'livekit-client';
import { describeRoom } from './room-suite.js';

describeRoom({
  label: 'livekit-client 2.23, v0',
  livekit,
  signalPath: 'v0',
  roomOptions: { singlePeerConnection: false },
  timingRuns: 3,
  // The agent's and the service's own scenarios run once, in room-scenarios.test.ts (room-suite.ts: onceIt).
  clientIndependent: false,
});
