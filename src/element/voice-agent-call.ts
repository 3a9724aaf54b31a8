import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { CallSession } from '../call/call-session.js';
import { captureGesture, releaseGesture, type CallHandover } from '../call/gesture.js';
import { loadMedia, preloadMedia } from '../call/media-loader.js';
import { isResting } from '../call/state-predicates.js';
import type {
  CallSessionLike,
  CallSessionOptions,
  CallState,
  TranscriptEntry,
  TransferState,
  TranscriptMode,
} from '../call/types.js';
import { loadCall, loadedCall, reportLoadFailure, requireCall, storedResume, type CallModule } from './call-loader.js';
import type { CallView } from './call-view.js';
import { renderCard, renderFloating, type CardModel } from './card-template.js';
import { consentGate, consentGateNow, wantsConsent } from './consent-loader.js';
import type { ConsentGate } from '../features/consent/consent-gate.js';
import { FloatingPanel } from './floating-panel.js';
import { PreloadController } from './preload.js';
import { enIdle, isRtlLanguage, loadLanguage, loadedLanguage } from './strings-idle.js';
import type { VoiceAgentCallStrings } from './strings.js';
import { styles } from './styles.js';

export type VoiceAgentCallLayout = 'inline' | 'floating';
export type VoiceAgentCallPlacement = 'bottom-right' | 'bottom-left';
export type VoiceAgentCallTheme = 'light' | 'dark' | 'auto';
/** When the element loads the call chunk and the media library (livekit-client) ahead of the first call. */
export type VoiceAgentCallPreload = 'none' | 'intent' | 'idle';
/** Where the consent gate remembers an agreement beyond the page (`consent-storage`). */
export type VoiceAgentCallConsentStorage = 'session' | 'local';
/** The rating after a call (`feedback`): `''` or `true` fires `call-feedback` only; `'server'` also posts it to the companion. */
export type VoiceAgentCallFeedback = '' | 'server' | boolean;
/** Makes the session an element drives; replace it to drive the element with another implementation. */
export type CallSessionFactory = (options: CallSessionOptions) => CallSessionLike;

/** The default factory: a `CallSession` from the call chunk (the element calls factories only once it has loaded). */
const defaultSessionFactory: CallSessionFactory = (options) => new (requireCall().CallSession)(options);

/**
 * A calling widget for an AI voice agent: one button starts a browser call through your
 * companion endpoint, shows what is happening, the live transcript and the result.
 *
 * The element renders state only; a `CallSession` owns the call. Import
 * `voice-agent-call/define` to register the tag. Until a visitor shows intent the element holds
 * only the idle card: the call logic, the in-call UI and other languages load lazily (the call
 * chunk, with a dynamic import), on intent, in idle time or on the click.
 *
 * @attr endpoint - Base URL of the companion endpoint, e.g. `/api/voice-call`.
 * @attr agent - Agent name the companion maps to an agent id.
 * @attr layout - `inline` (default: a card) or `floating` (a launcher bubble that opens a panel).
 * @attr placement - For `floating`: `bottom-right` (default) or `bottom-left`.
 * @attr transcript - `live` (default), `poll` or `off` (no transcript UI).
 * @attr theme - `light`, `dark` or `auto` (default: follows `prefers-color-scheme`).
 * @attr lang - Language of the built-in strings (`en` default, `ar` built in; RTL languages render right to left).
 * @attr state - Reflected, read-only: the call state, for `:host([state=in-call])` styling.
 * @attr open - For `floating`: whether the panel is open (it stays open during a call).
 *
 * @fires call-state - `{ state, previous }`: the call moved to another state.
 * @fires call-connected - `{ dialId }`: media connected and the agent is in the room.
 * @fires call-resumed - `{ dialId, awaySeconds }`: with `persist`, the call an earlier page of the site left is up again on this one (instead of a second `call-connected`).
 * @fires call-transcript - `{ entries, changed }`: a transcript entry was added or changed.
 * @fires call-mute - `{ muted }`: the microphone was muted or unmuted.
 * @fires call-hold - `{ held }`: the AI was paused (on hold) or resumed, through the service's `pauseAI`.
 * @fires call-dtmf - `{ digit }`: one keypad digit (DTMF) was sent.
 * @fires call-device - `{ kind, deviceId, label, fallback }`: the call moved to another microphone (`audioinput`) or speaker (`audiooutput`); `fallback` when the microphone in use went away and the call moved to the default one.
 * @fires call-quality - `{ quality, rttMs?, jitterMs?, packetLoss? }`: the connection's grade changed (`excellent`, `good`, `poor`, `lost`), from LiveKit's connection quality and the peer connection's stats; the card says "Weak connection" while it stays `poor` or `lost`.
 * @fires call-progress - `{ stage, ms, startMs }`: a stage of the call's setup is done (`microphone`, `dial`, `media`, `agent`, `firstAudio`), `ms` how long it took.
 * @fires call-transfer - `{ state }`: talk to a person: `requested` (the `transfer` control or `requestTransfer()`), `connected` (the service handed the call to a person), or `failed` (refused; the call stays with the agent).
 * @fires call-error - `{ code, message, recoverable }`: something failed; with `unsupported_browser` also `missing` (what the browser lacks).
 * @fires call-ended - `CallResult`: the call is over (exactly once per call that left `idle`); with a consent gate also `consentAt`, when the visitor agreed; `metrics` holds the call's timings (time to first audio, stages, reconnects, averaged rtt, jitter and packet loss).
 * @fires call-consent - `{ accepted, at }`: the visitor agreed to the consent gate ("Agree and call") or cancelled it; `at` is an ISO time.
 * @fires call-feedback - `{ dialId, rating, comment? }`: the visitor rated the call (`rating` `up` or `down`), after "Send" or "Skip".
 *
 * @slot title - Replaces the title text in the header.
 * @slot logo - Replaces the avatar's default sound-bars glyph (e.g. an `<img>`).
 * @slot consent - The disclosure of the consent gate as rich content (links to the terms and privacy pages); replaces the `consent` attribute's text.
 *
 * @csspart card - The card (inline) or the panel's card (floating).
 * @csspart panel - The floating panel (floating only).
 * @csspart launcher - The floating launcher bubble (floating only).
 * @csspart header - The header row (avatar, title, status, timer).
 * @csspart indicator - The avatar that shows when the agent speaks.
 * @csspart title - The title.
 * @csspart status - The status line ("Connecting…", "Listening", …).
 * @csspart timer - The call timer (mm:ss).
 * @csspart close-button - The panel's close button (floating only).
 * @csspart body - The area between header and controls.
 * @csspart voices - Who is speaking and how loud, live: a meter per side, from `starting` to `ending` (hidden from assistive tech; the status line says who speaks). Inside it `var(--vac-agent-level)` and `var(--vac-visitor-level)` are the levels, 0 to 1. With `prefers-reduced-motion` the meters stand still and only the speaking side is marked.
 * @csspart voice - Each side's meter and name; also `voice-agent`, `voice-visitor`. Has `data-speaking` while that side speaks.
 * @csspart audio-notice - The notice shown when the browser blocked the agent's audio.
 * @csspart unlock-button - "Tap to enable audio".
 * @csspart resume-notice - With `persist`: the call taken up from an earlier page waits because the browser asks for the microphone again on this page.
 * @csspart resume-button - "Tap to continue the call": asks for the microphone inside the tap and continues the call.
 * @csspart transcript - The transcript log.
 * @csspart entry - Each transcript bubble; also `entry-ai`, `entry-human`, `entry-interim`, and `entry-person` for the other side's lines once the call went to a person.
 * @csspart jump-button - "Jump to latest", shown when the visitor scrolled up and new lines arrived.
 * @csspart earlier-button - "Show earlier lines", at the top of a long transcript (only the newest 100 lines are shown at first).
 * @csspart error - What went wrong and what to do.
 * @csspart summary - The line after the end, under the status "Call ended" ("Agent hung up · 01:23": the reason and the duration `call-ended` reports).
 * @csspart controls - The button row.
 * @csspart call-button - Start call / Call again / Try again.
 * @csspart fallback-link - The site's other way to reach it (the `fallback` attribute), shown instead of the call button when the browser cannot place voice calls.
 * @csspart mute-button - The mute toggle: "Mute", pressed (`aria-pressed="true"`) while the microphone is muted.
 * @csspart hangup-button - Hang up.
 * @csspart transfer-button - "Talk to a person" (`controls` has `transfer`): hands the call to the business's own line (`requestTransfer()`); `aria-disabled="true"` while it is asked. Absent when the companion offers no transfer (no number configured) and once one was asked.
 * @csspart hold-button - The hold toggle (`controls` has `hold`): "Hold", pressed (`aria-pressed="true"`) while the AI is paused. Absent when the companion gave no service session.
 * @csspart hold-mark - A line in the transcript where a hold began ("On hold") or ended ("Resumed").
 * @csspart keypad-button - Opens and closes the keypad (`controls` has `keypad`; `aria-expanded`).
 * @csspart keypad - The 12-key pad (0–9, `*`, `#`); each key sends one DTMF digit, and so does typing one while it is open. Escape closes it.
 * @csspart keypad-key - Each key of the pad.
 * @csspart devices-button - Opens and closes the microphone and speaker menu (`controls` has `devices`; `aria-expanded`).
 * @csspart devices - The menu: the microphones, and the speakers where the browser can route audio (`setSinkId`). Escape closes it.
 * @csspart device-notice - What changed on its own: the microphone in use went away and the call moved to another, or a choice could not be used.
 * @csspart consent - The consent gate's disclosure (its label and the `consent` text or slot), shown instead of the idle hint.
 * @csspart consent-agree - "Agree and call".
 * @csspart consent-cancel - "Cancel": back to idle, nothing asked for.
 * @csspart weak-connection - "Weak connection": shown while the connection's quality stays poor or lost for a few seconds (`call-quality`).
 * @csspart feedback - The rating after the call: the question and thumbs, then the comment, then the thanks.
 * @csspart feedback-up - Thumbs up (`aria-pressed="true"` once chosen).
 * @csspart feedback-down - Thumbs down (`aria-pressed="true"` once chosen).
 * @csspart feedback-comment - The optional comment (a textarea, at most 500 characters).
 * @csspart feedback-send - "Send": the rating with the comment.
 * @csspart feedback-skip - "Skip": the rating without a comment.
 *
 * @cssprop [--vac-accent=#4f46e5] - Accent: call button, visitor bubbles, focus rings.
 * @cssprop [--vac-accent-text=#ffffff] - Text on the accent colour.
 * @cssprop [--vac-accent-2=#c026d3] - Second colour of the avatar and launcher gradient.
 * @cssprop [--vac-background=#ffffff] - Card background.
 * @cssprop [--vac-surface=#f3f4f8] - Secondary surfaces (timer, mute button).
 * @cssprop [--vac-text=#15161c] - Text colour.
 * @cssprop [--vac-text-muted=#5c6070] - Secondary text colour.
 * @cssprop [--vac-border=rgba(17,19,38,.1)] - Card border.
 * @cssprop [--vac-ai-bubble-background=#f1f2f6] - Agent bubbles.
 * @cssprop [--vac-ai-bubble-text=var(--vac-text)] - Agent bubble text.
 * @cssprop [--vac-human-bubble-background=var(--vac-accent)] - Visitor bubbles.
 * @cssprop [--vac-human-bubble-text=var(--vac-accent-text)] - Visitor bubble text.
 * @cssprop [--vac-danger=#dc2626] - Hang-up button and errors.
 * @cssprop [--vac-danger-text=#ffffff] - Text on the danger colour.
 * @cssprop [--vac-live=#16a34a] - "In call" dot.
 * @cssprop [--vac-warning=#d97706] - "Connecting" dot.
 * @cssprop [--vac-radius=20px] - Card corner radius.
 * @cssprop [--vac-font=system-ui] - Font family.
 * @cssprop --vac-shadow - Card shadow.
 * @cssprop [--vac-width=360px] - Card and panel width.
 * @cssprop [--vac-transcript-height=260px] - Maximum transcript height before it scrolls.
 * @cssprop [--vac-launcher-size=56px] - Floating launcher diameter.
 * @cssprop [--vac-offset=20px] - Floating distance from the viewport corner.
 * @cssprop [--vac-z-index=2147483000] - Floating stacking order.
 */
export class VoiceAgentCall extends LitElement {
  static override styles = styles;

  static override properties = {
    endpoint: { type: String },
    agent: { type: String },
    layout: { type: String, reflect: true },
    placement: { type: String, reflect: true },
    transcriptMode: { type: String, attribute: 'transcript' },
    theme: { type: String, reflect: true },
    open: { type: Boolean, reflect: true },
    preload: { type: String },
    fallback: { type: String },
    debug: { type: Boolean },
    controls: { type: String },
    consent: { type: String },
    consentStorage: { type: String, attribute: 'consent-storage' },
    feedback: { type: String },
    rememberDevices: { type: Boolean, attribute: 'remember-devices' },
    metrics: { type: String },
    persist: { type: Boolean },
    inputs: { attribute: false },
    strings: { attribute: false },
    _lang: { attribute: 'lang' },
    _preparing: { state: true },
  };

  /**
   * Makes each element's session: a `CallSession` from the call chunk, or another `CallSessionLike` (set
   * before the first call), started once the call chunk has loaded, maybe after the click: the click's
   * microphone request and audio unlock go only to the element's own `CallSession`.
   */
  static sessionFactory: CallSessionFactory = defaultSessionFactory;

  /** Loads the media library ahead of a call (`preload`); replaceable, e.g. with the session factory. */
  static mediaPreloader: () => Promise<void> = preloadMedia;

  /** With `preload="idle"`: how long after the element is connected the idle-time load is scheduled. */
  static idlePreloadDelayMs = 3000;

  endpoint?: string;
  agent?: string;
  layout?: VoiceAgentCallLayout;
  placement?: VoiceAgentCallPlacement;
  /** The `transcript` attribute (the `transcript` property is the list of entries). */
  transcriptMode?: TranscriptMode;
  theme?: VoiceAgentCallTheme;
  /** Floating layout: the panel is open. */
  open = false;
  /**
   * When to load the call chunk (call logic, in-call UI) and the media library (livekit-client) ahead
   * of the call: `intent` (default: when the pointer enters or focus reaches the call button or
   * launcher), `idle` (also in idle time a few seconds after connecting) or `none` (on the click).
   */
  preload?: VoiceAgentCallPreload;
  /**
   * Another way to reach you, shown instead of "Try again" when the visitor's browser cannot
   * place voice calls: `tel:+15550100`, a page URL, `mailto:` or `sms:` (other schemes are ignored).
   */
  fallback?: string;
  /**
   * The media library's (livekit-client's) own console logs, at its `debug` level, from the next call.
   * Off by default: it logs expected ends (a hang-up, a drop) as errors, and every outcome is an event.
   */
  debug = false;
  /**
   * The in-call controls shown, a space-separated list of `mute`, `devices` (microphone and
   * speaker), `keypad` (DTMF), `hold` (pause the AI) and `transfer` ("Talk to a person", when the
   * companion offers it); default `mute devices`. Unknown tokens are ignored; hang-up always shows.
   */
  controls?: string;
  /**
   * A disclosure the visitor must agree to before each call (e.g. that calls are recorded): the call
   * button first shows it with "Agree and call" and "Cancel"; nothing is asked of the browser and no
   * dial is created before "Agree". The `consent` slot takes rich content instead. Asked once per page.
   */
  consent?: string;
  /**
   * Where an agreement is remembered beyond the page: `session` (sessionStorage) or `local`
   * (localStorage), under a key holding a hash of the disclosure, so a changed text asks again.
   * Unset (default): nothing is written.
   */
  consentStorage?: VoiceAgentCallConsentStorage;
  /**
   * Ask for a rating after a call that connected: the ended card asks "How was this call?" with thumbs
   * up and down, then an optional comment (at most 500 characters) with "Send" and "Skip"; fires
   * `call-feedback`. `feedback="server"` also posts it to the companion (`POST {endpoint}/dials/:id/feedback`,
   * authorised by the dial's handle, one rating per dial), where the site's `onFeedback` hook gets it.
   */
  feedback?: VoiceAgentCallFeedback;
  /**
   * Boolean: keep the microphone and speaker the visitor chose in `localStorage` and use them in
   * later calls. Off by default: nothing is stored. Read when a call starts.
   */
  rememberDevices = false;
  /**
   * `server`: each call's `metrics` (as on `call-ended`) are also posted once to the companion (`POST
   * {endpoint}/dials/:id/metrics`, by beacon when the page is leaving), which keeps them as the site's
   * real-user histograms (time to first audio, setup stages) in its `/metrics`.
   */
  metrics?: 'server';
  /**
   * Boolean: the call survives the page. When the visitor follows a link or reloads mid-call, the call
   * leaves without hanging up and keeps what it needs in this tab's `sessionStorage`; the next page's
   * `<voice-agent-call persist>` for the same endpoint rejoins it at once, without a click ("Reconnecting…",
   * then the call with its transcript and timer; `call-resumed`). Off by default: leaving hangs up.
   */
  persist = false;
  /** Forwarded to the companion, which decides which keys reach the agent. */
  inputs?: Record<string, string>;
  /** Overrides any built-in string, in any language. */
  strings?: Partial<VoiceAgentCallStrings>;

  private _lang?: string;
  /** The visitor clicked call before the call chunk had loaded: it is loading, the card says so. */
  private _preparing = false;
  #pendingStart: Promise<void> | null = null;
  #consentLoad: Promise<unknown> | null = null;
  /** A mute set before the call chunk loaded; applied to the session once it exists. */
  #pendingMuted: boolean | null = null;
  #focusWasInside = false;
  /** Looked for a call an earlier page left (`persist`) once the element had its endpoint. */
  #resumeLooked = false;
  /** Loads the call chunk and the media library ahead of the click (`preload`). */
  readonly #preloader = new PreloadController(this, (module) => module.ahead(() => this.#view(module)));
  /** The floating layout's panel: the launcher, the close button, Escape. */
  readonly #panel = new FloatingPanel(this, () => this.#focusPrimary());
  /** The in-call part (call chunk): made with the session. */
  private _view: CallView | null = null;
  /** The consent gate (its own chunk): made on the first click of an element with `consent`. */
  private _consent: ConsentGate | null = null;

  /** The call state (read-only; reflected as the `state` attribute). */
  get state(): CallState {
    return this._view?.state ?? 'idle';
  }

  /** The current or last dial's id, or null. */
  get dialId(): string | null {
    return this._view?.call.session?.dialId ?? null;
  }

  /** Whether the microphone is muted. */
  get muted(): boolean {
    return this._view?.call.session?.muted ?? this.#pendingMuted ?? false;
  }

  /** Whether the call is on hold (the AI paused). */
  get held(): boolean {
    return !!this._view?.call.session?.held;
  }

  /** Talk to a person in the current or last call: `none`, `requested`, `connected` or `failed`. */
  get transferState(): TransferState {
    return this._view?.call.session?.transferState ?? 'none';
  }

  /** The microphone in use (or chosen for the next call); null: the browser's default. */
  get microphoneId(): string | null {
    return this._view?.call.session?.microphoneId ?? null;
  }

  /** The speaker the agent plays on (or chosen for the next call); null: the browser's default. */
  get speakerId(): string | null {
    return this._view?.call.session?.speakerId ?? null;
  }

  /** The transcript of the current or last call (a copy). */
  get transcript(): TranscriptEntry[] {
    return this._view?.call.session?.transcript ?? [];
  }

  /**
   * Starts a call (from `idle` or `ended`); resolves once it is in the call or has ended. Call it
   * from a click: when the call chunk has not loaded yet, the microphone request and the audio
   * unlock happen here, inside the click, and the session takes them over once it has loaded.
   * With `consent`, it shows the consent gate first (unless the visitor agreed already) and
   * resolves once the call started from "Agree and call" is in the call or has ended, or once
   * the visitor cancelled.
   */
  start(): Promise<void> {
    if (this.#pendingStart) return this.#pendingStart;
    // The floating panel opens on the click: the consent gate, "Preparing the call…" or the call shows in it.
    if (this.layout === 'floating') this.open = true;
    const module = loadedCall();
    if (module) this.#session(module);
    // A gate made before decides (with `consent` gone too); a new one is made at once when its chunk is here.
    if (!(this._consent || wantsConsent(this))) return this.#startCall();
    this._consent ??= consentGateNow(this);
    return this._consent?.ask(() => this.#startCall()) ?? (this.#pendingStart = this.#askConsent());
  }

  /** The consent gate's chunk first (the disclosure shows as soon as it arrives), the call's behind it. */
  async #askConsent(): Promise<void> {
    this._preparing = true;
    const gate = (this._consent ??= await (this.#consentLoad = consentGate(this)));
    this._preparing = false;
    this.#pendingStart = null;
    return gate?.ask(() => this.#startCall());
  }

  #startCall(): Promise<void> {
    const module = loadedCall();
    return module ? this.#startNow(module) : (this.#pendingStart = this.#startAfterLoad());
  }

  /** Hangs up; resolves once the call has ended. */
  async hangup(): Promise<void> {
    await this._view?.call.session?.hangup();
  }

  /** Mutes or unmutes the microphone, in any state: a mute set between calls carries into the next call, and each call's mute ends with it (a new call starts unmuted); fires `call-mute` on a real change. */
  setMuted(muted: boolean): void {
    const module = loadedCall();
    if (module) {
      this.#session(module).setMuted(muted);
      return;
    }
    if (muted === this.muted) return;
    this.#pendingMuted = muted;
    this.requestUpdate();
    loadCall().then(
      (loaded) => this.#session(loaded),
      () => undefined,
    );
  }

  /** Puts the call on hold (pauses the AI through the service) or resumes it; rejects when there is no call to hold or the service refused (the toggle goes back, `call-error` `hold_failed`). Fires `call-hold`. */
  setHeld(held: boolean): Promise<void> {
    return loadCall().then((module) => this.#session(module).setHeld?.(held));
  }

  /** Asks the companion to hand the call to a person (the site owner's number); fires `call-transfer`. Rejects when there is no call, the companion offers no transfer, one was asked already, or the service refused (`call-error` `transfer_failed`; the call stays with the agent). */
  requestTransfer(): Promise<void> {
    return loadCall().then((module) => {
      const session = this.#session(module);
      if (!session.requestTransfer) throw new Error('requestTransfer: this call session cannot transfer');
      return session.requestTransfer();
    });
  }

  /** Sends keypad digits (`0`-`9`, `*`, `#`) as DTMF, one `call-dtmf` each; anything else rejects with a `RangeError` and sends nothing. */
  sendDigits(digits: string): Promise<void> {
    return loadCall().then((module) => this.#session(module).sendDigits?.(digits));
  }

  /** Moves the call (or the next one) to the microphone `deviceId` names, without a gap; fires `call-device`. */
  setMicrophone(deviceId: string): Promise<void> {
    return loadCall().then((module) => this.#session(module).setMicrophone?.(deviceId));
  }

  /** Plays the agent (now and in later calls) on the speaker `deviceId` names, where the browser can; fires `call-device`. */
  setSpeaker(deviceId: string): Promise<void> {
    return loadCall().then((module) => this.#session(module).setSpeaker?.(deviceId));
  }

  /** A copy of the transcript of the current or last call, in order (the service's lines once the call has ended). */
  getTranscript(): TranscriptEntry[] {
    return this.transcript;
  }

  static override get observedAttributes(): string[] {
    return [...super.observedAttributes, 'state'];
  }

  override attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    // `state` belongs to the element: a write from outside is put back.
    if (name !== 'state') super.attributeChangedCallback(name, old, value);
    else if (value !== this.state) this.setAttribute('state', this.state);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#reflectState();
  }

  override requestUpdate(
    name?: PropertyKey,
    oldValue?: unknown,
    options?: Parameters<LitElement['requestUpdate']>[2],
  ): void {
    if (name !== undefined) this._view?.fullUpdate();
    super.requestUpdate(name, oldValue, options);
  }

  /**
   * A built-in language other than English is loaded before the element renders in it; an update
   * only transcript lines asked for waits for the next frame (the view's `gate()`).
   */
  protected override async scheduleUpdate(): Promise<void> {
    const language = loadLanguage(this._lang);
    if (language) await language;
    // The card shows the consent gate, not a frame of "Preparing the call…" before it.
    if (this.#consentLoad && !this._consent) await this.#consentLoad;
    const gate = this._view?.gate();
    if (gate) await gate;
    super.scheduleUpdate();
  }

  /** The click came before the call chunk: the gesture's parts now, the session once the chunk is here. */
  async #startAfterLoad(): Promise<void> {
    const own = (this.constructor as typeof VoiceAgentCall).sessionFactory === defaultSessionFactory;
    // With a consent gate (features/consent) this runs only after "Agree".
    const able = own && typeof globalThis.RTCPeerConnection === 'function'; // why: captureGesture's note
    const handover = able ? captureGesture(this.shadowRoot ?? document.body) : null;
    // The call chunk first (the dial waits for it), the media chunk beside it, not after it.
    const call = loadCall();
    if (able) loadMedia().catch(() => undefined);
    this._preparing = true;
    const loaded = await call.then(
      (module) => ({ module }),
      (error: unknown) => ({ error }),
    );
    // Removed while the chunk loaded: no call for an element that is gone.
    const started = 'module' in loaded && this.isConnected ? this.#startNow(loaded.module, handover) : null;
    if (!started && handover) releaseGesture(handover);
    this._preparing = false;
    this.#pendingStart = null;
    if ('error' in loaded) reportLoadFailure(this, loaded.error);
    await started;
  }

  #startNow(module: CallModule, handover?: CallHandover | null): Promise<void> {
    // (A call opens the floating panel: the view does, on the session's first `call-state`.)
    const session = this.#session(module);
    if (isResting(session.state)) session.configure(module.sessionOptions(this, this._consent?.consentAt));
    return handover ? (session as CallSession).start(handover) : session.start();
  }

  /** The call's view: made on intent once the call chunk is in (preload.ts), else by the click. */
  #view(module: CallModule): CallView {
    return (this._view ??= new module.CallView(this, () => this._consent?.consentAt));
  }

  #session(module: CallModule, adopted?: CallSessionLike): CallSessionLike {
    const session = this.#view(module).session(adopted);
    if (this.#pendingMuted !== null) {
      session.setMuted(this.#pendingMuted);
      this.#pendingMuted = null;
    }
    return session;
  }

  #reflectState(): void {
    if (this.getAttribute('state') !== this.state) this.setAttribute('state', this.state);
  }

  /**
   * The strings to show: the built-in language (English until another has loaded; the idle
   * card's English until the call chunk brings the rest) with the `strings` overrides on top.
   * Keys beyond the idle card's are read only once a session exists, so with the call chunk.
   */
  #shownStrings(): VoiceAgentCallStrings {
    const base =
      loadedLanguage(this._lang) ??
      (loadedCall()?.en as VoiceAgentCallStrings | undefined) ??
      (enIdle as VoiceAgentCallStrings);
    return this.strings ? { ...base, ...this.strings } : base;
  }

  protected override willUpdate(_changed: PropertyValues): void {
    this.#focusWasInside = this.shadowRoot?.activeElement != null;
  }

  /** Takes up, without a click, a live call a re-mount left or (`persist`) an earlier page left: in-call.ts `takeOver`. */
  #lookForResume(): void {
    if (this.#resumeLooked || !this.endpoint) return;
    this.#resumeLooked = true;
    const takeOver = (module: CallModule) =>
      module.takeOver(this, (adopted) => this.#session(module, adopted), this._consent?.consentAt);
    const module = loadedCall();
    if (module) takeOver(module);
    else if (this.persist && storedResume()) loadCall().then(takeOver, reportLoadFailure.bind(null, this));
  }

  protected override updated(_changed: PropertyValues): void {
    this.#lookForResume();
    // The control that had focus went away with the state (hang-up after the end): keep focus in
    // the widget, on the action that makes sense now. (While the call sets up, the view has put it
    // on the card already: call-view.ts, hostUpdated.)
    if (this.#focusWasInside && this.shadowRoot?.activeElement == null) this.#focusPrimary();
  }

  #focusPrimary(): void {
    // A question the card asks first (the rating's, with `feedback`) comes before the primary
    // action, so a keyboard or screen-reader visitor meets it instead of skipping past it.
    const first =
      this.renderRoot.querySelector<HTMLElement>('[data-focus-first]') ??
      this.renderRoot.querySelector<HTMLElement>('[data-primary]');
    first?.focus();
  }

  readonly #onStartClick = (): void => void this.start();

  // ---- rendering: the idle card (card-template.ts); what only a call shows comes from the view ----

  /** What the card's template reads of the element. */
  #card(): CardModel {
    return {
      state: this.state,
      view: this._view,
      consent: this._consent,
      preparing: this._preparing,
      open: this.open,
      fallback: this.fallback,
      intent: this.#preloader.intent,
      onStart: this.#onStartClick,
      onLauncher: this.#panel.onLauncher,
      onClose: this.#panel.onClose,
    };
  }

  override render(): TemplateResult {
    const s = this.#shownStrings();
    const floating = this.layout === 'floating';
    const error = this._view?.error(s) ?? null;
    const left = floating && this.placement === 'bottom-left';
    return html`<div
      class="root${floating ? ' floating' : ''}${left ? ' left' : ''}"
      dir=${isRtlLanguage(this._lang) ? 'rtl' : nothing}
      data-state=${this.state}
      ?data-held=${this.held}
      ?data-error=${error !== null}
      @keydown=${floating ? this.#panel.onKeydown : undefined}
    >
      ${floating ? renderFloating(this.#card(), s) : renderCard(this.#card(), s, false)}
      <div class="sr-only" role="status" aria-live="polite" aria-atomic="true">${this._consent?.announcement(s) ?? this._view?.announcement(s) ?? ''}</div>
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'voice-agent-call': VoiceAgentCall;
  }
}
