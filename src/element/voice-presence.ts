// Voice presence: who is speaking and how loud, live, for the agent and the visitor. Once per
// animation frame while the media is up it reads the session's `audioLevels` and writes them as
// `--vac-agent-level` / `--vac-visitor-level` on the meters' container (`::part(voices)`), and
// marks the side that speaks. No Lit update per frame (styles alone move the meters, with
// transforms: no layout), nothing a screen reader hears (the meters are aria-hidden; the status
// line says who speaks). In the lazy call chunk.
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
  readonly #host: VoicePresenceHost;
  readonly #session: () => CallSessionLike | null;
  #frame = 0;
  #connected = false;
  /** Levels were written on the card (a call's media was up). */
  #wrote = false;
  readonly #lastHeard = { agent: 0, visitor: 0 };

  constructor(host: VoicePresenceHost, session: () => CallSessionLike | null) {
    this.#host = host;
    this.#session = session;
    host.addController(this);
  }

  hostConnected(): void {
    this.#connected = true;
    this.#sync();
  }

  hostDisconnected(): void {
    this.#connected = false;
    this.#stop();
  }

  hostUpdated(): void {
    this.#sync();
  }

  /** Runs while the media is up and the element is in the document; stops (levels back to 0) otherwise. */
  #sync(): void {
    const session = this.#session();
    const live = this.#connected && session !== null && isUp(session.state);
    if (live && this.#frame === 0) this.#frame = requestAnimationFrame(this.#onFrame);
    else if (!live) this.#stop();
  }

  #stop(): void {
    if (this.#frame !== 0) cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    // Nothing to put back before the first call (an idle card stays as it was rendered).
    if (this.#wrote) this.#write(0, 0, false, false);
    this.#wrote = false;
  }

  readonly #onFrame = (now: number): void => {
    this.#frame = 0;
    const session = this.#session();
    if (!this.#connected || !session || !isUp(session.state)) return this.#stop();
    const levels = session.audioLevels ?? { agent: 0, visitor: 0 };
    if (levels.agent >= SPEAKING_LEVEL || session.agentSpeaking) this.#lastHeard.agent = now;
    if (levels.visitor >= SPEAKING_LEVEL) this.#lastHeard.visitor = now;
    this.#wrote = true;
    this.#write(
      levels.agent,
      levels.visitor,
      now - this.#lastHeard.agent < SPEAKING_HOLD_MS,
      !session.muted && now - this.#lastHeard.visitor < SPEAKING_HOLD_MS,
    );
    this.#frame = requestAnimationFrame(this.#onFrame);
  };

  #write(agent: number, visitor: number, agentSpeaks: boolean, visitorSpeaks: boolean): void {
    // On the meters' own container, not the card's root: a custom property set on an element
    // restyles everything under it, and the meters are all that reads these. (The browser restyles
    // nothing for a value set again unchanged.)
    const voices = this.#host.renderRoot.querySelector<HTMLElement>('.voices');
    for (const [side, level, speaks] of [
      ['agent', agent, agentSpeaks],
      ['visitor', visitor, visitorSpeaks],
    ] as const) {
      voices?.style.setProperty(`--vac-${side}-level`, level.toFixed(3));
      voices?.querySelector(`.${side}`)?.toggleAttribute('data-speaking', speaks);
    }
  }
}
