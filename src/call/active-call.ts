// One call's state: a fresh `ActiveCall` per `start()`, so a late result of an old call finds
// nothing. It holds what every call has (its phase, dial, microphone, room, transcript, timers);
// what a feature keeps per call, the feature keeps itself (session-feature.ts).
import type { AgentAudio } from './agent-audio.js';
import type { CallOptions } from './call-options.js';
import { CompanionClient, type DialHandle } from './companion-client.js';
import type { PlannedEnd } from './endings.js';
import type { MediaConnection, ServiceSession } from './media/livekit-media.js';
import { isEnding, isReleased, isUp, stateOf, type CallPhase } from './states.js';
import { Transcript } from './transcript.js';
import type { CallResult } from './types.js';

export interface ActiveCall {
  /** Where the call is; `CallSession.state` is `stateOf(phase)`. */
  phase: CallPhase;
  /** How it ends, once it has begun to (the row of `ENDINGS` the first end path chose). */
  end: PlannedEnd | null;
  /** What `call-ended` carries, from the moment it is known (the getters then answer from it). */
  result: CallResult | null;
  readonly controller: AbortController;
  readonly companion: CompanionClient;
  readonly options: CallOptions;
  readonly idempotencyKey: string;
  readonly transcript: Transcript;
  readonly audio: AgentAudio;
  /** Settles with the dial (or null) once `POST /dials` answered; null before it was sent. */
  dialRequest: Promise<DialHandle | null> | null;
  dial: DialHandle | null;
  /** The dial is known to be over (hung up or read terminal): nothing to hang up any more. */
  dialOver: boolean;
  mic: MediaStreamTrack | null;
  media: MediaConnection | null;
  /** The service's session protocol (GraphQL), when the companion granted it. */
  service: ServiceSession | null;
  /**
   * A call taken over from an earlier page (`persist`): when that page left, and whether it was on
   * hold. Its dial exists already; its setup asks the token route instead of creating one.
   */
  resumed: { leftAt: number; held: boolean; startedAt: number; consentAt?: string } | null;
  /** The room said the agent is on the call (`onAgentJoined`); `in-call` needs it and the room. */
  agentJoined: boolean;
  /** Reading the dial for its transcript: not needed, wanted once the call is up (a service stream is gone), or running. */
  poll: 'off' | 'wanted' | 'running';
  timers: Set<ReturnType<typeof setTimeout>>;
  /** `start()` resolves with it: the call is in `in-call`, or ended. */
  readonly started: Promise<void>;
  resolveStarted(): void;
  readonly ended: Promise<void>;
  resolveEnded(): void;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** A call in `starting`, with its own companion client, transcript and agent audio. */
export function newCall(options: CallOptions, audio: AgentAudio): ActiveCall {
  const started = deferred();
  const ended = deferred();
  return {
    phase: 'starting',
    end: null,
    result: null,
    controller: new AbortController(),
    companion: new CompanionClient(options.endpoint, options.requestTimeoutMs),
    options,
    idempotencyKey: crypto.randomUUID(),
    transcript: new Transcript(),
    audio,
    dialRequest: null,
    dial: null,
    dialOver: false,
    mic: null,
    media: null,
    service: null,
    resumed: null,
    agentJoined: false,
    poll: 'off',
    timers: new Set(),
    started: started.promise,
    resolveStarted: started.resolve,
    ended: ended.promise,
    resolveEnded: ended.resolve,
  };
}

/** The call has begun to end: no step of it runs any more. */
export function isOver(call: ActiveCall): boolean {
  return isEnding(call.phase);
}

/** The `deviceId` of the microphone `call` sends while it holds its media, else undefined. */
export function microphoneInUse(call: ActiveCall | null): string | undefined {
  return call && !isReleased(call.phase) ? call.mic?.getSettings().deviceId : undefined;
}

/** Read through a call so a check after an `await` is not narrowed away by one before it. */
export function hasEnded(call: ActiveCall): boolean {
  return call.phase === 'ended';
}

/** The call is up: in the room with the agent (`in-call`), or getting back to it (`reconnecting`). */
export function isUpPhase(call: ActiveCall): boolean {
  return isUp(stateOf(call.phase));
}

/** Runs `run` after `ms` unless the timers are cleared first (`clearTimers`) or `stillLive` says no. */
export function startTimer(call: ActiveCall, ms: number, run: () => void, stillLive: () => boolean): void {
  const timer = setTimeout(() => {
    call.timers.delete(timer);
    if (stillLive()) run();
  }, ms);
  call.timers.add(timer);
}

export function clearTimers(call: ActiveCall): void {
  for (const timer of call.timers) clearTimeout(timer);
  call.timers.clear();
}

/** Hangs the dial up without waiting: a keepalive request or a beacon, which outlive the element or the page. */
export function hangupNow(call: ActiveCall, how: 'keepalive' | 'beacon'): void {
  if (call.dialOver) return;
  call.dialOver = true;
  const hangup = (dial: DialHandle) =>
    how === 'beacon' ? call.companion.hangupBeacon(dial) : call.companion.hangupKeepalive(dial);
  if (call.dial) hangup(call.dial);
  else void call.dialRequest?.then((dial) => dial && hangup(dial));
}

/** Seconds since `leftAt` (a resumed call's page left), to a tenth. */
export const awaySeconds = (leftAt: number): number => Math.max(0, Math.round((Date.now() - leftAt) / 100) / 10);
