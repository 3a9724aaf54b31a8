import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { classMap } from 'lit/directives/class-map.js';
import { guard } from 'lit/directives/guard.js';
import { ifDefined } from 'lit/directives/if-defined.js';
import { repeat } from 'lit/directives/repeat.js';
import type {
  CallSessionEventMap,
  CallSessionLike,
  CallSessionOptions,
  CallState,
  TranscriptEntry,
  TranscriptMode,
} from '../call/types.js';
import { CallSession, preloadMedia } from '../call/call-session.js';
import type { CallTranscriptEvent } from '../call/events.js';
import { CallController } from './call-controller.js';
import { alertIcon, arrowDownIcon, closeIcon, hangupIcon, micIcon, micOffIcon, phoneIcon, speakerIcon } from './icons.js';
import {
  errorText,
  formatDuration,
  isRtlLanguage,
  reasonText,
  resolveStrings,
  type VoiceAgentCallStrings,
} from './strings.js';
import { styles } from './styles.js';

export type VoiceAgentCallLayout = 'inline' | 'floating';
export type VoiceAgentCallPlacement = 'bottom-right' | 'bottom-left';
export type VoiceAgentCallTheme = 'light' | 'dark' | 'auto';
/** When the element loads the media library (livekit-client) ahead of the first call. */
export type VoiceAgentCallPreload = 'none' | 'intent' | 'idle';
/** Makes the session an element drives; replace it to drive the element with another implementation. */
export type CallSessionFactory = (options: CallSessionOptions) => CallSessionLike;

const RESTING: ReadonlySet<CallState> = new Set<CallState>(['idle', 'ended']);
const CONNECTING: ReadonlySet<CallState> = new Set<CallState>(['starting', 'connecting', 'reconnecting']);
/** How many of the newest transcript lines are in the DOM; "Show earlier" reveals this many more. */
const TRANSCRIPT_WINDOW = 100;

/** The next frame, or a short timeout where frames do not come (a hidden tab). */
function nextFrame(): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      cancelAnimationFrame(frame);
      resolve();
    };
    const timer = setTimeout(done, 100);
    const frame = requestAnimationFrame(done);
  });
}

/**
 * A calling widget for an AI voice agent: one button starts a browser call through your
 * companion endpoint, shows what is happening, the live transcript and the result.
 *
 * The element renders state only; a `CallSession` owns the call. Import
 * `voice-agent-call/define` to register the tag.
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
 * @attr preload - When to load the media library (livekit-client) ahead of the call: `intent` (default: when the pointer enters or focus reaches the call button or launcher), `idle` (also in idle time a few seconds after the element is shown) or `none` (only on the click).
 *
 * @fires call-state - `{ state, previous }`: the call moved to another state.
 * @fires call-connected - `{ dialId }`: media connected and the agent is in the room.
 * @fires call-transcript - `{ entries, changed }`: a transcript entry was added or changed.
 * @fires call-mute - `{ muted }`: the microphone was muted or unmuted.
 * @fires call-error - `{ code, message, recoverable }`: something failed.
 * @fires call-ended - `CallResult`: the call is over (exactly once per call that left `idle`).
 *
 * @slot title - Replaces the title text in the header.
 * @slot logo - Replaces the avatar's default sound-bars glyph (e.g. an `<img>`).
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
 * @csspart audio-notice - The notice shown when the browser blocked the agent's audio.
 * @csspart unlock-button - "Tap to enable audio".
 * @csspart transcript - The transcript log.
 * @csspart entry - Each transcript bubble; also `entry-ai`, `entry-human`, `entry-interim`.
 * @csspart jump-button - "Jump to latest", shown when the visitor scrolled up and new lines arrived.
 * @csspart earlier-button - "Show earlier lines", at the top of a long transcript (only the newest 100 lines are shown at first).
 * @csspart error - What went wrong and what to do.
 * @csspart summary - The line after the end ("Call ended · agent hung up · 01:23").
 * @csspart controls - The button row.
 * @csspart call-button - Start call / Call again / Try again.
 * @csspart mute-button - The mute toggle (`aria-pressed`).
 * @csspart hangup-button - Hang up.
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
    inputs: { attribute: false },
    strings: { attribute: false },
    _lang: { attribute: 'lang' },
    _stuckToBottom: { state: true },
    _unseen: { state: true },
  };

  /**
   * Makes each element's session. The default builds a `CallSession`; tests and other
   * implementations of `CallSessionLike` can replace it (before the element's first call).
   */
  static sessionFactory: CallSessionFactory = (options) => new CallSession(options);

  /** Loads the media library ahead of a call (`preload`); replaceable, e.g. with the session factory. */
  static mediaPreloader: () => Promise<void> = preloadMedia;

  /** With `preload="idle"`: how long after the element is connected the idle-time load is scheduled. */
  static idlePreloadDelayMs = 3000;

  /** Base URL of the companion endpoint, e.g. `/api/voice-call`. */
  endpoint?: string;
  /** Agent name the companion maps to an agent id. */
  agent?: string;
  layout?: VoiceAgentCallLayout;
  placement?: VoiceAgentCallPlacement;
  /** The `transcript` attribute (the `transcript` property is the list of entries). */
  transcriptMode?: TranscriptMode;
  theme?: VoiceAgentCallTheme;
  /** Floating layout: the panel is open. */
  open = false;
  /**
   * When to load the media library (livekit-client) ahead of the call: `intent` (default: when the
   * pointer enters or focus reaches the call button or launcher), `idle` (also in idle time a few
   * seconds after the element is connected) or `none` (only on the click).
   */
  preload?: VoiceAgentCallPreload;
  /** Forwarded to the companion, which decides which keys reach the agent. */
  inputs?: Record<string, string>;
  /** Overrides any built-in string, in any language. */
  strings?: Partial<VoiceAgentCallStrings>;

  private _lang?: string;
  private _stuckToBottom = true;
  private _unseen = false;
  private _focusWasInside = false;
  /** The entries being rendered: the last `call-transcript`'s list, or read from the session after a state change. */
  private _entries: TranscriptEntry[] | null = null;
  /** Index of the first rendered entry, and how many of the newest entries to render while following. */
  private _firstShown = 0;
  private _windowSize = TRANSCRIPT_WINDOW;
  /** The entries and log the log was last scrolled to the end for. */
  private _followed: { entries: TranscriptEntry[]; log: HTMLElement } | null = null;
  /** Only transcript lines asked for the pending update: it waits for the next frame. */
  private _transcriptOnly = false;
  private _preloadRequested = false;
  private _idlePreload: (() => void) | null = null;

  private readonly _call = new CallController(this, {
    onSessionEvent: (type, event) => this._onSessionEvent(type, event),
  });

  /** The call state (read-only; reflected as the `state` attribute). */
  get state(): CallState {
    return this._call.state;
  }

  /** The current or last dial's id, or null. */
  get dialId(): string | null {
    return this._call.session?.dialId ?? null;
  }

  /** Whether the microphone is muted. */
  get muted(): boolean {
    return this._call.session?.muted ?? false;
  }

  /** The transcript of the current or last call (a copy). */
  get transcript(): TranscriptEntry[] {
    return this._call.session?.transcript ?? [];
  }

  /** Starts a call (from `idle` or `ended`); resolves once it is in the call or has ended. */
  async start(): Promise<void> {
    const session = this._session();
    if (RESTING.has(session.state)) session.configure(this._sessionOptions());
    if (this._layout === 'floating') this.open = true;
    await session.start();
  }

  /** Hangs up; resolves once the call has ended. */
  async hangup(): Promise<void> {
    await this._call.session?.hangup();
  }

  /** Mutes or unmutes the microphone, in any state (a mute set before a call carries into it); fires `call-mute` on a real change. */
  setMuted(muted: boolean): void {
    this._session().setMuted(muted);
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
    if (name === 'state') {
      if (value !== this.state) this.setAttribute('state', this.state);
      return;
    }
    super.attributeChangedCallback(name, old, value);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this._reflectState();
    if (this._preloadMode === 'idle') this._scheduleIdlePreload();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this._idlePreload?.();
    this._idlePreload = null;
  }

  override requestUpdate(name?: PropertyKey, oldValue?: unknown, options?: Parameters<LitElement['requestUpdate']>[2]): void {
    if (name !== undefined) this._transcriptOnly = false;
    super.requestUpdate(name, oldValue, options);
  }

  /**
   * Lit renders once per microtask; transcript lines can arrive many times a frame (interim
   * segments), so an update only they asked for waits for the next frame and renders them at once.
   */
  protected override async scheduleUpdate(): Promise<void> {
    if (this._transcriptOnly) await nextFrame();
    this._transcriptOnly = false;
    super.scheduleUpdate();
  }

  private get _preloadMode(): VoiceAgentCallPreload {
    return this.preload === 'none' || this.preload === 'idle' ? this.preload : 'intent';
  }

  /** Loads the media library once, unless `preload="none"`; a failed load may be tried again. */
  private _preloadMedia(): void {
    if (this._preloadMode === 'none' || this._preloadRequested) return;
    this._preloadRequested = true;
    (this.constructor as typeof VoiceAgentCall).mediaPreloader().catch(() => {
      this._preloadRequested = false;
    });
  }

  private _scheduleIdlePreload(): void {
    if (this._idlePreload || this._preloadRequested) return;
    let idle: number | undefined;
    const timer = setTimeout(() => {
      if (typeof requestIdleCallback === 'function') {
        idle = requestIdleCallback(() => this._preloadMedia(), { timeout: 2000 });
      } else {
        this._preloadMedia();
      }
    }, (this.constructor as typeof VoiceAgentCall).idlePreloadDelayMs);
    this._idlePreload = () => {
      clearTimeout(timer);
      if (idle !== undefined) cancelIdleCallback(idle);
    };
  }

  private get _layout(): VoiceAgentCallLayout {
    return this.layout === 'floating' ? 'floating' : 'inline';
  }

  private get _transcriptMode(): TranscriptMode {
    return this.transcriptMode === 'poll' || this.transcriptMode === 'off' ? this.transcriptMode : 'live';
  }

  private _session(): CallSessionLike {
    const existing = this._call.session;
    if (existing) return existing;
    const session = (this.constructor as typeof VoiceAgentCall).sessionFactory(this._sessionOptions());
    this._call.bind(session);
    return session;
  }

  private _sessionOptions(): CallSessionOptions {
    const options: CallSessionOptions = { endpoint: this.endpoint ?? '', transcript: this._transcriptMode };
    if (this.agent) options.agent = this.agent;
    if (this.inputs) options.inputs = { ...this.inputs };
    if (this.shadowRoot) options.audioContainer = this.shadowRoot;
    return options;
  }

  private _reflectState(): void {
    if (this.getAttribute('state') !== this.state) this.setAttribute('state', this.state);
  }

  private _onSessionEvent(type: keyof CallSessionEventMap, event: Event): void {
    if (type === 'call-transcript') {
      // The event's list is already the session's fresh copy: render it, do not copy again.
      if (!this.isUpdatePending) this._transcriptOnly = true;
      this._entries = (event as CallTranscriptEvent).detail.entries;
      if (!this._stuckToBottom) this._unseen = true;
      return;
    }
    this._transcriptOnly = false;
    if (type === 'call-state' || type === 'call-ended') this._entries = null;
    if (type === 'call-state') {
      this._reflectState();
      if (!RESTING.has(this.state) && this._layout === 'floating') this.open = true;
      if (this.state === 'starting') {
        this._stuckToBottom = true;
        this._unseen = false;
        this._firstShown = 0;
        this._windowSize = TRANSCRIPT_WINDOW;
      }
    }
  }

  /** The entries to render (no copy per render: the list changes only with an event). */
  private _renderedEntries(): TranscriptEntry[] {
    this._entries ??= this.transcript;
    return this._entries;
  }

  protected override willUpdate(_changed: PropertyValues): void {
    this._focusWasInside = this.shadowRoot?.activeElement != null;
    // Following the end, the window slides with the newest lines; scrolled up, it stays put so
    // the lines being read do not move.
    const newest = Math.max(0, this._renderedEntries().length - this._windowSize);
    this._firstShown = this._stuckToBottom ? newest : Math.min(this._firstShown, newest);
  }

  protected override updated(_changed: PropertyValues): void {
    const log = this.renderRoot.querySelector<HTMLElement>('.transcript');
    const entries = this._renderedEntries();
    // Only a change to the log scrolls it (reading scrollHeight costs a layout; the timer ticks every second).
    if (log && this._stuckToBottom && (this._followed?.entries !== entries || this._followed.log !== log)) {
      log.scrollTop = log.scrollHeight;
      this._followed = { entries, log };
    }
    // The control that had focus went away with the state (hang-up after the end): keep focus in
    // the widget, on the action that makes sense now.
    if (this._focusWasInside && this.shadowRoot?.activeElement == null) this._focusPrimary();
  }

  private _focusPrimary(): void {
    this.renderRoot.querySelector<HTMLElement>('[data-primary]')?.focus();
  }

  // ---- UI handlers ----

  private readonly _onStartClick = (): void => {
    void this.start();
  };

  private readonly _onHangupClick = (): void => {
    void this.hangup();
  };

  private readonly _onMuteClick = (): void => {
    this.setMuted(!this.muted);
  };

  private readonly _onUnlockClick = (): void => {
    void this._call.session?.unlockAudio();
  };

  private readonly _onLauncherClick = (): void => {
    if (!this.open) void this._openPanel();
    else if (RESTING.has(this.state)) void this._closePanel();
    else this._focusPrimary();
  };

  private readonly _onCloseClick = (): void => {
    void this._closePanel();
  };

  /** Escape, from the panel or the launcher, closes the panel unless a call is up. */
  private readonly _onFloatingKeydown = (event: KeyboardEvent): void => {
    if (event.key === 'Escape' && this.open && RESTING.has(this.state)) {
      event.stopPropagation();
      void this._closePanel();
    }
  };

  private readonly _onTranscriptScroll = (event: Event): void => {
    const log = event.currentTarget as HTMLElement;
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
    if (atBottom !== this._stuckToBottom) this._stuckToBottom = atBottom;
    if (atBottom && this._unseen) this._unseen = false;
  };

  /** Reveals older lines above, keeping the lines in view where they are. */
  private readonly _onEarlierClick = async (): Promise<void> => {
    const log = this.renderRoot.querySelector<HTMLElement>('.transcript');
    if (!log) return;
    // The first line shown stays where it is on screen (whatever the browser's scroll anchoring did).
    const anchor = log.querySelector<HTMLElement>('.entry');
    const anchorTop = anchor?.getBoundingClientRect().top ?? 0;
    this._firstShown = Math.max(0, this._firstShown - TRANSCRIPT_WINDOW);
    this._windowSize = this._renderedEntries().length - this._firstShown;
    this.requestUpdate();
    await this.updateComplete;
    if (anchor) log.scrollTop += anchor.getBoundingClientRect().top - anchorTop;
    // All lines shown, the button is gone: focus stays where the visitor was, on the log.
    if (!this.renderRoot.querySelector('.earlier')) log.focus();
  };

  private readonly _onIntent = (): void => {
    this._preloadMedia();
  };

  private readonly _onJumpClick = (): void => {
    this._stuckToBottom = true;
    this._unseen = false;
    const log = this.renderRoot.querySelector<HTMLElement>('.transcript');
    if (log) log.scrollTop = log.scrollHeight;
    log?.focus();
  };

  private async _openPanel(): Promise<void> {
    this.open = true;
    await this.updateComplete;
    this._focusPrimary();
  }

  private async _closePanel(): Promise<void> {
    if (!RESTING.has(this.state)) return;
    this.open = false;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('.launcher')?.focus();
  }

  // ---- rendering ----

  private _statusText(s: VoiceAgentCallStrings): string {
    const session = this._call.session;
    switch (this.state) {
      case 'idle':
        return s.statusIdle;
      case 'starting':
        return s.statusStarting;
      case 'connecting':
        return s.statusConnecting;
      case 'in-call':
        if (session?.muted) return s.statusMuted;
        return session?.agentSpeaking ? s.statusSpeaking : s.statusListening;
      case 'reconnecting':
        return s.statusReconnecting;
      case 'ending':
        return s.statusEnding;
      case 'ended':
        return s.statusEnded;
    }
  }

  private _summary(s: VoiceAgentCallStrings): string {
    const result = this._call.session?.result ?? null;
    const parts = [s.statusEnded];
    if (result) parts.push(reasonText(s, result.reason));
    const elapsed = this._call.elapsedMs;
    if (elapsed !== null) parts.push(formatDuration(elapsed));
    else if (typeof result?.durationSeconds === 'number' && result.durationSeconds > 0) {
      parts.push(formatDuration(result.durationSeconds * 1000));
    }
    return parts.join(' · ');
  }

  private _error(s: VoiceAgentCallStrings): { title: string; help: string } | null {
    const result = this._call.session?.result;
    return this.state === 'ended' && result ? errorText(s, result.reason) : null;
  }

  private _announcement(s: VoiceAgentCallStrings): string {
    if (this.state === 'idle') return '';
    if (this.state === 'in-call') return s.statusInCall;
    if (this.state !== 'ended') return this._statusText(s);
    const error = this._error(s);
    return error ? `${this._summary(s)}. ${error.title}. ${error.help}` : this._summary(s);
  }

  override render(): TemplateResult {
    const s = resolveStrings(this._lang, this.strings);
    const floating = this._layout === 'floating';
    const rtl = isRtlLanguage(this._lang);
    const error = this._error(s);
    const rootClasses = { root: true, floating, left: floating && this.placement === 'bottom-left' };
    return html`<div
      class=${classMap(rootClasses)}
      dir=${ifDefined(rtl ? 'rtl' : undefined)}
      data-state=${this.state}
      ?data-error=${error !== null}
      @keydown=${floating ? this._onFloatingKeydown : undefined}
    >
      ${floating ? this._renderFloating(s) : this._renderCard(s, false)}
      <div class="sr-only" role="status" aria-live="polite" aria-atomic="true">${this._announcement(s)}</div>
    </div>`;
  }

  private _renderFloating(s: VoiceAgentCallStrings): TemplateResult {
    const active = !RESTING.has(this.state);
    const speaking = this.state === 'in-call' && (this._call.session?.agentSpeaking ?? false);
    let glyph: TemplateResult;
    if (active) glyph = html`<span class="bars ${speaking ? 'speaking' : ''}"><i></i><i></i><i></i><i></i></span>`;
    else glyph = this.open ? closeIcon : phoneIcon;
    return html`<div class="panel" part="panel" id="panel" ?hidden=${!this.open}>
        ${this._renderCard(s, true)}
      </div>
      <button
        class="launcher"
        part="launcher"
        type="button"
        aria-label=${s.launcherLabel}
        aria-expanded=${this.open ? 'true' : 'false'}
        aria-controls="panel"
        @click=${this._onLauncherClick}
        @pointerenter=${this._onIntent}
        @focus=${this._onIntent}
      >
        ${glyph}${active ? html`<span class="badge" aria-hidden="true"></span>` : nothing}
      </button>`;
  }

  private _renderCard(s: VoiceAgentCallStrings, inPanel: boolean): TemplateResult {
    const state = this.state;
    const session = this._call.session;
    const speaking = state === 'in-call' && (session?.agentSpeaking ?? false);
    const elapsed = this._call.elapsedMs;
    const showTimer = elapsed !== null && (state === 'in-call' || state === 'reconnecting' || state === 'ending');
    const avatarClasses = { avatar: true, speaking, connecting: CONNECTING.has(state) };
    return html`<section
      class="card"
      part="card"
      role=${inPanel ? 'dialog' : 'region'}
      aria-labelledby="title"
    >
      <header class="header" part="header">
        <div class=${classMap(avatarClasses)} part="indicator" aria-hidden="true">
          <slot name="logo"><span class="bars"><i></i><i></i><i></i><i></i></span></slot>
        </div>
        <div class="heading">
          <div class="title" id="title" part="title"><slot name="title">${s.title}</slot></div>
          <div class="status" part="status"><span class="status-dot"></span><span>${this._statusText(s)}</span></div>
        </div>
        ${showTimer
          ? html`<span class="timer" part="timer"><span class="sr-only">${s.timerLabel} </span>${formatDuration(elapsed)}</span>`
          : nothing}
        ${inPanel && RESTING.has(state)
          ? html`<button
              class="icon-button"
              part="close-button"
              type="button"
              aria-label=${s.closePanel}
              @click=${this._onCloseClick}
            >
              ${closeIcon}
            </button>`
          : nothing}
      </header>
      <div class="body" part="body">${this._renderBody(s)}</div>
      <div class="controls" part="controls">${this._renderControls(s)}</div>
    </section>`;
  }

  private _renderBody(s: VoiceAgentCallStrings): TemplateResult {
    const state = this.state;
    const session = this._call.session;
    const entries = this._renderedEntries();
    const error = this._error(s);
    const showTranscript =
      this._transcriptMode !== 'off' && state !== 'idle' && (state !== 'ended' || entries.length > 0);
    return html`${state === 'idle' ? html`<p class="hint">${s.idleHint}</p>` : nothing}
    ${session?.audioBlocked && !RESTING.has(state)
      ? html`<div class="notice" part="audio-notice">
          <p>${s.audioBlockedHint}</p>
          <button class="pill" part="unlock-button" type="button" @click=${this._onUnlockClick}>
            ${speakerIcon}${s.enableAudio}
          </button>
        </div>`
      : nothing}
    ${showTranscript ? this._renderTranscript(s, entries) : nothing}
    ${error
      ? html`<div class="error" part="error">
          ${alertIcon}
          <div>
            <p class="error-title">${error.title}</p>
            <p class="error-help">${error.help}</p>
          </div>
        </div>`
      : nothing}
    ${state === 'ended' ? html`<p class="summary" part="summary">${this._summary(s)}</p>` : nothing}`;
  }

  private _renderTranscript(s: VoiceAgentCallStrings, entries: TranscriptEntry[]): TemplateResult {
    // An interim line is hidden from assistive tech and keyed apart from its final version, so
    // the log announces each line once, when it is final. Only the newest lines are in the DOM.
    const first = Math.min(this._firstShown, entries.length);
    return html`<div class="transcript-wrap">
      <div
        class="transcript"
        part="transcript"
        role="log"
        aria-live="polite"
        aria-relevant="additions"
        aria-label=${s.transcriptLabel}
        tabindex="0"
        @scroll=${this._onTranscriptScroll}
      >
        ${first > 0
          ? html`<button class="pill earlier" part="earlier-button" type="button" @click=${this._onEarlierClick}>
              ${s.showEarlier}
            </button>`
          : nothing}
        ${repeat(
          first > 0 ? entries.slice(first) : entries,
          (entry) => `${entry.id}:${entry.final ? 'final' : 'interim'}`,
          (entry) => {
            const speaker = entry.speaker === 'AI' ? s.speakerAI : s.speakerHuman;
            // An entry whose text did not change is not touched: only the changed line re-renders.
            return guard([entry.text, speaker], () => {
              const who = entry.speaker === 'AI' ? 'ai' : 'human';
              // No whitespace around the text: bubbles keep the speaker's line breaks (pre-wrap).
              return html`<div
                class="entry ${who} ${entry.final ? '' : 'interim'}"
                part="entry entry-${who}${entry.final ? '' : ' entry-interim'}"
                aria-hidden=${ifDefined(entry.final ? undefined : 'true')}
              ><span class="sr-only">${speaker}: </span>${entry.text}</div>`;
            });
          },
        )}
      </div>
      ${entries.length === 0 ? html`<div class="empty" aria-hidden="true">${s.transcriptEmpty}</div>` : nothing}
      ${this._unseen && !this._stuckToBottom
        ? html`<button class="pill jump" part="jump-button" type="button" @click=${this._onJumpClick}>
            ${arrowDownIcon}${s.jumpToLatest}
          </button>`
        : nothing}
    </div>`;
  }

  private _renderControls(s: VoiceAgentCallStrings): TemplateResult {
    const state = this.state;
    if (RESTING.has(state)) {
      const label = state === 'idle' ? s.startCall : this._error(s) ? s.tryAgain : s.callAgain;
      return html`<button class="control call" part="call-button"
        type="button"
        data-primary
        @click=${this._onStartClick}
        @pointerenter=${this._onIntent}
        @focus=${this._onIntent}
      >
        ${phoneIcon}<span>${label}</span>
      </button>`;
    }
    const muted = this.muted;
    const ending = state === 'ending';
    return html`<button
        class="control mute"
        part="mute-button"
        type="button"
        aria-pressed=${muted ? 'true' : 'false'}
        ?disabled=${ending}
        @click=${this._onMuteClick}
      >
        ${muted ? micOffIcon : micIcon}<span>${s.mute}</span>
      </button>
      <button
        class="control hangup"
        part="hangup-button"
        type="button"
        data-primary
        ?disabled=${ending}
        @click=${this._onHangupClick}
      >
        ${hangupIcon}<span>${s.hangup}</span>
      </button>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'voice-agent-call': VoiceAgentCall;
  }
}
