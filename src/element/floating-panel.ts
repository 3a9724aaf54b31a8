// The floating layout's panel (idle entry): the launcher opens it (or, during a call, moves focus
// to the call's primary action), the close button and Escape close it unless a call is up, and
// focus goes where the visitor expects: into the panel on open, back to the launcher on close.
import { isResting } from '../call/state-predicates.js';
import type { CallState } from '../call/types.js';

export interface FloatingPanelHost extends HTMLElement {
  open: boolean;
  readonly state: CallState;
  readonly updateComplete: Promise<boolean>;
  readonly renderRoot: HTMLElement | DocumentFragment;
}

export class FloatingPanel {
  readonly #host: FloatingPanelHost;
  readonly #focusPrimary: () => void;

  constructor(host: FloatingPanelHost, focusPrimary: () => void) {
    this.#host = host;
    this.#focusPrimary = focusPrimary;
  }

  readonly onLauncher = (): void => {
    if (!this.#host.open) void this.#openPanel();
    else if (isResting(this.#host.state)) void this.#closePanel();
    else this.#focusPrimary();
  };

  readonly onClose = (): void => {
    void this.#closePanel();
  };

  /** Escape, from the panel or the launcher, closes the panel unless a call is up. */
  readonly onKeydown = (event: KeyboardEvent): void => {
    if (event.key === 'Escape' && this.#host.open && isResting(this.#host.state)) {
      event.stopPropagation();
      void this.#closePanel();
    }
  };

  async #openPanel(): Promise<void> {
    this.#host.open = true;
    await this.#host.updateComplete;
    this.#focusPrimary();
  }

  async #closePanel(): Promise<void> {
    if (!isResting(this.#host.state)) return;
    this.#host.open = false;
    await this.#host.updateComplete;
    this.#host.renderRoot.querySelector<HTMLElement>('.launcher')?.focus();
  }
}
