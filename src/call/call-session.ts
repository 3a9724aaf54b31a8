// CallSession: one visitor's calls, framework-free. Each call is in one `phase` (states.ts), from
// which the public `state` derives; its steps (call-setup.ts) run microphone -> dial -> token ->
// media -> agent, and every way it can end is a row of `ENDINGS` (endings.ts) that the one
// guarded `#end` follows, so each call that left `idle` fires exactly one `call-ended`. Each feature
// is a `SessionFeature` wired once here, whose hooks the session calls at each step; its public
// methods are one-line delegations to it; optional ones come in chunks (optional-features.ts).
import { awaySeconds, clearTimers, hangupNow, hasEnded, newCall, type ActiveCall } from './active-call.js';
import { AgentAudio } from './agent-audio.js';
import { sessionHost } from './call-host.js';
import { callOptions } from './call-options.js';
import { runSetup } from './call-setup.js';
import { isTerminal, type DialRecord } from './companion-client.js';
import { readRecord } from './dial-record.js';
import { callResult, planEnd, settle, type EndDetail, type Ending } from './endings.js';
import type { ReportedError } from './error-codes.js';
import {
  AgentSpeakingEvent,
  AudioBlockedEvent,
  CallConnectedEvent,
  CallEndedEvent,
  CallResumedEvent,
  CallErrorEvent,
  CallStateEvent,
  CallEventTarget,
} from './events.js';
import { createAudio, requestMicrophone, stopMicrophone, unlockPlayback, type CallHandover } from './gesture.js';
import { loadMedia } from './media-loader.js';
import { claimPage, otherCallLive, releasePage, startRefusal } from './one-per-page.js';
import { OptionalFeatures } from './optional-features.js';
import { PageLeave } from './page-leave.js';
import { sendFeedback } from './send-feedback.js';
import { isReleased, isResting, stateOf, transition, type CallPhase } from './states.js';
import { TranscriptFeed } from './transcript-feed.js';
import type {
  CallRating,
  CallResult,
  CallSessionLike,
  CallSessionOptions,
  CallState,
  TranscriptEntry,
  TransferState,
  VoiceLevels,
} from './types.js';
import { DevicesSide } from '../features/devices/devices-side.js';
import { MetricsFeature } from '../features/metrics/metrics-feature.js';
import { MuteFeature } from '../features/mute/mute-feature.js';
import { QualityFeature } from '../features/quality/quality-feature.js';
import { ScreenWakeFeature } from '../features/screen-wake/screen-wake-feature.js';

export { preloadMedia } from './media-loader.js';
export { MICROPHONE_CONSTRAINTS, type CallHandover } from './gesture.js';

/**
 * The call logic behind `<voice-agent-call>`, usable on its own:
 *
 * ```ts
 * const session = new CallSession({ endpoint: '/api/voice-call', agent: 'default' });
 * session.addEventListener('call-ended', (event) => console.log(event.detail.reason));
 * button.onclick = () => session.start(); // start() from the click: microphone and audio unlock need it
 * ```
 *
 * @fires call-state @fires call-connected @fires call-resumed @fires call-transcript @fires call-mute
 * @fires call-hold @fires call-dtmf @fires call-device @fires call-quality @fires call-progress @fires call-transfer
 * @fires call-error @fires call-ended @fires agent-speaking @fires audio-blocked
 */
export class CallSession extends CallEventTarget implements CallSessionLike {
  #options: CallSessionOptions;
  #call: ActiveCall | null = null;
  #connectedAt: number | null = null;
  #agentSpeaking = false;
  #audioBlocked = false;
  #result: CallResult | null = null;

  /** What the setup, the signals, the transcript feed and (as a `FeatureContext`) the features see of the session. */
  readonly #host = sessionHost({
    call: () => this.#call,
    options: () => this.#options,
    muted: () => this.#mute.muted,
    connectedAt: () => this.#connectedAt,
    features: () => this.#optional.hooks,
    feed: () => this.#feed,
    emit: (event) => this.dispatchEvent(event),
    end: (call, ending, detail) => this.#end(call, ending, detail),
    enter: (call, phase) => this.#enter(call, phase),
    maybeConnected: (call) => this.#maybeConnected(call),
    setAgentSpeaking: (speaking) => this.#setAgentSpeaking(speaking),
    featuresLoaded: () => this.#optional.loaded(this.#options),
  });
  readonly #mute = new MuteFeature(this.#host);
  readonly #devices = new DevicesSide(this.#host);
  readonly #quality = new QualityFeature(this.#host);
  /** Every feature, hooks in order: the session's own, then the optional ones (optional-features.ts). */
  readonly #optional: OptionalFeatures = new OptionalFeatures(this.#host, [
    new PageLeave(this.#host, (call) => !!this.#optional.get('persist')?.leave(call)),
    ...[this.#mute, this.#devices, new ScreenWakeFeature(), this.#quality],
    new MetricsFeature(this.#host, this.#quality), // reads the quality's averages as the call ends
  ]);
  readonly #feed = new TranscriptFeed(this.#host);

  constructor(options: CallSessionOptions) {
    super();
    this.#options = { ...options };
    this.#optional.want(options);
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
    return this.#mute.muted;
  }

  /** A call taken over from an earlier page (`persist`) is getting back: not up yet. */
  get resuming(): boolean {
    const call = this.#call;
    return !!call?.resumed && (call.phase === 'starting' || call.phase === 'connecting');
  }

  /** The AI is paused (`setHeld(true)`); a hold ends with its call. */
  get held(): boolean {
    return this.#optional.get('hold')?.held ?? false;
  }

  /** The current call is up and has the service's session, through which `pauseAI` goes. */
  get canHold(): boolean {
    return this.#optional.get('hold')?.canHold ?? false;
  }

  /** Talk to a person in this call: `none` (not asked), `requested`, `connected` or `failed`. */
  get transferState(): TransferState {
    return this.#optional.get('transfer')?.state ?? 'none';
  }

  /** The current call is up, the companion offers a transfer for it, and none was asked yet. */
  get canTransfer(): boolean {
    return this.#optional.get('transfer')?.canTransfer ?? false;
  }

  /** The index in `transcript` of the first entry after the call went to a person, or null. */
  get personFromEntry(): number | null {
    return this.#optional.get('transfer')?.personFromEntry ?? null;
  }

  /**
   * The microphone in use during a call (its `deviceId` as the browser reports it), otherwise the
   * one chosen for the next call; null for the browser's default.
   */
  get microphoneId(): string | null {
    return this.#devices.microphoneId;
  }

  /** The speaker chosen for the agent's voice (`setSpeaker`); null for the browser's default. */
  get speakerId(): string | null {
    return this.#devices.speakerId;
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
    return this.#mute.heard(media.levels());
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
    this.#optional.want(options);
    this.#options = { ...this.#options, ...options };
  }

  /**
   * Starts a call; call it from the click. `handover` is for a click that happened before this
   * session existed (the element's call logic loads lazily): the microphone request and an audio
   * element made inside that click with `captureGesture()`, used instead of asking again here.
   */
  start(handover: CallHandover = {}): Promise<void> {
    return this.#start(handover);
  }

  /**
   * Takes up the call an earlier page of the site left (`persist`), when this tab stored one for
   * this endpoint less than 30 s ago: the same dial, rejoined without a click (the token route, the
   * room, the service session), the transcript so far restored and the timer counting from the
   * call's start. `call-resumed` fires once it is up again, instead of `call-connected`. Resolves
   * false, starting nothing, when there is no such call or a call is live here already.
   */
  resume(): Promise<boolean> {
    // One live call per page: a second widget of the endpoint leaves the call to the first that took it.
    const may = () => (!this.#call || isResting(this.state)) && !(this.#options.onePerPage && otherCallLive(this));
    if (!may()) return Promise.resolve(false);
    const resuming = { setMuted: (muted: boolean) => this.setMuted(muted), startWith: this.#start.bind(this) };
    return this.#optional.use('persist', async (persist) => may() && persist.resume(resuming));
  }

  /** When the visitor agreed to the consent gate, for a call taken over from an earlier page (`persist`). */
  get resumedConsentAt(): string | undefined {
    return this.#call?.resumed?.consentAt;
  }

  /** A resumed call waits for a tap to ask for the microphone again (the browser refused it without one). */
  get resumeNeedsTap(): boolean {
    return this.#optional.get('persist')?.needsTap ?? false;
  }

  /** The visitor's tap on "Tap to continue the call": asks for the microphone inside the click. */
  continueResume(): void {
    this.#optional.get('persist')?.continue();
  }

  /** Starts a call; `adopt` makes the new call a stored one (`resume`) before anything happens. */
  #start(handover: CallHandover, adopt?: (call: ActiveCall) => void): Promise<void> {
    const current = this.#call;
    if (current && current.phase !== 'ended') return current.started;

    // Refused before anything is spent (one-per-page.ts); else the microphone first, inside the click.
    const onePerPage = this.#options.onePerPage === true;
    const refused = startRefusal(this, onePerPage);
    const microphone = refused ? null : (handover.microphone ?? requestMicrophone());

    const options = callOptions(this.#options);
    const element = handover.audio ?? createAudio(options.audioContainer);
    const call = newCall(options, new AgentAudio(element, (blocked) => this.#setAudioBlocked(blocked)));
    adopt?.(call);
    const previous = this.state;
    transition(previous, 'starting');
    this.#call = call;
    this.#connectedAt = call.resumed?.startedAt ?? null;
    this.#setAudioBlocked(false);
    this.#announce(previous);
    if (refused || !microphone) {
      stopMicrophone(handover.microphone);
      if (refused) void this.#end(call, refused.ending, refused.detail);
      return call.started;
    }
    if (onePerPage) claimPage(this);
    // Also inside the click: an element that played from a gesture may play the agent later.
    if (!handover.audio) unlockPlayback(call.audio.element);
    // livekit-client loads while the microphone prompt and the dial are pending, not after.
    void runSetup(this.#host, call, microphone, loadMedia());
    return call.started;
  }

  hangup(): Promise<void> {
    return this.#call ? this.#end(this.#call, 'user-hangup') : Promise.resolve();
  }

  /**
   * Sends the visitor's rating of the last call to the companion (`POST {endpoint}/dials/:id/feedback`,
   * authorised by that dial's handle), once it has ended. Rejects with a `CompanionError`: code
   * `duplicate_request` (409) when the dial was rated already, `invalid_request` when no dial ended.
   */
  sendFeedback(feedback: { rating: CallRating; comment?: string }): Promise<void> {
    return sendFeedback(this.#call, feedback);
  }

  /**
   * Mutes or unmutes the microphone of the current call, or of the next one when set between
   * calls. A call's mute ends with it: each call that ends muted is unmuted (`call-mute`) before `ended`.
   */
  setMuted(muted: boolean): void {
    this.#mute.setMuted(muted);
  }

  /**
   * Puts the call on hold (`true`: the AI stops talking and listening) or takes it off, through
   * the service's `pauseAI`. `call-hold` fires at once; when the service refuses, the hold goes
   * back (`call-hold` again), a recoverable `call-error` `hold_failed` fires and this rejects.
   * Only in a call that has the service's session (`canHold`); otherwise it rejects, changing nothing.
   */
  setHeld(held: boolean): Promise<void> {
    return this.#optional.use('hold', (hold) => hold.setHeld(held));
  }

  /**
   * Sends keypad digits over the call's media connection, one DTMF tone each (LiveKit
   * `publishDtmf`, as the service's own client does), and `call-dtmf` per digit sent. Only `0`-`9`,
   * `*` and `#`: anything else rejects with a `RangeError` before any digit is sent.
   */
  sendDigits(digits: string): Promise<void> {
    return this.#optional.use('keypad', (keypad) => keypad.sendDigits(digits));
  }

  /**
   * Asks the companion to hand the call to a person (`POST {endpoint}/dials/:id/transfer`; the
   * number is the site owner's). `call-transfer` `requested` at once, then `connected` once the
   * service accepted; when it refuses, `call-transfer` `failed`, a recoverable `call-error`
   * `transfer_failed`, the call stays with the agent, and this rejects. Only in a call whose
   * companion offers it (`canTransfer`), once per call; otherwise it rejects, asking nothing.
   */
  requestTransfer(): Promise<void> {
    return this.#optional.use('transfer', (transfer) => transfer.requestTransfer());
  }

  /**
   * Uses the microphone `deviceId` names (`''`: the browser's default): in a call it replaces the
   * one being sent without a renegotiation; between calls the next call opens it. Fires
   * `call-device`. A microphone that cannot be opened rejects with a recoverable `call-error`
   * `device_failed`, and the call keeps the one it had.
   */
  setMicrophone(deviceId: string): Promise<void> {
    return this.#devices.setMicrophone(deviceId);
  }

  /**
   * Plays the agent on the speaker `deviceId` names (`''`: the browser's default), in this call
   * and the next ones; fires `call-device`. Where the browser cannot choose (no `setSinkId`, most
   * mobile browsers) or refuses the device it rejects with a recoverable `call-error` `device_failed`.
   */
  setSpeaker(deviceId: string): Promise<void> {
    return this.#devices.setSpeaker(deviceId);
  }

  async unlockAudio(): Promise<void> {
    const call = this.#call;
    if (call && !isReleased(call.phase)) await call.audio.resume();
  }

  abandon(reason: 'element-removed' | 'page-unload'): void {
    if (this.#call) void this.#end(this.#call, reason);
  }

  /** `in-call` once the room is connected and the agent is in it, whichever came last. */
  #maybeConnected(call: ActiveCall): void {
    if (this.#call !== call || call.phase !== 'connecting' || !call.media || !call.agentJoined || !call.dial) return;
    clearTimers(call);
    const { resumed } = call;
    if (!resumed) this.#connectedAt = Date.now();
    this.#enter(call, 'in-call');
    this.dispatchEvent(
      resumed
        ? new CallResumedEvent({ dialId: call.dial.dialId, awaySeconds: awaySeconds(resumed.leftAt) })
        : new CallConnectedEvent({ dialId: call.dial.dialId }),
    );
    call.resolveStarted();
    this.#feed.connected(call);
    // The earlier page had put the AI on hold: the service kept the pause; the toggle says so again.
    if (resumed?.held) this.#optional.use('hold', (hold) => hold.setHeld(true)).catch(() => undefined);
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
    clearTimers(call);

    if (steps.now) {
      hangupNow(call, steps.now);
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

    const timeoutMs = call.options.resultTimeoutMs;
    const record =
      dial && steps.read !== 'none'
        ? await readRecord(call.companion, dial, steps.read, timeoutMs, () => hasEnded(call))
        : null;
    if (hasEnded(call)) return call.ended;
    if (record && isTerminal(record)) call.dialOver = true;
    if (dial && !call.dialOver) hangupNow(call, 'keepalive');
    const { reason, error } = settle(planned, record);
    if (error) this.dispatchEvent(new CallErrorEvent(error));
    this.#finish(call, reason, record, error);
    return call.ended;
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
    releasePage(this);
    // What belonged to the call: a mute (`call-mute` false), a hold (the service's pause belongs to the dial that is over).
    for (const feature of this.#optional.hooks) feature.ended?.(call);
    this.#enter(call, 'ended');
    this.dispatchEvent(new CallEndedEvent(result));
    call.resolveStarted();
    call.resolveEnded();
  }

  /** Lets go of everything the call added: listeners, timers, the features' own, microphone, audio element, room. */
  #release(call: ActiveCall): Promise<void> {
    if (isReleased(call.phase)) return Promise.resolve();
    this.#enter(call, 'released');
    clearTimers(call);
    call.service?.close();
    for (const feature of this.#optional.hooks) feature.released?.(call);
    call.mic?.stop();
    call.audio.release();
    this.#setAgentSpeaking(false);
    this.#setAudioBlocked(false);
    const media = call.media;
    call.media = null;
    return media ? media.disconnect().catch(() => undefined) : Promise.resolve();
  }

  // ---- small helpers ----

  /** Moves the call to `phase`; a change of the public state is checked against the transition table and announced. */
  #enter(call: ActiveCall, phase: CallPhase): void {
    const previous = this.state;
    if (stateOf(phase) !== previous) transition(previous, stateOf(phase));
    call.phase = phase;
    if (phase === 'connecting') for (const feature of this.#optional.hooks) feature.connecting?.(call);
    this.#announce(previous);
  }

  #announce(previous: CallState): void {
    const state = this.state;
    if (state !== previous) this.dispatchEvent(new CallStateEvent({ state, previous }));
  }

  #setAgentSpeaking(speaking: boolean): void {
    if (speaking === this.#agentSpeaking) return;
    this.#agentSpeaking = speaking;
    this.dispatchEvent(new AgentSpeakingEvent({ speaking }));
  }

  #setAudioBlocked(blocked: boolean): void {
    if (blocked === this.#audioBlocked) return;
    this.#audioBlocked = blocked;
    this.dispatchEvent(new AudioBlockedEvent({ blocked }));
  }
}
