// Voice presence: who is speaking and how loud, live, for the agent and the visitor. Once per
// animation frame while the media is up it reads the session's `audioLevels` and writes them as
// `--vac-agent-level` / `--vac-visitor-level` on the card's root, and marks the side that speaks.
// No Lit update per frame (styles alone move the meters, with transforms: no layout), nothing a
// screen reader hears (the meters are aria-hidden; the status line says who speaks). In the lazy
// call chunk.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { isUp } from '../call/state-predicates.js';
import type { CallSessionLike } from '../call/types.js';

/** A side counts as speaking above this level, and keeps counting for a moment after (no flicker between words). */
const SPEAKING_LEVEL = 0.12;
const SPEAKING_HOLD_MS = 350;

export interface VoicePresenceHost extends ReactiveControllerHost, HTMLElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
}

export class VoicePresence implements ReactiveController {
  private readonly _host: VoicePresenceHost;
  private readonly _session: () => CallSessionLike | null;
  private _frame = 0;
  private _connected = false;
  private readonly _lastHeard = { agent: 0, visitor: 0 };

  constructor(host: VoicePresenceHost, session: () => CallSessionLike | null) {
    this._host = host;
    this._session = session;
    host.addController(this);
  }

  hostConnected(): void {
    this._connected = true;
    this._sync();
  }

  hostDisconnected(): void {
    this._connected = false;
    this._stop();
  }

  hostUpdated(): void {
    this._sync();
  }

  /** Runs while the media is up and the element is in the document; stops (levels back to 0) otherwise. */
  private _sync(): void {
    const session = this._session();
    const live = this._connected && session !== null && isUp(session.state);
    if (live && this._frame === 0) this._frame = requestAnimationFrame(this._onFrame);
    else if (!live) this._stop();
  }

  private _stop(): void {
    if (this._frame !== 0) cancelAnimationFrame(this._frame);
    this._frame = 0;
    this._write(0, 0, false, false);
  }

  private readonly _onFrame = (now: number): void => {
    this._frame = 0;
    const session = this._session();
    if (!this._connected || !session || !isUp(session.state)) return this._stop();
    const levels = session.audioLevels ?? { agent: 0, visitor: 0 };
    if (levels.agent >= SPEAKING_LEVEL || session.agentSpeaking) this._lastHeard.agent = now;
    if (levels.visitor >= SPEAKING_LEVEL) this._lastHeard.visitor = now;
    this._write(
      levels.agent,
      levels.visitor,
      now - this._lastHeard.agent < SPEAKING_HOLD_MS,
      !session.muted && now - this._lastHeard.visitor < SPEAKING_HOLD_MS,
    );
    this._frame = requestAnimationFrame(this._onFrame);
  };

  private _write(agent: number, visitor: number, agentSpeaks: boolean, visitorSpeaks: boolean): void {
    const root = this._host.renderRoot.querySelector<HTMLElement>('.root');
    if (!root) return;
    root.style.setProperty('--vac-agent-level', agent.toFixed(3));
    root.style.setProperty('--vac-visitor-level', visitor.toFixed(3));
    const voices = root.querySelector<HTMLElement>('.voices');
    voices?.querySelector('.agent')?.toggleAttribute('data-speaking', agentSpeaks);
    voices?.querySelector('.visitor')?.toggleAttribute('data-speaking', visitorSpeaks);
  }
}
