// The room suite (room-suite.ts) with the project's livekit-client on its default signal path, v1
// (`/rtc/v1`, one peer connection, the offer with the join).
import * as livekit from 'livekit-client';
import { describeRoom } from './room-suite.js';

describeRoom({
  label: 'livekit-client 2.23, v1',
  livekit,
  signalPath: 'v1',
  timingRuns: 10,
  // The run Firefox makes too: the scenarios that are the same whatever the client run here only.
  clientIndependent: true,
});
