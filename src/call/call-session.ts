// CallSession: one visitor's calls, framework-free. An explicit state machine (states.ts) drives
// microphone -> dial -> token -> media -> agent, and every way a call can end leads through one
// guarded `#end`, so each call that left `idle` fires exactly one `call-ended`.
import { CompanionClient, isTerminal, type DialHandle, type DialRecord } from './companion-client.js';
import { CallError, CompanionError } from './errors.js';
import {
  AgentSpeakingEvent,
  AudioBlockedEvent,
  CallConnectedEvent,
  CallEndedEvent,
  CallErrorEvent,
  CallMuteEvent,
  CallStateEvent,
  CallTranscriptEvent,
  type CallSessionEvents,
} from './events.js';
import type {
  MediaCallbacks,
  MediaConnection,
  MediaDisconnectCause,
  ServiceSession,
  ServiceSessionCallbacks,
} from './media/livekit-media.js';
import { createAudio, requestMicrophone, stopMicrophone, unlockPlayback, type CallHandover } from './gesture.js';
import { missingCapabilities } from './capabilities.js';
import { loadMedia, type MediaModule } from './media-loader.js';
import { isLive, transition } from './states.js';
import { Transcript, type LiveSegment } from './transcript.js';
import type {
  CallErrorInfo,
  CallResult,
  CallSessionLike,
  CallSessionOptions,
  CallState,
  EndReason,
  TranscriptEntry,
  VoiceLevels,
} from './types.js';

export { preloadMedia } from './media-loader.js';
export { MICROPHONE_CONSTRAINTS, type CallHandover } from './gesture.js';

const DEFAULTS = {
  transcript: 'live',
  agentTimeoutMs: 15000,
  liveTranscriptGraceMs: 4000,
  pollIntervalMs: 2000,
  resultTimeoutMs: 5000,
  requestTimeoutMs: 10000,
} as const;

/** How often the final dial record is read while it is not terminal yet. */
const RESULT_POLL_MS = 300;
/** How long a call whose dial the service reports over waits for the room to close it itself. */
const ROOM_LEAVE_GRACE_MS = 300;

/** The service's `systemResultType` as the visitor's `EndReason`. */
export function endReasonFromResult(systemResultType: string | null | undefined, status?: string): EndReason {
  switch (systemResultType) {
    case 'AGENT_HANGUP':
      return 'agent-hangup';
    // For a browser call the counterparty is the visitor.
    case 'USER_HANGUP':
    case 'COUNTERPARTY_HANGUP':
      return 'user-hangup';
    case 'TIMEOUT':
      return 'timeout';
    case 'LONG_SILENCE_HANGUP':
      return 'silence';
    case 'TRANSFERRED':
      return 'transferred';
    case 'RATE_LIMITED':
    case 'BUSY':
      return 'busy';
    case 'CANCELLED':
      return 'cancelled';
    // The agent never picked up: for a browser call that is the agent not joining.
    case 'NO_ANSWER':
      return 'agent-unavailable';
    case 'FAILED':
      return 'failed';
    default:
      break;
  }
  if (!systemResultType) {
    if (status === 'busy') return 'busy';
    if (status === 'canceled' || status === 'cancelled') return 'cancelled';
    if (status === 'no-answer') return 'agent-unavailable';
  }
  return 'failed';
}

/** How a call ends. Every path into `#end` describes itself with one of these. */
interface EndPlan {
  /** The reason, unless `fromRecord` and the dial record is terminal. */
  reason: EndReason;
  /** A terminal dial record's `systemResultType` decides the reason. */
  fromRecord?: boolean;
  /** Hang the dial up (awaited) before leaving the room; otherwise only when it is not over after reading. */
  hangupFirst?: boolean;
  /** Read the dial record: until terminal (bounded by `resultTimeoutMs`), one read, or not at all. */
  read: 'poll' | 'once' | 'none';
  /** Reported as `call-error` and in `CallResult.error` when the reason stays `reason`. */
  error?: CallErrorInfo & { recoverable: boolean };
}

/** Everything one call owns; a fresh one per `start()`, so a late result of an old call finds nothing. */
interface ActiveCall {
  readonly controller: AbortController;
  readonly companion: CompanionClient;
  readonly options: CallSessionOptions;
  readonly idempotencyKey: string;
  readonly transcript: Transcript;
  readonly audio: HTMLAudioElement;
  /** Settles with the dial (or null) once `POST /dials` answered; null before it was sent. */
  dialRequest: Promise<DialHandle | null> | null;
  dial: DialHandle | null;
  /** The dial is known to be over (hung up or read terminal): nothing to hang up any more. */
  dialOver: boolean;
  mic: MediaStreamTrack | null;
  media: MediaConnection | null;
  /** The service's session protocol (GraphQL), when the companion granted it. */
  service: ServiceSession | null;
  /** A service stream (status or live transcript) is gone: the dial is polled once the call is up. */
  needsPolling: boolean;
  agentPresent: boolean;
  timers: Set<ReturnType<typeof setTimeout>>;
  polling: boolean;
  ending: boolean;
  finished: boolean;
  tornDown: boolean;
  plan: EndPlan | null;
  /** `start()` resolves with it: the call is in `in-call`, or ended. */
  readonly started: Promise<void>;
  resolveStarted(): void;
  readonly ended: Promise<void>;
  resolveEnded(): void;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function microphoneReason(error: unknown): EndReason {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  return name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError'
    ? 'microphone-denied'
    : 'microphone-unavailable';
}

function errorInfo(error: unknown): CallErrorInfo & { recoverable: boolean } {
  if (error instanceof CompanionError) {
    const recoverable = error.status === 0 || error.status === 429 || error.status >= 500;
    return { code: error.companionCode, message: error.message, recoverable };
  }
  if (error instanceof CallError) {
    return { code: error.code.replace(/-/g, '_'), message: error.message, recoverable: true };
  }
  return { code: 'internal_error', message: error instanceof Error ? error.message : String(error), recoverable: true };
}

/**
 * The call logic behind `<voice-agent-call>`, usable on its own:
 *
 * ```ts
 * const session = new CallSession({ endpoint: '/api/voice-call', agent: 'default' });
 * session.addEventListener('call-ended', (event) => console.log(event.detail.reason));
 * button.onclick = () => session.start(); // start() from the click: microphone and audio unlock need it
 * ```
 *
 * @fires call-state @fires call-connected @fires call-transcript @fires call-mute
 * @fires call-error @fires call-ended @fires agent-speaking @fires audio-blocked
 */
export class CallSession extends EventTarget implements CallSessionLike {
  #options: CallSessionOptions;
  #state: CallState = 'idle';
  #call: ActiveCall | null = null;
  #muted = false;
  #connectedAt: number | null = null;
  #agentSpeaking = false;
  #audioBlocked = false;
  #result: CallResult | null = null;

  constructor(options: CallSessionOptions) {
    super();
    this.#options = { ...options };
  }

  get state(): CallState {
    return this.#state;
  }

  get dialId(): string | null {
    const call = this.#call;
    if (call && !call.finished) return call.dial?.dialId ?? null;
    return this.#result?.dialId ?? null;
  }

  get muted(): boolean {
    return this.#muted;
  }

  get transcript(): TranscriptEntry[] {
    const call = this.#call;
    if (call && !call.finished) return call.transcript.entries;
    return this.#result ? this.#result.transcript.map((entry) => ({ ...entry })) : [];
  }

  get connectedAt(): number | null {
    return this.#connectedAt;
  }

  get agentSpeaking(): boolean {
    return this.#agentSpeaking;
  }

  /**
   * How loud the agent and the visitor are now (0…1), from their tracks, while the media is up
   * (`in-call`, `reconnecting`); zeros otherwise, and 0 for a muted visitor. Read it once per
   * animation frame (the element's voice presence does); no event fires per level change.
   */
  get audioLevels(): VoiceLevels {
    const media = this.#call?.media;
    if (!media || (this.state !== 'in-call' && this.state !== 'reconnecting')) return { agent: 0, visitor: 0 };
    const levels = media.levels();
    return this.#muted ? { agent: levels.agent, visitor: 0 } : levels;
  }

  get audioBlocked(): boolean {
    return this.#audioBlocked;
  }

  get result(): CallResult | null {
    return this.#result;
  }

  /** The `<audio>` element playing the agent, while a call has one (for level meters). */
  get audioElement(): HTMLAudioElement | null {
    const call = this.#call;
    return call && !call.tornDown ? call.audio : null;
  }

  configure(options: Partial<CallSessionOptions>): void {
    this.#options = { ...this.#options, ...options };
  }

  /**
   * Starts a call; call it from the click. `handover` is for a click that happened before this
   * session existed (the element's call logic loads lazily): the microphone request and an audio
   * element made inside that click with `captureGesture()`, used instead of asking again here.
   */
  start(handover: CallHandover = {}): Promise<void> {
    const current = this.#call;
    if (this.#state !== 'idle' && this.#state !== 'ended') return current ? current.started : Promise.resolve();

    // What a call needs, before anything is spent: no microphone prompt and no dial in a browser
    // that could not hold the call. Otherwise permission first, inside the click: the microphone
    // before anything else exists.
    const missing = missingCapabilities();
    const microphone = missing.length > 0 ? null : (handover.microphone ?? requestMicrophone());

    const call = this.#newCall(handover.audio);
    this.#call = call;
    this.#connectedAt = null;
    this.#setAudioBlocked(false);
    this.#setState('starting');
    if (!microphone) {
      stopMicrophone(handover.microphone);
      const message = `this browser cannot place voice calls: it lacks ${missing.join(', ')}`;
      void this.#end(call, {
        reason: 'unsupported-browser',
        read: 'none',
        error: { code: 'unsupported_browser', message, recoverable: false, missing },
      });
      return call.started;
    }
    // Also inside the click: an element that played from a gesture may play the agent later.
    if (!handover.audio) unlockPlayback(call.audio);
    window.addEventListener('pagehide', this.#onPageHide);
    // livekit-client loads while the microphone prompt and the dial are pending, not after.
    void this.#run(call, microphone, loadMedia());
    return call.started;
  }

  hangup(): Promise<void> {
    const call = this.#call;
    if (!call || call.finished) return Promise.resolve();
    if (call.ending) return call.ended;
    return this.#end(call, { reason: 'user-hangup', hangupFirst: true, read: 'poll' });
  }

  /**
   * Mutes or unmutes the microphone of the current call, or of the next one when set between
   * calls. A call's mute ends with it: each call that ends muted is unmuted (`call-mute`) before `ended`.
   */
  setMuted(muted: boolean): void {
    if (muted === this.#muted) return;
    this.#muted = muted;
    const call = this.#call;
    if (call && !call.tornDown) {
      if (call.mic) call.mic.enabled = !muted;
      call.media?.setMuted(muted).catch(() => undefined);
    }
    this.#emit(new CallMuteEvent({ muted }));
  }

  async unlockAudio(): Promise<void> {
    const call = this.#call;
    if (!call || call.tornDown) return;
    await this.#play(call);
  }

  abandon(reason: 'element-removed' | 'page-unload'): void {
    const call = this.#call;
    if (!call || call.finished) return;
    const planned = call.plan;
    if (!call.ending) {
      call.ending = true;
      this.#setState('ending');
    }
    call.controller.abort();
    if (!call.dialOver) {
      const hangup = (dial: DialHandle) =>
        reason === 'page-unload' ? call.companion.hangupBeacon(dial) : call.companion.hangupKeepalive(dial);
      if (call.dial) hangup(call.dial);
      else void call.dialRequest?.then((dial) => dial && hangup(dial));
      call.dialOver = true;
    }
    void this.#teardown(call);
    // A call already ending for a known reason keeps it; otherwise the abandon is the reason.
    const endReason = planned && !planned.fromRecord ? planned.reason : reason;
    this.#finish(call, this.#resultOf(call, endReason, null, planned?.error));
  }

  override addEventListener<K extends keyof CallSessionEvents>(
    type: K,
    listener: ((event: CallSessionEvents[K]) => void) | { handleEvent(event: CallSessionEvents[K]): void } | null,
    options?: AddEventListenerOptions | boolean,
  ): void;
  override addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: AddEventListenerOptions | boolean,
  ): void;
  override addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: AddEventListenerOptions | boolean,
  ): void {
    super.addEventListener(type, listener, options);
  }

  override removeEventListener<K extends keyof CallSessionEvents>(
    type: K,
    listener: ((event: CallSessionEvents[K]) => void) | { handleEvent(event: CallSessionEvents[K]): void } | null,
    options?: EventListenerOptions | boolean,
  ): void;
  override removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: EventListenerOptions | boolean,
  ): void;
  override removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: EventListenerOptions | boolean,
  ): void {
    super.removeEventListener(type, listener, options);
  }

  // ---- the call's steps ----

  #newCall(handedOver?: HTMLAudioElement): ActiveCall {
    const options = { ...this.#options };
    const started = deferred();
    const ended = deferred();
    const audio = handedOver ?? createAudio(options.audioContainer ?? document.body);
    return {
      controller: new AbortController(),
      companion: new CompanionClient(options.endpoint, options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs),
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
      needsPolling: false,
      agentPresent: false,
      timers: new Set(),
      polling: false,
      ending: false,
      finished: false,
      tornDown: false,
      plan: null,
      started: started.promise,
      resolveStarted: started.resolve,
      ended: ended.promise,
      resolveEnded: ended.resolve,
    };
  }

  async #run(call: ActiveCall, microphone: Promise<MediaStream>, mediaModule: Promise<MediaModule>): Promise<void> {
    const { signal } = call.controller;
    let stream: MediaStream;
    try {
      stream = await microphone;
    } catch (error) {
      if (call.ending) return;
      const reason = microphoneReason(error);
      const message = error instanceof Error && error.message ? error.message : reason.replace('-', ' ');
      await this.#end(call, {
        reason,
        read: 'none',
        error: { code: reason.replace(/-/g, '_'), message, recoverable: reason === 'microphone-unavailable' },
      });
      return;
    }
    const [mic, ...extra] = stream.getAudioTracks();
    for (const track of [...extra, ...stream.getVideoTracks()]) track.stop();
    if (call.ending || !mic) {
      mic?.stop();
      if (!call.ending) {
        await this.#end(call, {
          reason: 'microphone-unavailable',
          read: 'none',
          error: { code: 'microphone_unavailable', message: 'no microphone track', recoverable: true },
        });
      }
      return;
    }
    call.mic = mic;
    mic.enabled = !this.#muted;
    mic.addEventListener('ended', this.#onMicrophoneEnded);

    try {
      // Not tied to the call's signal: once sent, a dial may exist, and only its answer lets us hang it up.
      const dialRequest = call.companion
        .createDial(this.#dialBody(call), call.idempotencyKey, new AbortController().signal)
        .then((created) => {
          call.dial = created;
          return created;
        });
      call.dialRequest = dialRequest.catch(() => null);
      const dial = await dialRequest;
      if (call.ending) return;
      const token = await call.companion.token(dial, signal);
      if (call.ending) return;
      this.#setState('connecting');
      const { connectMedia, openServiceSession } = await mediaModule.catch((error: unknown) => {
        throw new CallError('media-failed', 'could not load the media library (livekit-client)', { cause: error });
      });
      if (call.ending) return;
      if (token.session) {
        // Subscribed before joining the room, as the service's own client does; the service says
        // GLOBAL_CALL_CONNECT once both hold, and only then is startDialSession sent.
        const mode = call.options.transcript ?? DEFAULTS.transcript;
        call.service = openServiceSession({
          ...token.session,
          dialId: dial.dialId,
          transcript: mode === 'live',
          requestTimeoutMs: call.options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
          callbacks: this.#serviceCallbacks(call),
        });
      }
      const mediaOptions = {
        serverUrl: token.serverUrl,
        participantToken: token.participantToken,
        microphone: mic,
        muted: this.#muted,
        signal,
        callbacks: this.#mediaCallbacks(call),
        ...(token.iceServers ? { iceServers: token.iceServers } : {}),
      };
      const { maxReconnectAttempts, mediaConnectTimeoutMs, debug } = call.options;
      const media = await connectMedia({
        ...mediaOptions,
        debug: debug ?? false,
        ...(maxReconnectAttempts === undefined ? {} : { maxReconnectAttempts }),
        ...(mediaConnectTimeoutMs === undefined ? {} : { connectTimeoutMs: mediaConnectTimeoutMs }),
      });
      if (call.ending) {
        void media.disconnect();
        return;
      }
      call.media = media;
      call.service?.roomJoined();
      // A mute while the room was connecting changed only the raw track.
      await media.setMuted(this.#muted);
      if (call.ending) return;
      // The agent gets `agentTimeoutMs` from the room being up. Joining the room has
      // livekit-client's own timeouts (a failed join ends as setup-failed / media_failed), so the
      // two never race to name the end.
      this.#startTimer(call, call.options.agentTimeoutMs ?? DEFAULTS.agentTimeoutMs, () =>
        this.#end(call, { reason: 'agent-unavailable', hangupFirst: true, read: 'poll' }),
      );
      this.#maybeConnected(call);
    } catch (error) {
      if (call.ending) return;
      const info = errorInfo(error);
      const busy = error instanceof CompanionError && error.status === 429;
      await this.#end(call, {
        reason: busy ? 'busy' : 'setup-failed',
        // A dial that is already over (e.g. the service at capacity) says why in its record.
        fromRecord: true,
        read: 'once',
        error: info,
      });
    }
  }

  #dialBody(call: ActiveCall): { agent?: string; inputs?: Record<string, string> } {
    const body: { agent?: string; inputs?: Record<string, string> } = {};
    if (call.options.agent) body.agent = call.options.agent;
    if (call.options.inputs) body.inputs = call.options.inputs;
    return body;
  }

  #mediaCallbacks(call: ActiveCall): MediaCallbacks {
    const current = () => this.#call === call && !call.ending;
    return {
      onAgentJoined: () => {
        if (!current()) return;
        call.agentPresent = true;
        this.#maybeConnected(call);
      },
      onAgentLeft: () => {
        if (!current()) return;
        call.agentPresent = false;
        void this.#end(call, { reason: 'agent-hangup', fromRecord: true, read: 'poll' });
      },
      onAgentAudio: (track) => {
        if (!current()) return;
        call.audio.srcObject = track ? new MediaStream([track]) : null;
        if (track) void this.#play(call);
      },
      onAgentSpeaking: (speaking) => {
        if (current()) this.#setAgentSpeaking(speaking);
      },
      onReconnecting: () => {
        if (current() && this.#state === 'in-call') this.#setState('reconnecting');
      },
      onReconnected: () => {
        if (current() && this.#state === 'reconnecting') this.#setState('in-call');
      },
      onDisconnected: (cause: MediaDisconnectCause, detail: string) => {
        if (!current() || cause === 'client') return;
        // Still joining: the join itself fails next, and ends the call as setup-failed media_failed.
        if (!call.media) return;
        if (cause === 'server') {
          void this.#end(call, { reason: 'failed', fromRecord: true, read: 'poll' });
        } else if (this.#connectedAt === null) {
          // Lost before the call was up: a dial the service already ended says why (e.g. busy).
          void this.#end(call, {
            reason: 'network-lost',
            fromRecord: true,
            read: 'once',
            error: { code: 'network_lost', message: `the media connection was lost (${detail})`, recoverable: true },
          });
        } else {
          void this.#end(call, {
            reason: 'network-lost',
            hangupFirst: true,
            read: 'poll',
            error: { code: 'network_lost', message: `the media connection was lost (${detail})`, recoverable: true },
          });
        }
      },
      onTranscript: (segment: LiveSegment) => {
        if (!current() || call.options.transcript === 'off') return;
        const changed = call.transcript.applySegment(segment);
        if (changed) this.#emit(new CallTranscriptEvent({ entries: call.transcript.entries, changed }));
      },
    };
  }

  #serviceCallbacks(call: ActiveCall): ServiceSessionCallbacks {
    const current = () => this.#call === call && !call.ending;
    return {
      onDialEnded: (status, systemResultType) => {
        if (!current()) return;
        const end = () =>
          void this.#end(call, {
            reason: endReasonFromResult(systemResultType, status),
            fromRecord: true,
            read: 'poll',
          });
        // The service's status (GraphQL) can outrun the room's own LeaveRequest (the signal socket):
        // while the room is up it gets a moment to close the call itself, so the room goes away as
        // it says rather than by our leaving. Its leave ends the call first and clears this timer.
        if (call.media) this.#startTimer(call, ROOM_LEAVE_GRACE_MS, end);
        else end();
      },
      onStartFailed: (detail) => {
        if (!current()) return;
        // Without startDialSession the agent never starts: the call was never set up, whether or
        // not an agent is already in the room. A silent call helps nobody.
        void this.#end(call, {
          reason: 'setup-failed',
          hangupFirst: true,
          read: 'poll',
          error: {
            code: 'session_start_failed',
            message: `the calling service did not start the call (${detail})`,
            recoverable: true,
          },
        });
      },
      onTranscript: (segment) => {
        if (!current()) return;
        const changed = call.transcript.applySegment(segment);
        if (changed) this.#emit(new CallTranscriptEvent({ entries: call.transcript.entries, changed }));
      },
      onTranscriptLost: () => this.#needPolling(call),
      onStatusLost: () => this.#needPolling(call),
    };
  }

  /** A service stream is gone: the companion's dial record takes over (transcript and end), now or once in the call. */
  #needPolling(call: ActiveCall): void {
    if (this.#call !== call || call.ending) return;
    call.needsPolling = true;
    if (this.#connectedAt !== null) void this.#pollTranscript(call);
  }

  /** `in-call` once the room is connected and the agent is in it, whichever came last. */
  #maybeConnected(call: ActiveCall): void {
    if (this.#call !== call || call.ending || this.#state !== 'connecting') return;
    if (!call.media || !call.agentPresent || !call.dial) return;
    this.#clearTimers(call);
    this.#connectedAt = Date.now();
    this.#setState('in-call');
    this.#emit(new CallConnectedEvent({ dialId: call.dial.dialId }));
    call.resolveStarted();
    const mode = call.options.transcript ?? DEFAULTS.transcript;
    if (mode === 'poll' || call.needsPolling) {
      void this.#pollTranscript(call);
    } else if (mode === 'live') {
      this.#startTimer(call, call.options.liveTranscriptGraceMs ?? DEFAULTS.liveTranscriptGraceMs, () => {
        if (!call.transcript.hasLiveSegments) void this.#pollTranscript(call);
      });
    }
  }

  /** Reads the dial every `pollIntervalMs` and merges its transcript; a terminal dial ends the call. */
  async #pollTranscript(call: ActiveCall): Promise<void> {
    const dial = call.dial;
    if (call.polling || !dial) return;
    call.polling = true;
    const { signal } = call.controller;
    const interval = call.options.pollIntervalMs ?? DEFAULTS.pollIntervalMs;
    while (!call.ending) {
      try {
        const record = await call.companion.readDial(dial, signal);
        if (call.ending) return;
        const changedEntries = call.transcript.mergeService(record.transcript);
        if (call.options.transcript !== 'off') {
          for (const changed of changedEntries)
            this.#emit(new CallTranscriptEvent({ entries: call.transcript.entries, changed }));
        }
        if (isTerminal(record)) {
          void this.#end(call, { reason: 'failed', fromRecord: true, read: 'poll' });
          return;
        }
      } catch {
        if (call.ending) return;
      }
      try {
        await delay(interval, signal);
      } catch {
        return;
      }
    }
  }

  /**
   * The one way a call ends. Guarded: a second path finds `ending` set and waits for the first.
   * Order: state `ending`, steps aborted, dial hung up (when asked first), room left and
   * everything torn down, dial record read, then `ended` and one `call-ended`.
   */
  async #end(call: ActiveCall, plan: EndPlan): Promise<void> {
    if (call.ending) return call.ended;
    call.ending = true;
    call.plan = plan;
    this.#setState('ending');
    call.controller.abort();
    this.#clearTimers(call);

    const dial = call.dial ?? (call.dialRequest ? await call.dialRequest : null);
    if (call.finished) return call.ended;
    const requestTimeoutMs = call.options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs;
    if (plan.hangupFirst && dial && !call.dialOver) {
      try {
        await call.companion.hangup(dial, AbortSignal.timeout(requestTimeoutMs));
        call.dialOver = true;
      } catch {
        // Read below; a dial still live afterwards gets a keepalive hangup.
      }
    }
    await this.#teardown(call);
    if (call.finished) return call.ended;

    let record: DialRecord | null = null;
    if (dial && plan.read !== 'none') record = await this.#readRecord(call, dial, plan.read);
    if (call.finished) return call.ended;
    if (record && isTerminal(record)) call.dialOver = true;
    if (dial && !call.dialOver) {
      call.companion.hangupKeepalive(dial);
      call.dialOver = true;
    }
    // A join that failed after the room saw us leave reads USER_HANGUP; the visitor did not hang up.
    const ownLeave = plan.reason === 'setup-failed' && record?.systemResultType === 'USER_HANGUP';
    const fromRecord = plan.fromRecord && record && isTerminal(record) && !ownLeave;
    const reason = fromRecord ? endReasonFromResult(record!.systemResultType, record!.status) : plan.reason;
    const error = reason === plan.reason ? plan.error : undefined;
    if (error) this.#emit(new CallErrorEvent(error));
    this.#finish(call, this.#resultOf(call, reason, record, error));
    return call.ended;
  }

  async #readRecord(call: ActiveCall, dial: DialHandle, mode: 'poll' | 'once'): Promise<DialRecord | null> {
    const timeoutMs = call.options.resultTimeoutMs ?? DEFAULTS.resultTimeoutMs;
    const signal = AbortSignal.timeout(timeoutMs);
    const deadline = Date.now() + timeoutMs;
    let record: DialRecord | null = null;
    for (;;) {
      try {
        record = await call.companion.readDial(dial, signal);
      } catch {
        if (signal.aborted) break;
      }
      if (call.finished || mode === 'once' || (record && isTerminal(record))) break;
      if (Date.now() + RESULT_POLL_MS >= deadline) break;
      try {
        await delay(RESULT_POLL_MS, signal);
      } catch {
        break;
      }
    }
    return record;
  }

  #resultOf(
    call: ActiveCall,
    reason: EndReason,
    record: DialRecord | null,
    error: CallErrorInfo | undefined,
  ): CallResult {
    const result: CallResult = {
      dialId: call.dial?.dialId ?? null,
      reason,
      transcript: call.transcript.result(record?.transcript),
    };
    if (record) {
      result.status = record.status;
      result.systemResultType = record.systemResultType;
      result.durationSeconds = record.durationSeconds;
      result.aiDurationSeconds = record.aiDurationSeconds;
      result.startedAt = record.startedAt;
      result.endedAt = record.endedAt;
      result.aiResult = record.aiResult ?? null;
    }
    if (error) {
      result.error = { code: error.code, message: error.message };
      if (error.missing) result.error.missing = [...error.missing];
    }
    const nonSpeechLines = call.service?.nonSpeechLines;
    if (nonSpeechLines?.length) result.nonSpeechLines = nonSpeechLines;
    return result;
  }

  #finish(call: ActiveCall, result: CallResult): void {
    if (call.finished) return;
    call.finished = true;
    this.#result = result;
    // A mute belongs to its call: "Call again" must not start muted with nothing saying so (with
    // an agent that hangs up after silence, the next call would end "after silence"). A mute set
    // between calls still carries into the next one.
    if (this.#muted) {
      this.#muted = false;
      this.#emit(new CallMuteEvent({ muted: false }));
    }
    this.#setState('ended');
    this.#emit(new CallEndedEvent(result));
    call.resolveStarted();
    call.resolveEnded();
  }

  /** Removes everything the call added: listeners, timers, microphone, audio element, room. */
  #teardown(call: ActiveCall): Promise<void> {
    if (call.tornDown) return Promise.resolve();
    call.tornDown = true;
    this.#clearTimers(call);
    window.removeEventListener('pagehide', this.#onPageHide);
    call.service?.close();
    if (call.mic) {
      call.mic.removeEventListener('ended', this.#onMicrophoneEnded);
      call.mic.stop();
    }
    call.audio.pause();
    call.audio.srcObject = null;
    call.audio.remove();
    this.#setAgentSpeaking(false);
    this.#setAudioBlocked(false);
    const media = call.media;
    call.media = null;
    return media ? media.disconnect().catch(() => undefined) : Promise.resolve();
  }

  // ---- audio ----

  async #play(call: ActiveCall): Promise<void> {
    try {
      await call.audio.play();
      if (this.#call === call && !call.tornDown) this.#setAudioBlocked(false);
    } catch (error) {
      if (this.#call !== call || call.tornDown) return;
      if (error instanceof DOMException && error.name === 'NotAllowedError') this.#setAudioBlocked(true);
    }
  }

  // ---- small helpers ----

  #startTimer(call: ActiveCall, ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      call.timers.delete(timer);
      if (this.#call === call && !call.ending) run();
    }, ms);
    call.timers.add(timer);
  }

  #clearTimers(call: ActiveCall): void {
    for (const timer of call.timers) clearTimeout(timer);
    call.timers.clear();
  }

  #setState(to: CallState): void {
    const previous = this.#state;
    this.#state = transition(previous, to);
    this.#emit(new CallStateEvent({ state: to, previous }));
  }

  #setAgentSpeaking(speaking: boolean): void {
    if (speaking === this.#agentSpeaking) return;
    this.#agentSpeaking = speaking;
    this.#emit(new AgentSpeakingEvent({ speaking }));
  }

  #setAudioBlocked(blocked: boolean): void {
    if (blocked === this.#audioBlocked) return;
    this.#audioBlocked = blocked;
    this.#emit(new AudioBlockedEvent({ blocked }));
  }

  #emit(event: Event): void {
    this.dispatchEvent(event);
  }

  readonly #onPageHide = (event: PageTransitionEvent): void => {
    if (!event.persisted && this.#call && isLive(this.#state)) this.abandon('page-unload');
  };

  readonly #onMicrophoneEnded = (): void => {
    const call = this.#call;
    if (!call || call.ending) return;
    void this.#end(call, {
      reason: 'microphone-unavailable',
      hangupFirst: true,
      read: 'poll',
      error: {
        code: 'microphone_unavailable',
        message: 'the microphone stopped (unplugged or taken by another app)',
        recoverable: true,
      },
    });
  };
}
