// The in-call part of <voice-agent-call>, in the lazy call chunk: binds the session (through
// CallController), adopts the in-call styles into the element's shadow root before anything of a
// call renders, and renders what only a call shows (status, timer, transcript, notices, error,
// summary, mute and hang-up). The element (voice-agent-call.ts) keeps the idle card and asks this
// view for the rest once a session exists. Its other jobs are controllers it adds to the element:
// CallController (the session), TranscriptFollow (scrolling the log), VoicePresence (the meters).
// Each in-call feature's UI is a part (call-part.ts) the view loops over, in PART_ORDER: those
// every call may show are made here; an optional one (feature-parts.ts) once its chunk, which
// only the attribute that asks for it fetches, has loaded.
import {
  adoptStyles,
  html,
  nothing,
  type ReactiveController,
  type ReactiveControllerHost,
  type TemplateResult,
} from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import type { CallHoldEvent, CallProgressEvent, CallStateEvent, CallTranscriptEvent } from '../call/events.js';
import { CallSession } from '../call/call-session.js';
import { loadMedia } from '../call/media-loader.js';
import { isResting } from '../call/state-predicates.js';
import type { CallSessionEventMap, CallSessionLike, CallState, TranscriptEntry } from '../call/types.js';
import { CallController } from './call-controller.js';
import { shownControls, type CallPart, type PartContext, type PartHost, type PartPlace } from './call-part.js';
import { alertIcon, hangupIcon, micIcon, micOffIcon, speakerIcon } from './call-icons.js';
import { callStyles } from './call-styles.js';
import { ControlNotice } from './control-notice.js';
import {
  adoptPartStyles,
  loadPart,
  loadedPart,
  PART_NAMES,
  wantedParts,
  type FeaturePartName,
} from './feature-parts.js';
import { SheetSlot } from './sheet-slot.js';
import { errorText, formatDuration, reasonText, type VoiceAgentCallStrings } from './strings.js';
import { fallbackLink } from './fallback-link.js';
import { idle, nextFrame } from './render-moments.js';
import { sessionOptions, transcriptOf, type SessionSource } from './session-options.js';
import { TranscriptFollow } from './transcript-follow.js';
import { TranscriptView } from './transcript-view.js';
import { VoicePresence } from './voice-presence.js';
import type { CallSessionFactory } from './voice-agent-call.js';
import { DevicesPart } from '../features/devices/devices-part.js';
import { WeakConnection } from '../features/quality/weak-connection.js';
import { transferStatus } from '../features/transfer/transfer-view.js';

/** The parts in the order they render (body, then the controls row) and announce (urgent ones first): those every call shows, then the registry's (features/registry.ts). */
const PART_ORDER = ['weak-connection', 'notice', 'devices', ...PART_NAMES] as const;
type PartName = (typeof PART_ORDER)[number];

/** How long a call's first render waits at most for the setup's first steps (`#setupFirst`). */
const SETUP_FIRST_MS = 300;

export interface CallViewHost extends ReactiveControllerHost, HTMLElement, PartHost, SessionSource {
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly layout?: string | undefined;
  /** For `floating`: whether the panel is open (a call opens it). */
  open: boolean;
  /** A named property renders at once, not on the next frame as transcript lines do (`fullUpdate`). */
  requestUpdate(name?: PropertyKey): void;
  readonly isUpdatePending: boolean;
  readonly state: CallState;
  readonly muted: boolean;
  /** The `remember-devices` attribute. */
  readonly rememberDevices: boolean;
  /** The companion endpoint: a live call left by a removed element waits under it to be taken over. */
  readonly endpoint?: string;
  hangup(): Promise<void>;
  setMuted(muted: boolean): void;
}

export class CallView implements ReactiveController {
  readonly call: CallController;
  /** The parts made so far, by name (loop over them in PART_ORDER). */
  readonly #parts = new Map<PartName, CallPart>();
  /** Optional parts' chunks loading: a call's card waits for them (`gate`). */
  readonly #loading = new Set<Promise<void>>();
  readonly #context: PartContext;
  readonly #host: CallViewHost;
  /** When the visitor agreed to the element's consent gate, for the session's options and `call-ended`'s `consentAt`. */
  readonly #consentAt: () => string | undefined;
  #styled = false;
  /** Only transcript lines asked for the pending update: it waits for the next frame. */
  #transcriptOnly = false;
  /** A call just started: its first render waits for the setup's first steps (`#setupFirst`). */
  #started = false;
  /** Ends the wait of a call's first render, once the call has ended. */
  #released: (() => void) | null = null;
  /** Tells a call's first render that the dial answered (`connecting`): the room's join is under way. */
  #joining: (() => void) | null = null;
  /** The entries being rendered: the last `call-transcript`'s list, or read from the session after a state change. */
  #entries: TranscriptEntry[] | null = null;
  readonly #follow: TranscriptFollow;
  /** The call connected with the microphone muted: said once, with "Call connected" (not again on each toggle). */
  #connectedMuted = false;
  /** The transcript log, with hold markers and lines a hold cut off. */
  readonly #transcript: TranscriptView;

  constructor(host: CallViewHost, consentAt: () => string | undefined) {
    this.#host = host;
    this.#consentAt = consentAt;
    host.addController(this);
    this.#adoptStyles();
    this.#follow = new TranscriptFollow(host, {
      entries: () => this.#renderedEntries(),
      invalidate: () => this.#invalidate(),
    });
    this.#transcript = new TranscriptView(() => this.call.session, this.#follow);
    this.call = new CallController(host, {
      endpoint: () => host.endpoint ?? '',
      onSessionEvent: (type, event) => this.#onSessionEvent(type, event),
      endedDetail: (result) => {
        // A call taken over from an earlier page (`persist`) was agreed to there.
        const consentAt = this.#consentAt() ?? this.call.session?.resumedConsentAt;
        return consentAt ? { ...result, consentAt } : result;
      },
    });
    const invalidate = (): void => this.#invalidate();
    const notice = new ControlNotice();
    this.#context = {
      host,
      session: () => this.call.session,
      invalidate,
      sheets: new SheetSlot(host, invalidate),
      clearNotice: () => notice.clear(),
    };
    this.#parts.set('weak-connection', new WeakConnection(invalidate));
    this.#parts.set('notice', notice);
    this.#parts.set('devices', new DevicesPart(this.#context));
    this.#wantParts();
    new VoicePresence(host, () => this.call.session);
  }

  get state(): CallState {
    return this.call.state;
  }

  /** The agent is speaking (in a call). */
  get speaking(): boolean {
    return this.state === 'in-call' && (this.call.session?.agentSpeaking ?? false);
  }

  hostConnected(): void {
    this.#adoptStyles();
  }

  /** Whether focus was in the element before this update (for hostUpdated). */
  #hadFocus = false;
  /** This view put focus on the card while the call set up. */
  #onCard = false;

  /** The call is setting up (`starting`, `connecting`): not yet a call "Hang up" should take Enter for. */
  #settingUp(): boolean {
    return this.state === 'starting' || this.state === 'connecting';
  }

  hostUpdate(): void {
    this.#hadFocus = this.#host.shadowRoot?.activeElement != null;
    // `controls` or `feedback` may have changed.
    this.#wantParts();
  }

  /**
   * Before the call is up, focus that left "Start call" rests on the card itself, not on "Hang up"
   * (which is not the primary action yet): a visitor who presses Enter again because the call looks
   * slow to start must not end it. Once the call is up (or has ended), focus the card holds moves
   * on to the primary action. Runs before the element's own `updated()`.
   */
  hostUpdated(): void {
    const root = this.#host.shadowRoot;
    if (!root) return;
    const active = root.activeElement;
    const card = root.querySelector<HTMLElement>('.card');
    if (this.#settingUp()) {
      if (this.#hadFocus && !active && card) {
        card.tabIndex = -1;
        this.#onCard = true;
        card.focus();
      }
    } else if (this.#onCard) {
      this.#onCard = false;
      if (active === card) root.querySelector<HTMLElement>('[data-primary]')?.focus();
    }
  }

  /** The in-call sheet joins the idle one (after it, as one sheet would have it); a root made later gets it on connect. */
  #adoptStyles(): void {
    const root = this.#host.shadowRoot;
    if (this.#styled || !root) return;
    this.#styled = true;
    // `styleSheet` is there where constructable sheets are (Lit's `supportsAdoptingStyleSheets`).
    const sheet = callStyles.styleSheet;
    if (sheet) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    else adoptStyles(root, [callStyles]);
  }

  /**
   * Lit renders once per microtask; transcript lines can arrive many times a frame (interim
   * segments), so an update only they asked for waits for the next frame and renders them at once.
   * The element awaits this before each update.
   */
  gate(): Promise<void> | null {
    const wait = this.#transcriptOnly;
    this.#transcriptOnly = false;
    // A call's card renders with the parts its attributes ask for, not a frame before them.
    if (this.state !== 'idle' && this.#loading.size > 0) return Promise.all(this.#loading).then(() => undefined);
    if (this.#started) {
      this.#started = false;
      if (this.state === 'starting' && this.call.session instanceof CallSession) return this.#setupFirst();
    }
    // The dial answered: the room's join runs first, its render in the main thread's next idle moment.
    if (this.state === 'connecting' && this.call.session instanceof CallSession) return idle();
    return wait ? nextFrame() : null;
  }

  /**
   * A call's first render (its templates new, its layout too) waits until the setup's first steps
   * had the main thread: the microphone check and the dial's request, livekit-client's evaluation
   * (a task of its own once the browser has compiled the chunk off the main thread) and the room's
   * join once the dial answers. Rendered at once, it came before them and held up the media join by
   * its length on a first call without prefetch (issue 42: the trace of such a call); rendered once
   * the call was `connecting`, it fell among the join's own steps. Meanwhile the card says
   * "Preparing the call…"; the render comes in an idle moment once the media chunk is in and the
   * room is joined (`call-progress` `media`; what follows is the wait for the agent, on the
   * network), at once when the call is up or ends first, or after SETUP_FIRST_MS. A call taken over
   * from an earlier page renders once it is `connecting` ("Reconnecting…" while it joins).
   */
  #setupFirst(): Promise<void> {
    return new Promise<void>((resolve) => {
      const joining = new Promise<void>((join) => (this.#joining = join));
      this.#released = resolve;
      setTimeout(resolve, SETUP_FIRST_MS);
      Promise.all([loadMedia(), joining]).then(idle, resolve).then(resolve);
    }).then(() => {
      this.#released = this.#joining = null;
    });
  }

  /** The optional parts the element's attributes ask for: each chunk fetched (once per page), each part made once. */
  #wantParts(): void {
    // The properties, not the attributes: Lit renders before it reflects a property a page set.
    for (const name of wantedParts(this.#host)) {
      if (this.#parts.has(name)) continue;
      const load = loadPart(name);
      if (!load) {
        this.#makePart(name);
        continue;
      }
      const pending = load.then(() => {
        this.#loading.delete(pending);
        if (this.#makePart(name)) this.#invalidate();
      });
      this.#loading.add(pending);
    }
  }

  /** Makes the loaded optional part `name` and adopts its styles; false when it is made or did not load. */
  #makePart(name: FeaturePartName): boolean {
    const module = loadedPart(name);
    const root = this.#host.shadowRoot;
    if (!module || !root || this.#parts.has(name)) return false;
    if ('partStyles' in module) adoptPartStyles(root, module.partStyles);
    this.#parts.set(name, module.makePart(this.#context));
    return true;
  }

  /** The parts made, in PART_ORDER. */
  #each(): CallPart[] {
    const parts: CallPart[] = [];
    for (const name of PART_ORDER) {
      const part = this.#parts.get(name);
      if (part) parts.push(part);
    }
    return parts;
  }

  /**
   * The element's session: the one bound already, else `adopted` (a live call taken over) or a
   * new one from the element's `sessionFactory`, bound to this view.
   */
  session(adopted?: CallSessionLike): CallSessionLike {
    let session = this.call.session;
    if (!session) {
      const host = this.#host;
      // The element's class (or a subclass) holds the factory: `VoiceAgentCall.sessionFactory`.
      const element = host.constructor as unknown as { sessionFactory: CallSessionFactory };
      session = adopted ?? element.sessionFactory(sessionOptions(host, this.#consentAt()));
      this.call.bind(session);
    }
    return session;
  }

  /** Renders soon, at once: something the visitor did changed the view. */
  #invalidate(): void {
    this.#host.requestUpdate('_view');
  }

  /** Something besides transcript lines asked for the update: it renders at once. */
  fullUpdate(): void {
    this.#transcriptOnly = false;
  }

  #onSessionEvent(type: keyof CallSessionEventMap, event: Event): void {
    if (type !== 'call-transcript') this.#transcriptOnly = false;
    else if (!this.#host.isUpdatePending) this.#transcriptOnly = true;
    if (type === 'call-state') {
      // Up (or ended) before the room's join let it go: it renders at once. A call taken over from
      // an earlier page says "Reconnecting…" while it joins: its card comes once it is `connecting`.
      if (isResting(this.state) || this.state === 'in-call' || this.state === 'reconnecting') this.#released?.();
      else if (this.state === 'connecting' && this.call.session?.resuming) this.#joining?.();
      // The element's own part first: its `state` attribute, and a call opens the floating panel.
      const host = this.#host;
      if (host.getAttribute('state') !== host.state) host.setAttribute('state', host.state);
      if (!isResting(host.state) && host.layout === 'floating') host.open = true;
    }
    // The room is joined: the first render may come (the agent's arrival is a wait on the network).
    if (type === 'call-progress' && (event as CallProgressEvent).detail.stage === 'media') this.#joining?.();
    this.#context.sheets.onSessionEvent(type, event);
    for (const part of this.#each()) part.onSessionEvent?.(type, event);
    if (type === 'call-transcript') {
      // The event's list is already the session's fresh copy: render it, do not copy again.
      this.#entries = (event as CallTranscriptEvent).detail.entries;
      this.#follow.linesArrived();
      return;
    }
    if (type === 'call-hold')
      this.#transcript.holdChanged((event as CallHoldEvent).detail.held, this.#renderedEntries());
    if (type === 'call-state' || type === 'call-ended') this.#entries = null;
    if (type === 'call-state' && (event as CallStateEvent).detail.previous === 'connecting') {
      this.#connectedMuted = this.#host.muted;
    }
    if (type === 'call-state' && (event as CallStateEvent).detail.state === 'starting') {
      this.#started = true;
      this.#follow.reset();
      // A chunk that failed to load is tried again.
      this.#wantParts();
      this.#transcript.reset();
      // Read as each call starts (the session reads it next).
      this.call.session?.configure({ rememberDevices: this.#host.rememberDevices });
    }
  }

  /** The entries to render (no copy per render: the list changes only with an event). */
  #renderedEntries(): TranscriptEntry[] {
    this.#entries ??= this.call.session?.transcript ?? [];
    return this.#entries;
  }

  // ---- UI handlers ----

  readonly #onHangupClick = (): void => {
    if (this.state === 'ending') return;
    void this.#host.hangup();
  };

  readonly #onMuteClick = (): void => {
    if (this.state === 'ending') return;
    this.#host.setMuted(!this.#host.muted);
  };

  readonly #onUnlockClick = (): void => {
    void this.call.session?.unlockAudio();
  };

  // ---- rendering (the element calls these for states other than idle) ----

  statusText(s: VoiceAgentCallStrings): string {
    const session = this.call.session;
    switch (this.state) {
      case 'idle':
        return s.statusIdle;
      case 'starting':
      case 'connecting':
        // A call taken over from an earlier page (`persist`) is getting back, not starting.
        if (session?.resuming) return s.statusReconnecting;
        return this.state === 'starting' ? s.statusStarting : s.statusConnecting;
      case 'in-call':
        if (session?.held) return s.statusOnHold;
        if (session?.muted) return s.statusMuted;
        // Talk to a person (src/features/transfer): "Connecting you to a person…", "With a person".
        return transferStatus(session, s) ?? (session?.agentSpeaking ? s.statusSpeaking : s.statusListening);
      case 'reconnecting':
        return s.statusReconnecting;
      case 'ending':
        return s.statusEnding;
      case 'ended':
        if (session?.result?.reason === 'moved') return s.statusMoved;
        return this.#connected() ? s.statusEnded : s.statusNotConnected;
    }
  }

  /** The current or last call reached `in-call` (a call that never did has no "Call ended" and no duration). */
  #connected(): boolean {
    return (this.call.session?.connectedAt ?? null) !== null;
  }

  /**
   * What the ended card's summary says after the status line ("Call ended", "Call not connected"):
   * the reason and, for a call that connected, its duration. The duration is the one `call-ended`
   * reports (the service's `durationSeconds`) when there is one, so the page and the event agree;
   * otherwise the time the widget counted.
   */
  #summaryParts(s: VoiceAgentCallStrings): string[] {
    const result = this.call.session?.result ?? null;
    const parts: string[] = [];
    if (result) parts.push(reasonText(s, result.reason));
    if (!this.#connected()) return parts;
    const reported = result?.durationSeconds;
    const elapsed = this.call.elapsedMs;
    if (typeof reported === 'number' && reported >= 0) parts.push(formatDuration(reported * 1000));
    else if (elapsed !== null) parts.push(formatDuration(elapsed));
    return parts;
  }

  /** The summary as shown, under the status line that already says the call ended: no second "Call ended". */
  #summary(s: VoiceAgentCallStrings): string {
    const text = this.#summaryParts(s).join(' · ');
    return text.charAt(0).toLocaleUpperCase(this.#host.lang || undefined) + text.slice(1);
  }

  /** The summary as announced: the status first, since the status line is not announced. */
  #announcedSummary(s: VoiceAgentCallStrings): string {
    return [this.statusText(s), ...this.#summaryParts(s)].join(' · ');
  }

  error(s: VoiceAgentCallStrings): { title: string; help: string } | null {
    const result = this.call.session?.result;
    if (this.state !== 'ended' || !result) return null;
    const insecurePage = result.error?.missing?.includes('secure-context') ?? false;
    const callInProgress = result.error?.code === 'call_in_progress';
    return errorText(s, result.reason, { serviceReached: result.status !== undefined, insecurePage, callInProgress });
  }

  /**
   * The controls of a resting card that are not the call button: after a permanent end the
   * `fallback` link (or none); null when the call button shows.
   */
  restingControls(s: VoiceAgentCallStrings, fallback: string | undefined): TemplateResult | typeof nothing | null {
    return this.permanent() ? this.fallback(s, fallback) : null;
  }

  /** The last call ended for good: this browser cannot place calls, so there is no "Try again". */
  permanent(): boolean {
    return this.state === 'ended' && this.call.session?.result?.reason === 'unsupported-browser';
  }

  /**
   * The controls of a permanent end: the site's `fallback` link (a phone number or another way to
   * reach it), when it set one with a safe scheme; otherwise none.
   */
  fallback(s: VoiceAgentCallStrings, href: string | undefined): TemplateResult | typeof nothing {
    return fallbackLink(s, href);
  }

  announcement(s: VoiceAgentCallStrings): string {
    if (this.state === 'idle') return '';
    if (this.state === 'in-call') {
      const part = this.#partsSay(s, '');
      if (part !== null) return part;
      if (this.call.session?.held) return s.statusOnHold;
      const transfer = transferStatus(this.call.session, s);
      if (transfer) return transfer;
      return this.#connectedMuted ? s.statusInCallMuted : s.statusInCall;
    }
    if (this.state !== 'ended') return this.statusText(s);
    const error = this.error(s);
    const summary = this.#announcedSummary(s);
    return error ? `${summary}. ${error.title}. ${error.help}` : (this.#partsSay(s, summary) ?? summary);
  }

  /** The first part's announcement (urgent parts first), or null. */
  #partsSay(s: VoiceAgentCallStrings, line: string): string | null {
    const parts = this.#each();
    for (const part of [...parts.filter((p) => p.urgent), ...parts.filter((p) => !p.urgent)]) {
      const said = part.announce?.(s, this.state, line);
      if (said != null) return said;
    }
    return null;
  }

  /** The call button's label after a call. */
  againLabel(s: VoiceAgentCallStrings): string {
    return this.error(s) ? s.tryAgain : s.callAgain;
  }

  /** The floating launcher during a call: sound bars and a live badge. */
  launcherGlyph(): TemplateResult {
    return html`<span class="bars ${this.speaking ? 'speaking' : ''}"><i></i><i></i><i></i><i></i></span
      ><span class="badge" aria-hidden="true"></span>`;
  }

  timer(s: VoiceAgentCallStrings): TemplateResult | typeof nothing {
    const elapsed = this.call.elapsedMs;
    const state = this.state;
    const showTimer =
      elapsed !== null &&
      (state === 'in-call' || state === 'reconnecting' || state === 'ending' || !!this.call.session?.resuming);
    return showTimer
      ? html`<span class="timer" part="timer"><span class="sr-only">${s.timerLabel} </span>${formatDuration(elapsed)}</span>`
      : nothing;
  }

  body(s: VoiceAgentCallStrings): TemplateResult {
    const state = this.state;
    if (state === 'idle') return html`<p class="hint">${s.idleHint}</p>`;
    const session = this.call.session;
    const entries = this.#renderedEntries();
    const error = this.error(s);
    const summary = state === 'ended' ? this.#summary(s) : '';
    const showTranscript =
      transcriptOf(this.#host.transcriptMode) !== 'off' && (state !== 'ended' || entries.length > 0);
    const up = !isResting(state);
    return html`${up ? this.#partBodies(s, 'first') : nothing}${
      session?.audioBlocked && up
        ? html`<div class="notice" part="audio-notice">
          <p>${s.audioBlockedHint}</p>
          <button class="pill" part="unlock-button" type="button" @click=${this.#onUnlockClick}>
            ${speakerIcon}${s.enableAudio}
          </button>
        </div>`
        : nothing
    }
    ${up ? this.#partBodies(s, 'in-call') : nothing}
    ${up ? this.#renderVoices(s) : nothing}
    ${showTranscript ? this.#transcript.render(s, entries) : nothing}
    ${
      error
        ? html`<div class="error" part="error">
          ${alertIcon}
          <div>
            <p class="error-title">${error.title}</p>
            <p class="error-help">${error.help}</p>
          </div>
        </div>`
        : nothing
    }
    ${state === 'ended' ? html`${summary ? html`<p class="summary" part="summary">${summary}</p>` : nothing}${this.#partBodies(s, 'ended')}` : nothing}`;
  }

  /** The bodies of the parts placed `place`, in order. */
  #partBodies(s: VoiceAgentCallStrings, place: PartPlace): unknown[] {
    return this.#each()
      .filter((part) => (part.place ?? 'in-call') === place)
      .map((part) => part.body?.(s, this.state) ?? nothing);
  }

  /**
   * Who is speaking and how loud: a meter per side, moved by VoicePresence through
   * `--vac-agent-level` / `--vac-visitor-level`. Same size from `starting` to `ending`, so the card
   * does not jump when the call connects. Hidden from assistive tech: the status line says who
   * speaks, and a meter would be noise.
   */
  #renderVoices(s: VoiceAgentCallStrings): TemplateResult {
    const meter = html`<span class="meter"><i></i><i></i><i></i><i></i><i></i></span>`;
    return html`<div class="voices" part="voices" aria-hidden="true">
      <div class="voice agent" part="voice voice-agent">
        ${meter}<span class="who">${transferStatus(this.call.session, s) === s.statusWithPerson ? s.speakerPerson : s.speakerAI}</span>
      </div>
      <div class="voice visitor" part="voice voice-visitor">${meter}<span class="who">${s.speakerHuman}</span></div>
    </div>`;
  }

  /**
   * Mute and hang-up, while a call is up. Mute is a toggle with one name and `aria-pressed` (the
   * WAI-ARIA toggle pattern): a name that changed too would be said twice ("Unmute, pressed"). While the call is ending they are `aria-disabled`, not
   * `disabled`: a disabled button drops focus to `<body>` before `ended` renders, and the element
   * could no longer move it to "Call again" (nor would Escape reach a floating panel).
   */
  controls(s: VoiceAgentCallStrings): TemplateResult {
    const muted = this.#host.muted;
    const ending = this.state === 'ending';
    const mute = shownControls(this.#host.controls).has('mute')
      ? html`<button
        class="control mute"
        part="mute-button"
        type="button"
        aria-pressed=${muted ? 'true' : 'false'}
        aria-disabled=${ifDefined(ending ? 'true' : undefined)}
        @click=${this.#onMuteClick}
      >
        ${muted ? micOffIcon : micIcon}<span>${s.mute}</span>
      </button>`
      : nothing;
    const buttons = this.#each().map((part) => part.buttons?.(s, this.state) ?? nothing);
    return html`${mute}${buttons}<button
        class="control hangup"
        part="hangup-button"
        type="button"
        ?data-primary=${!this.#settingUp()}
        aria-disabled=${ifDefined(ending ? 'true' : undefined)}
        @click=${this.#onHangupClick}
      >
        ${hangupIcon}<span>${s.hangup}</span>
      </button>`;
  }
}
