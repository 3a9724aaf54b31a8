// What the media room and the service's session say during a call, and what the call does about
// it: each callback runs only while its call is the current one and has not begun to end.
import type { ActiveCall } from './active-call.js';
import type { CallHost } from './call-host.js';
import { endReasonFromResult } from './endings.js';
import { setupFailure } from './error-codes.js';
import { CallError } from './errors.js';
import type { MediaCallbacks, MediaDisconnectCause, ServiceSessionCallbacks } from './media/livekit-media.js';
import type { LiveSegment } from './transcript.js';

/** How long a call whose dial the service reports over waits for the room to close it itself. */
const ROOM_LEAVE_GRACE_MS = 300;
/**
 * How long a join still under way waits for its own failure once the service saw the caller leave
 * the room: livekit-client leaves (closing the signal socket) before its `connect()` rejects, and
 * the service's USER_HANGUP can arrive in between.
 */
const OWN_LEAVE_GRACE_MS = 5000;

function whileLive(host: CallHost, call: ActiveCall) {
  return <A extends unknown[]>(handle: (...args: A) => void): ((...args: A) => void) =>
    (...args) => {
      if (host.isLive(call)) handle(...args);
    };
}

export function mediaCallbacks(host: CallHost, call: ActiveCall): MediaCallbacks {
  const live = whileLive(host, call);
  return {
    onAgentJoined: live(() => {
      call.agentJoined = true;
      for (const feature of host.features) feature.agentJoined?.(call);
      host.maybeConnected(call);
    }),
    onAgentLeft: live(() => void host.end(call, 'agent-left')),
    onAgentAudio: live((track: MediaStreamTrack | null) => call.audio.play(track)),
    onAgentSpeaking: live((speaking: boolean) => {
      host.setAgentSpeaking(speaking);
      for (const feature of host.features) feature.agentSpeaking?.(call, speaking);
    }),
    onReconnecting: live(() => {
      for (const feature of host.features) feature.reconnecting?.(call);
      if (call.phase === 'in-call') host.enter(call, 'reconnecting');
    }),
    onReconnected: live(() => {
      if (call.phase === 'reconnecting') host.enter(call, 'in-call');
    }),
    onDisconnected: live((cause: MediaDisconnectCause, detail: string) => {
      // We left ourselves; or still joining: the join itself fails next, as setup-failed media_failed.
      if (cause === 'client' || !call.media) return;
      if (cause === 'moved') {
        // The same caller joined again elsewhere (a duplicated tab's rejoin): the newer join wins,
        // and the dial is its to end. This side lets go quietly, hanging nothing up.
        call.dialOver = true;
        void host.end(call, 'moved');
        return;
      }
      if (cause === 'server') {
        void host.end(call, 'room-closed');
        return;
      }
      // Lost before the call was up: a dial the service already ended says why (e.g. busy).
      const ending = host.connectedAt === null ? 'network-lost-joining' : 'network-lost';
      void host.end(call, ending, { message: `the media connection was lost (${detail})` });
    }),
    onTranscript: live((segment: LiveSegment) => {
      if (call.options.transcript !== 'off') host.feed.apply(call, segment);
    }),
  };
}

export function serviceCallbacks(host: CallHost, call: ActiveCall): ServiceSessionCallbacks {
  const live = whileLive(host, call);
  return {
    onDialEnded: live((status: string, systemResultType: string | null) => {
      const end = () => void host.end(call, 'dial-ended', { reason: endReasonFromResult(systemResultType, status) });
      const leftWhileJoining = () => {
        if (call.media) return end();
        const error = new CallError('media_failed', 'the media room was left while the call was joining it');
        void host.end(call, 'setup-failed', setupFailure(error));
      };
      // The service's status (GraphQL) can outrun the room's own LeaveRequest (the signal socket):
      // while the room is up it gets a moment to close the call itself, so the room goes away as
      // it says rather than by our leaving. Its leave ends the call first and clears this timer.
      if (call.media) host.startTimer(call, ROOM_LEAVE_GRACE_MS, end);
      // Still joining, and the service saw the caller leave the room: that was the join giving up
      // (the visitor has no room to hang up in yet, and their own hang-up ends the call first). The
      // join's failure names the end, as setup-failed media_failed; the record's USER_HANGUP is our leave.
      else if (systemResultType === 'USER_HANGUP') host.startTimer(call, OWN_LEAVE_GRACE_MS, leftWhileJoining);
      else end();
    }),
    // Without startDialSession the agent never starts: the call was never set up, whether or
    // not an agent is already in the room. A silent call helps nobody.
    onStartFailed: live((detail: string) => {
      const message = `the calling service did not start the call (${detail})`;
      void host.end(call, 'session-start-failed', { message });
    }),
    onTranscript: live((segment: LiveSegment) => host.feed.apply(call, segment)),
    onTranscriptLost: live(() => host.feed.lost(call)),
    onStatusLost: live(() => host.feed.lost(call)),
  };
}
