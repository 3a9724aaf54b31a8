// The room suite (room-suite.ts) with livekit-client 2.15.8 (the devDependency livekit-client-2-15),
// which speaks only v0 (`/rtc`, two peer connections; it has no `singlePeerConnection` option), as
// apps pinned to 2.15 (among them the service's own published web client) join.
import * as livekit from 'livekit-client-2-15';
import { describeRoom, type LivekitClient } from './room-suite.js';

describeRoom({
  label: 'livekit-client 2.15, v0',
  // The same API the suite uses; its types are those of its own @livekit/protocol copy.
  livekit: livekit as unknown as LivekitClient,
  signalPath: 'v0',
  timingRuns: 3,
  // The agent's and the service's own scenarios run once, in room-scenarios.test.ts (room-suite.ts: onceIt).
  clientIndependent: false,
});
