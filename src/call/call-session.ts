// CallSession: one visitor's calls, framework-free. Each call is in one `phase` (states.ts), from
// which the public `state` derives; its steps run microphone -> dial -> token -> media -> agent,
// and every way it can end is a row of `ENDINGS` (endings.ts) that the one guarded `#end`
// follows, so each call that left `idle` fires exactly one `call-ended`.
import { AgentAudio } from './agent-audio.js';
import { callOptions, type CallOptions } from './call-options.js';
import { missingCapabilities } from './capabilities.js';
import { CompanionClient, isTerminal, type CreatedDial, type DialHandle, type DialRecord } from './companion-client.js';
import { pollDial, readRecord } from './dial-record.js';
import {
  callResult,
  endReasonFromResult,
  microphoneEnding,
  planEnd,
  settle,
  type EndDetail,
  type Ending,
  type PlannedEnd,
} from './endings.js';
import { canChooseSpeaker, deviceLabel, listDevices, openMicrophone, readRemembered, remember } from './devices.js';
import { setupFailure, type ReportedError } from './error-codes.js';
import { CallError, CompanionError } from './errors.js';
import {
  AgentSpeakingEvent,
  AudioBlockedEvent,
  CallConnectedEvent,
  CallDeviceEvent,
  CallDtmfEvent,
  CallEndedEvent,
  CallErrorEvent,
  CallHoldEvent,
  CallMuteEvent,
  CallStateEvent,
  CallTranscriptEvent,
  CallEventTarget,
} from './events.js';
import { createAudio, requestMicrophone, stopMicrophone, unlockPlayback, type CallHandover } from './gesture.js';
import { joinMedia } from './join-media.js';
import { microphoneGranted } from './microphone-permission.js';
import type {
  MediaCallbacks,
  MediaConnection,
  MediaDisconnectCause,
  ServiceSession,
  ServiceSessionCallbacks,
} from './media/livekit-media.js';
import { loadMedia, type MediaModule } from './media-loader.js';
import { ScreenWake } from './screen-wake.js';
import { isEnding, isLive, isReleased, stateOf, transition, type CallPhase } from './states.js';
import { Transcript, type LiveSegment } from './transcript.js';
import { isDtmfDigits } from '../wire/dtmf.js';
import type {
  CallDevice,
  CallRating,
  CallResult,
  CallSessionLike,
  CallSessionOptions,
  CallState,
  TranscriptEntry,
  VoiceLevels,
} from './types.js';

export { preloadMedia } from './media-loader.js';
export { MICROPHONE_CONSTRAINTS, type CallHandover } from './gesture.js';

/** How long a call whose dial the service reports over waits for the room to close it itself. */
const ROOM_LEAVE_GRACE_MS = 300;

/** What `sendDigits` takes: the keypad's twelve keys, as the service's own client sends them. */

/** Everything one call owns; a fresh one per `start()`, so a late result of an old call finds nothing. */
interface ActiveCall {
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
  /** Microphone changes run one after another: the last one asked for is the one in use. */
  micChange: Promise<void>;
  /** Keypad digits go out one after another, in the order asked, across `sendDigits` calls. */
  dtmf: Promise<void>;
  media: MediaConnection | null;
  /** The service's session protocol (GraphQL), when the companion granted it. */
  service: ServiceSession | null;
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

function isOver(call: ActiveCall): boolean {
  return isEnding(call.phase);
}

/** Read through a call so a check after an `await` is not narrowed away by one before it. */
function hasEnded(call: ActiveCall): boolean {
  return call.phase === 'ended';
}

/** The page's live calls among sessions with `onePerPage` (each between its start and its end): at most one. */
const liveSessions = new Set<CallSession>();

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
 * @fires call-hold @fires call-dtmf @fires call-device
 * @fires call-error @fires call-ended @fires agent-speaking @fires audio-blocked
 */
export class CallSession extends CallEventTarget implements CallSessionLike {
  #options: CallSessionOptions;
  #call: ActiveCall | null = null;
  #muted = false;
  #held = false;
  /** The microphone and speaker the visitor chose (null: the browser's default). */
  #microphoneId: string | null = null;
  #speakerId: string | null = null;
  /** The stored choice was read (`rememberDevices`), once per session. */
  #rememberedRead = false;
  readonly #wake = new ScreenWake();
  #connectedAt: number | null = null;
  #agentSpeaking = false;
  #audioBlocked = false;
  #result: CallResult | null = null;

  constructor(options: CallSessionOptions) {
    super();
    this.#options = { ...options };
  }

  get state(): CallState {
    return this.#call ? stateOf(this.#call.phase) : 'idle';
  }

  get dialId(): string | null {
    const call = this.#call;
    if (call && !call.result) return call.dial?.dialId ?? null;
    return this.#result?.dialId ?? null;
  }

  get muted(): boolean {
    return this.#muted;
  }

  /** The AI is paused (`setHeld(true)`); a hold ends with its call. */
  get held(): boolean {
    return this.#held;
  }

  /** The current call is up and has the service's session, through which `pauseAI` goes. */
  get canHold(): boolean {
    const call = this.#call;
    return call !== null && call.service !== null && (call.phase === 'in-call' || call.phase === 'reconnecting');
  }

  /**
   * The microphone in use during a call (its `deviceId` as the browser reports it), otherwise the
   * one chosen for the next call; null for the browser's default.
   */
  get microphoneId(): string | null {
    const call = this.#call;
    const mic = call && !isReleased(call.phase) ? call.mic : null;
    return mic?.getSettings().deviceId ?? this.#microphoneId;
  }

  /** The speaker chosen for the agent's voice (`setSpeaker`); null for the browser's default. */
  get speakerId(): string | null {
    return this.#speakerId;
  }

  get transcript(): TranscriptEntry[] {
    const call = this.#call;
    if (call && !call.result) return call.transcript.entries;
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
    return call && !isReleased(call.phase) ? call.audio.element : null;
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
    if (current && current.phase !== 'ended') return current.started;

    // What a call needs, before anything is spent: no microphone prompt and no dial in a browser
    // that could not hold the call, nor while another call of this page is live (one live call
    // per page). Otherwise permission first, inside the click: the microphone before anything else exists.
    const missing = missingCapabilities();
    const onePerPage = this.#options.onePerPage === true;
    const other = onePerPage && [...liveSessions].some((session) => session !== this);
    const microphone = missing.length > 0 || other ? null : (handover.microphone ?? requestMicrophone());

    const call = this.#newCall(handover.audio);
    const previous = this.state;
    transition(previous, 'starting');
    this.#call = call;
    this.#connectedAt = null;
    this.#setAudioBlocked(false);
    this.#announce(previous);
    if (!microphone && other) {
      stopMicrophone(handover.microphone);
      const message =
        'another call is in progress on this page (one live call per page): hang that one up before starting this one';
      void this.#end(call, 'call-in-progress', { message });
      return call.started;
    }
    if (!microphone) {
      stopMicrophone(handover.microphone);
      const message = `this browser cannot place voice calls: it lacks ${missing.join(', ')}`;
      void this.#end(call, 'unsupported-browser', { message, missing });
      return call.started;
    }
    if (onePerPage) liveSessions.add(this);
    // Also inside the click: an element that played from a gesture may play the agent later.
    if (!handover.audio) unlockPlayback(call.audio.element);
    window.addEventListener('pagehide', this.#onPageHide);
    // livekit-client loads while the microphone prompt and the dial are pending, not after.
    void this.#run(call, microphone, loadMedia());
    return call.started;
  }

  hangup(): Promise<void> {
    const call = this.#call;
    if (!call) return Promise.resolve();
    return this.#end(call, 'user-hangup');
  }

  /**
   * Sends the visitor's rating of the last call to the companion (`POST {endpoint}/dials/:id/feedback`,
   * authorised by that dial's handle), once it has ended. Rejects with a `CompanionError`: code
   * `duplicate_request` (409) when the dial was rated already, `invalid_request` when no dial ended.
   */
  async sendFeedback(feedback: { rating: CallRating; comment?: string }): Promise<void> {
    const call = this.#call;
    if (!call?.dial || call.phase !== 'ended') {
      throw new CompanionError('invalid_request', 'there is no ended call with a dial to rate');
    }
    await call.companion.feedback(call.dial, feedback, new AbortController().signal);
  }

  /**
   * Mutes or unmutes the microphone of the current call, or of the next one when set between
   * calls. A call's mute ends with it: each call that ends muted is unmuted (`call-mute`) before `ended`.
   */
  setMuted(muted: boolean): void {
    if (muted === this.#muted) return;
    this.#muted = muted;
    const call = this.#call;
    if (call && !isReleased(call.phase)) {
      if (call.mic) call.mic.enabled = !muted;
      call.media?.setMuted(muted).catch(() => undefined);
    }
    this.#emit(new CallMuteEvent({ muted }));
  }

  /**
   * Puts the call on hold (`true`: the AI stops talking and listening) or takes it off, through
   * the service's `pauseAI`. `call-hold` fires at once; when the service refuses, the hold goes
   * back (`call-hold` again), a recoverable `call-error` `hold_failed` fires and this rejects.
   * Only in a call that has the service's session (`canHold`); otherwise it rejects, changing nothing.
   */
  async setHeld(held: boolean): Promise<void> {
    if (held === this.#held) return;
    const call = this.#call;
    const service = call?.service;
    if (!call || !service || !this.canHold) {
      throw new CallError('hold_failed', 'setHeld: there is no call with the service session to hold');
    }
    this.#setHeldNow(held);
    try {
      await service.pauseAI(held);
    } catch (error) {
      if (this.#call !== call || isOver(call)) return;
      const message = `the service did not ${held ? 'pause' : 'resume'} the agent (${error instanceof Error ? error.message : String(error)})`;
      if (this.#held === held) this.#setHeldNow(!held);
      this.#emit(new CallErrorEvent({ code: 'hold_failed', message, recoverable: true }));
      throw new CallError('hold_failed', message, { cause: error });
    }
  }

  /**
   * Sends keypad digits over the call's media connection, one DTMF tone each (LiveKit
   * `publishDtmf`, as the service's own client does), and `call-dtmf` per digit sent. Only `0`-`9`,
   * `*` and `#`: anything else rejects with a `RangeError` before any digit is sent.
   */
  async sendDigits(digits: string): Promise<void> {
    if (typeof digits !== 'string' || !isDtmfDigits(digits)) {
      throw new RangeError(
        `sendDigits: ${JSON.stringify(String(digits))} is not keypad digits (only 0-9, * and #; nothing was sent)`,
      );
    }
    const call = this.#call;
    if (!call || !call.media || (call.phase !== 'in-call' && call.phase !== 'reconnecting')) {
      throw new CallError('media_failed', 'sendDigits: there is no call to send digits to (nothing was sent)');
    }
    const media = call.media;
    const send = async (): Promise<void> => {
      for (const digit of digits) {
        if (this.#call !== call || isOver(call)) return;
        await media.sendDtmf(digit);
        this.#emit(new CallDtmfEvent({ digit }));
      }
    };
    const sent = call.dtmf.then(send, send);
    call.dtmf = sent.catch(() => undefined);
    await sent;
  }

  /**
   * Uses the microphone `deviceId` names (`''`: the browser's default): in a call it replaces the
   * one being sent without a renegotiation; between calls the next call opens it. Fires
   * `call-device`. A microphone that cannot be opened rejects with a recoverable `call-error`
   * `device_failed`, and the call keeps the one it had.
   */
  async setMicrophone(deviceId: string): Promise<void> {
    if (typeof deviceId !== 'string') throw new TypeError('setMicrophone: deviceId must be a string');
    const call = this.#call;
    this.#microphoneId = deviceId || null;
    this.#remember();
    if (call && call.media && call.mic && !isOver(call)) {
      try {
        await this.#switchMicrophone(call, deviceId, false);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (this.#call === call && !isOver(call)) {
          this.#emit(new CallErrorEvent({ code: 'device_failed', message, recoverable: true }));
        }
        throw error;
      }
      return;
    }
    // Before the media is up the call opens it when it joins (#run), and says so then.
    if (call && !isOver(call)) return;
    // Between calls: the next call opens it.
    const label = await deviceLabel('audioinput', deviceId);
    this.#emit(new CallDeviceEvent({ kind: 'audioinput', deviceId, label, fallback: false }));
  }

  /**
   * Plays the agent on the speaker `deviceId` names (`''`: the browser's default), in this call
   * and the next ones; fires `call-device`. Where the browser cannot choose (no `setSinkId`, most
   * mobile browsers) or refuses the device it rejects with a recoverable `call-error` `device_failed`.
   */
  async setSpeaker(deviceId: string): Promise<void> {
    if (typeof deviceId !== 'string') throw new TypeError('setSpeaker: deviceId must be a string');
    if (!canChooseSpeaker()) {
      throw new CallError('device_failed', 'setSpeaker: this browser cannot choose where audio plays');
    }
    const call = this.#call;
    if (call && !isReleased(call.phase)) {
      try {
        await this.#routeSpeaker(call, deviceId);
      } catch (error) {
        const message = `could not play on that speaker (${error instanceof Error ? error.name : 'error'})`;
        this.#emit(new CallErrorEvent({ code: 'device_failed', message, recoverable: true }));
        throw new CallError('device_failed', message, { cause: error });
      }
    }
    this.#speakerId = deviceId || null;
    this.#remember();
    const label = await deviceLabel('audiooutput', deviceId);
    this.#emit(new CallDeviceEvent({ kind: 'audiooutput', deviceId, label, fallback: false }));
  }

  async unlockAudio(): Promise<void> {
    const call = this.#call;
    if (!call || isReleased(call.phase)) return;
    await call.audio.resume();
  }

  abandon(reason: 'element-removed' | 'page-unload'): void {
    const call = this.#call;
    if (call) void this.#end(call, reason);
  }

  // ---- the call's steps ----

  #newCall(handedOver?: HTMLAudioElement): ActiveCall {
    const options = callOptions(this.#options);
    const started = deferred();
    const ended = deferred();
    const element = handedOver ?? createAudio(options.audioContainer);
    return {
      phase: 'starting',
      end: null,
      result: null,
      controller: new AbortController(),
      companion: new CompanionClient(options.endpoint, options.requestTimeoutMs),
      options,
      idempotencyKey: crypto.randomUUID(),
      transcript: new Transcript(),
      audio: new AgentAudio(element, (blocked) => this.#setAudioBlocked(blocked)),
      dialRequest: null,
      dial: null,
      dialOver: false,
      mic: null,
      micChange: Promise.resolve(),
      dtmf: Promise.resolve(),
      media: null,
      service: null,
      agentJoined: false,
      poll: 'off',
      timers: new Set(),
      started: started.promise,
      resolveStarted: started.resolve,
      ended: ended.promise,
      resolveEnded: ended.resolve,
    };
  }

  async #run(call: ActiveCall, microphone: Promise<MediaStream>, mediaModule: Promise<MediaModule>): Promise<void> {
    const { signal } = call.controller;
    // Read here, not in start(): a `call-state` listener of `starting` may still set `rememberDevices` (the element does).
    if (this.#options.rememberDevices && !this.#rememberedRead) {
      this.#rememberedRead = true;
      const stored = readRemembered();
      this.#microphoneId ??= stored.microphone ?? null;
      this.#speakerId ??= stored.speaker ?? null;
    }
    if (this.#speakerId) void this.#routeSpeaker(call, this.#speakerId).catch(() => undefined);
    // A visitor who granted the microphone before (a returning visitor) cannot refuse it now: the
    // dial is created while getUserMedia resolves. Otherwise the microphone comes first, so no dial
    // is ever created for a visitor who refuses.
    let created: Promise<CreatedDial> | null = null;
    if ((await microphoneGranted(microphone)) && !isOver(call)) created = this.#createDial(call);
    let stream: MediaStream;
    try {
      stream = await microphone;
    } catch (error) {
      const { ending, message } = microphoneEnding(error);
      await this.#end(call, ending, { message });
      return;
    }
    const [mic, ...extra] = stream.getAudioTracks();
    for (const track of [...extra, ...stream.getVideoTracks()]) track.stop();
    // Chromium keeps the getUserMedia promise, and with it this stream, for the page's life: an
    // empty stream keeps nothing of the call (its track, and the streams the track joins later).
    for (const track of stream.getTracks()) stream.removeTrack(track);
    if (isOver(call) || !mic) {
      mic?.stop();
      await this.#end(call, 'microphone-unavailable', { message: 'no microphone track' });
      return;
    }
    call.mic = mic;
    mic.enabled = !this.#muted;
    mic.addEventListener('ended', this.#onMicrophoneEnded);
    navigator.mediaDevices.addEventListener('devicechange', this.#onDeviceChange);

    try {
      const dial = await (created ?? this.#createDial(call));
      if (isOver(call)) return;
      // The create's answer carries the media credentials; the token route only when it did not.
      const token = dial.media ?? (await call.companion.token(dial, signal));
      if (isOver(call)) return;
      this.#enter(call, 'connecting');
      const module = await mediaModule.catch((error: unknown) => {
        throw new CallError('media_failed', 'could not load the media library (livekit-client)', { cause: error });
      });
      if (isOver(call)) return;
      const joining = joinMedia(module, {
        token,
        dialId: dial.dialId,
        microphone: mic,
        muted: this.#muted,
        signal,
        options: call.options,
        media: this.#mediaCallbacks(call),
        service: this.#serviceCallbacks(call),
      });
      call.service = joining.service;
      const media = await joining.media;
      if (isOver(call)) {
        void media.disconnect();
        return;
      }
      call.media = media;
      call.service?.roomJoined();
      // A mute while the room was connecting changed only the raw track.
      await media.setMuted(this.#muted);
      if (isOver(call)) return;
      // A microphone chosen before (remembered, or while the call was setting up) replaces the default one.
      const chosen = this.#microphoneId;
      if (chosen && chosen !== mic.getSettings().deviceId) {
        await this.#switchMicrophone(call, chosen, false).catch(() => undefined);
        if (isOver(call)) return;
      }
      // The agent gets `agentTimeoutMs` from the room being up. Joining the room has
      // livekit-client's own timeouts (a failed join ends as setup-failed / media_failed), so the
      // two never race to name the end.
      this.#startTimer(call, call.options.agentTimeoutMs, () => this.#end(call, 'agent-timeout'));
      this.#maybeConnected(call);
    } catch (error) {
      if (isOver(call)) return;
      await this.#end(call, 'setup-failed', setupFailure(error));
    }
  }

  /** `POST /dials`, once per call; `call.dial` holds the dial (without its media credentials) as soon as it answers. */
  #createDial(call: ActiveCall): Promise<CreatedDial> {
    // Not tied to the call's signal: once sent, a dial may exist, and only its answer lets us hang it up.
    const request = call.companion
      .createDial(
        { agent: call.options.agent || undefined, inputs: call.options.inputs || undefined },
        call.idempotencyKey,
        new AbortController().signal,
      )
      .then((created) => {
        call.dial = { dialId: created.dialId, handle: created.handle };
        return created;
      });
    call.dialRequest = request.catch(() => null);
    return request;
  }

  /** Runs `handle` only while `call` is the current call and has not begun to end. */
  #whileLive<A extends unknown[]>(call: ActiveCall, handle: (...args: A) => void): (...args: A) => void {
    return (...args) => {
      if (this.#call === call && !isOver(call)) handle(...args);
    };
  }

  #mediaCallbacks(call: ActiveCall): MediaCallbacks {
    const live = <A extends unknown[]>(handle: (...args: A) => void) => this.#whileLive(call, handle);
    return {
      onAgentJoined: live(() => {
        call.agentJoined = true;
        this.#maybeConnected(call);
      }),
      onAgentLeft: live(() => void this.#end(call, 'agent-left')),
      onAgentAudio: live((track: MediaStreamTrack | null) => call.audio.play(track)),
      onAgentSpeaking: live((speaking: boolean) => this.#setAgentSpeaking(speaking)),
      onReconnecting: live(() => {
        if (call.phase === 'in-call') this.#enter(call, 'reconnecting');
      }),
      onReconnected: live(() => {
        if (call.phase === 'reconnecting') this.#enter(call, 'in-call');
      }),
      onDisconnected: live((cause: MediaDisconnectCause, detail: string) => {
        // We left ourselves; or still joining: the join itself fails next, as setup-failed media_failed.
        if (cause === 'client' || !call.media) return;
        if (cause === 'server') {
          void this.#end(call, 'room-closed');
          return;
        }
        // Lost before the call was up: a dial the service already ended says why (e.g. busy).
        const ending = this.#connectedAt === null ? 'network-lost-joining' : 'network-lost';
        void this.#end(call, ending, { message: `the media connection was lost (${detail})` });
      }),
      onTranscript: live((segment: LiveSegment) => {
        if (call.options.transcript !== 'off') this.#applySegment(call, segment);
      }),
    };
  }

  #serviceCallbacks(call: ActiveCall): ServiceSessionCallbacks {
    const live = <A extends unknown[]>(handle: (...args: A) => void) => this.#whileLive(call, handle);
    return {
      onDialEnded: live((status: string, systemResultType: string | null) => {
        const end = () => void this.#end(call, 'dial-ended', { reason: endReasonFromResult(systemResultType, status) });
        // The service's status (GraphQL) can outrun the room's own LeaveRequest (the signal socket):
        // while the room is up it gets a moment to close the call itself, so the room goes away as
        // it says rather than by our leaving. Its leave ends the call first and clears this timer.
        if (call.media) this.#startTimer(call, ROOM_LEAVE_GRACE_MS, end);
        else end();
      }),
      // Without startDialSession the agent never starts: the call was never set up, whether or
      // not an agent is already in the room. A silent call helps nobody.
      onStartFailed: live((detail: string) => {
        const message = `the calling service did not start the call (${detail})`;
        void this.#end(call, 'session-start-failed', { message });
      }),
      onTranscript: live((segment: LiveSegment) => this.#applySegment(call, segment)),
      onTranscriptLost: live(() => this.#needPolling(call)),
      onStatusLost: live(() => this.#needPolling(call)),
    };
  }

  #applySegment(call: ActiveCall, segment: LiveSegment): void {
    const changed = call.transcript.applySegment(segment);
    if (changed) this.#transcribed(call, changed);
  }

  #transcribed(call: ActiveCall, changed: TranscriptEntry): void {
    this.#emit(new CallTranscriptEvent({ entries: call.transcript.entries, changed }));
  }

  /** A service stream is gone: the companion's dial record takes over (transcript and end), now or once in the call. */
  #needPolling(call: ActiveCall): void {
    if (call.poll === 'off') call.poll = 'wanted';
    if (this.#connectedAt !== null) this.#pollTranscript(call);
  }

  /** `in-call` once the room is connected and the agent is in it, whichever came last. */
  #maybeConnected(call: ActiveCall): void {
    if (this.#call !== call || call.phase !== 'connecting') return;
    if (!call.media || !call.agentJoined || !call.dial) return;
    this.#clearTimers(call);
    this.#connectedAt = Date.now();
    this.#enter(call, 'in-call');
    this.#emit(new CallConnectedEvent({ dialId: call.dial.dialId }));
    call.resolveStarted();
    const mode = call.options.transcript;
    if (mode === 'poll' || call.poll === 'wanted') {
      this.#pollTranscript(call);
    } else if (mode === 'live') {
      this.#startTimer(call, call.options.liveTranscriptGraceMs, () => {
        if (!call.transcript.hasLiveSegments) this.#pollTranscript(call);
      });
    }
  }

  /** Reads the dial every `pollIntervalMs` and merges its transcript; a terminal dial ends the call. */
  #pollTranscript(call: ActiveCall): void {
    const dial = call.dial;
    if (call.poll === 'running' || !dial) return;
    call.poll = 'running';
    void pollDial(call.companion, dial, call.options.pollIntervalMs, call.controller.signal, (record) => {
      const changedEntries = call.transcript.mergeService(record.transcript);
      if (call.options.transcript !== 'off') for (const changed of changedEntries) this.#transcribed(call, changed);
      if (!isTerminal(record)) return false;
      void this.#end(call, 'dial-ended');
      return true;
    });
  }

  // ---- the one end path ----

  /**
   * The one way a call ends, following its row of `ENDINGS`. Guarded: a second path finds the
   * call ending and waits for the first, except one that cannot wait (the element left, the page
   * is going away), which finishes the call at once. Order: `ending`, steps aborted, the dial hung
   * up (when first), room left and everything released, dial record read, then `ended` and one
   * `call-ended`.
   */
  async #end(call: ActiveCall, ending: Ending, detail?: EndDetail): Promise<void> {
    if (hasEnded(call)) return call.ended;
    const planned = planEnd(ending, detail);
    const { steps } = planned;
    const earlier = call.end;
    if (earlier && !steps.now) return call.ended;
    if (!earlier) {
      call.end = planned;
      this.#enter(call, 'ending');
    }
    call.controller.abort();
    this.#clearTimers(call);

    if (steps.now) {
      this.#hangupNow(call, steps.now);
      void this.#release(call);
      // A call already ending for a known reason keeps it; otherwise leaving is the reason.
      const reason = earlier && !earlier.steps.fromRecord ? earlier.reason : planned.reason;
      this.#finish(call, reason, null, earlier?.error);
      return call.ended;
    }

    const dial = call.dial ?? (call.dialRequest ? await call.dialRequest : null);
    if (hasEnded(call)) return call.ended;
    if (steps.hangupFirst && dial && !call.dialOver) {
      try {
        // The companion client times the request out itself (requestTimeoutMs).
        await call.companion.hangup(dial, new AbortController().signal);
        call.dialOver = true;
      } catch {
        // Read below; a dial still live afterwards gets a keepalive hangup.
      }
    }
    await this.#release(call);
    if (hasEnded(call)) return call.ended;

    let record: DialRecord | null = null;
    if (dial && steps.read !== 'none') {
      const timeoutMs = call.options.resultTimeoutMs;
      record = await readRecord(call.companion, dial, steps.read, timeoutMs, () => hasEnded(call));
    }
    if (hasEnded(call)) return call.ended;
    if (record && isTerminal(record)) call.dialOver = true;
    if (dial && !call.dialOver) this.#hangupNow(call, 'keepalive');
    const { reason, error } = settle(planned, record);
    if (error) this.#emit(new CallErrorEvent(error));
    this.#finish(call, reason, record, error);
    return call.ended;
  }

  /** Hangs the dial up without waiting: a keepalive request or a beacon, which outlive the element or the page. */
  #hangupNow(call: ActiveCall, how: 'keepalive' | 'beacon'): void {
    if (call.dialOver) return;
    call.dialOver = true;
    const hangup = (dial: DialHandle) =>
      how === 'beacon' ? call.companion.hangupBeacon(dial) : call.companion.hangupKeepalive(dial);
    if (call.dial) hangup(call.dial);
    else void call.dialRequest?.then((dial) => dial && hangup(dial));
  }

  #finish(call: ActiveCall, reason: CallResult['reason'], record: DialRecord | null, error?: ReportedError): void {
    if (call.result) return;
    const result = callResult({
      dialId: call.dial?.dialId ?? null,
      reason,
      transcript: call.transcript.result(record?.transcript),
      record,
      error,
      nonSpeechLines: call.service?.nonSpeechLines,
    });
    call.result = result;
    this.#result = result;
    liveSessions.delete(this);
    // A mute belongs to its call: "Call again" must not start muted with nothing saying so (with
    // an agent that hangs up after silence, the next call would end "after silence"). A mute set
    // between calls still carries into the next one.
    if (this.#muted) {
      this.#muted = false;
      this.#emit(new CallMuteEvent({ muted: false }));
    }
    // A hold, too: the service's pause belongs to the dial that is over.
    if (this.#held) this.#setHeldNow(false);
    this.#enter(call, 'ended');
    this.#emit(new CallEndedEvent(result));
    call.resolveStarted();
    call.resolveEnded();
  }

  /** Lets go of everything the call added: listeners, timers, microphone, audio element, room. */
  #release(call: ActiveCall): Promise<void> {
    if (isReleased(call.phase)) return Promise.resolve();
    this.#enter(call, 'released');
    this.#clearTimers(call);
    window.removeEventListener('pagehide', this.#onPageHide);
    call.service?.close();
    navigator.mediaDevices?.removeEventListener('devicechange', this.#onDeviceChange);
    this.#wake.release();
    if (call.mic) {
      call.mic.removeEventListener('ended', this.#onMicrophoneEnded);
      call.mic.stop();
    }
    call.audio.release();
    this.#setAgentSpeaking(false);
    this.#setAudioBlocked(false);
    const media = call.media;
    call.media = null;
    return media ? media.disconnect().catch(() => undefined) : Promise.resolve();
  }

  // ---- small helpers ----

  #startTimer(call: ActiveCall, ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      call.timers.delete(timer);
      if (this.#call === call && !isOver(call)) run();
    }, ms);
    call.timers.add(timer);
  }

  #clearTimers(call: ActiveCall): void {
    for (const timer of call.timers) clearTimeout(timer);
    call.timers.clear();
  }

  /** Moves the call to `phase`; a change of the public state is checked against the transition table and announced. */
  #enter(call: ActiveCall, phase: CallPhase): void {
    const previous = this.state;
    if (stateOf(phase) !== previous) transition(previous, stateOf(phase));
    call.phase = phase;
    // The screen stays awake from connecting until the call lets go of its media (#release).
    if (phase === 'connecting') this.#wake.hold();
    this.#announce(previous);
  }

  #announce(previous: CallState): void {
    const state = this.state;
    if (state !== previous) this.#emit(new CallStateEvent({ state, previous }));
  }

  #setHeldNow(held: boolean): void {
    this.#held = held;
    this.#emit(new CallHoldEvent({ held }));
  }

  /** The visitor's choice, stored only when the site asked for it (`rememberDevices`). */
  #remember(): void {
    if (!this.#options.rememberDevices) return;
    remember({
      ...(this.#microphoneId ? { microphone: this.#microphoneId } : {}),
      ...(this.#speakerId ? { speaker: this.#speakerId } : {}),
    });
  }

  /** Plays the call's agent on `deviceId` (`''`: the default); rejects where the browser refuses. */
  async #routeSpeaker(call: ActiveCall, deviceId: string): Promise<void> {
    if (!canChooseSpeaker()) return;
    await (call.audio.element as HTMLAudioElement & { setSinkId(id: string): Promise<void> }).setSinkId(deviceId);
  }

  /**
   * Sends the microphone `deviceId` names instead of the one in use (`fallback`: that one went
   * away, and `''` is the default). Changes run one after another; each fires `call-device`.
   */
  #switchMicrophone(call: ActiveCall, deviceId: string, fallback: boolean): Promise<void> {
    const run = async (): Promise<void> => {
      const old = call.mic;
      if (this.#call !== call || isOver(call) || !old || !call.media) return;
      let track: MediaStreamTrack;
      try {
        track = await openMicrophone(deviceId);
      } catch (error) {
        throw new CallError(
          'device_failed',
          `could not open the microphone (${error instanceof Error ? error.name : 'error'})`,
          {
            cause: error,
          },
        );
      }
      const media = call.media;
      if (this.#call !== call || isOver(call) || !media) {
        track.stop();
        return;
      }
      track.enabled = !this.#muted;
      old.removeEventListener('ended', this.#onMicrophoneEnded);
      track.addEventListener('ended', this.#onMicrophoneEnded);
      call.mic = track;
      await media.replaceMicrophone(track, this.#muted);
      old.stop();
      const detail: CallDevice = {
        kind: 'audioinput',
        deviceId: track.getSettings().deviceId ?? deviceId,
        label: track.label,
        fallback,
      };
      this.#emit(new CallDeviceEvent(detail));
    };
    const change = call.micChange.then(run, run);
    call.micChange = change.catch(() => undefined);
    return change;
  }

  /** The microphone in use went away: the call moves to the default one, or ends when there is none. */
  #microphoneLost(call: ActiveCall, lost: MediaStreamTrack): void {
    if (this.#call !== call || isOver(call) || call.mic !== lost) return;
    const end = (): void =>
      void this.#end(call, 'microphone-lost', {
        message: 'the microphone stopped (unplugged or taken by another app)',
      });
    if (!call.media) {
      end();
      return;
    }
    this.#switchMicrophone(call, '', true).then(() => {
      if (call.mic === lost) end();
    }, end);
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
    if (!event.persisted && this.#call && isLive(this.state)) this.abandon('page-unload');
  };

  readonly #onMicrophoneEnded = (event: Event): void => {
    const call = this.#call;
    if (call?.mic && event.target === call.mic) this.#microphoneLost(call, call.mic);
  };

  /** A device came or went: the microphone in use may be the one that went (a Bluetooth headset dropped). */
  readonly #onDeviceChange = (): void => {
    const call = this.#call;
    const mic = call?.mic;
    const id = mic?.getSettings().deviceId;
    if (!call || !mic || !id || isOver(call)) return;
    void listDevices('audioinput').then((inputs) => {
      if (inputs.length > 0 && !inputs.some((device) => device.deviceId === id)) this.#microphoneLost(call, mic);
    });
  };
}
