// The one sheet open in the card's body at a time (the keypad, the microphone and speaker menu),
// shared by the parts that open one (call chunk): its toggle, Escape, focus on open and back on
// close, and closing when the call is no longer up.
import { html, nothing, type ReactiveController, type SVGTemplateResult, type TemplateResult } from 'lit';
import type { CallStateEvent } from '../call/events.js';
import { isUp } from '../call/state-predicates.js';
import type { CallSessionEventMap } from '../call/types.js';
import type { PartHost } from './call-part.js';

export interface SheetOpening {
  /** What must be ready before the sheet's first render (the device list). */
  ready?: () => Promise<void>;
  /** The node focus goes to once it shows. */
  first: () => HTMLElement | null;
}

export class SheetSlot implements ReactiveController {
  readonly #host: PartHost;
  readonly #invalidate: () => void;
  #open: string | null = null;
  readonly #changed = new Set<(open: string | null) => void>();

  constructor(host: PartHost, invalidate: () => void) {
    this.#host = host;
    this.#invalidate = invalidate;
    host.addController(this);
  }

  /** The open sheet's name, or null. */
  get open(): string | null {
    return this.#open;
  }

  /** Called with the open sheet's name whenever it changes. */
  onChange(listener: (open: string | null) => void): void {
    this.#changed.add(listener);
  }

  hostConnected(): void {
    this.#host.addEventListener('keydown', this.#onKeydown);
  }

  hostDisconnected(): void {
    this.#host.removeEventListener('keydown', this.#onKeydown);
    this.#set(null);
  }

  onSessionEvent(type: keyof CallSessionEventMap, event: Event): void {
    // An open keypad or menu belongs to a call that is up.
    if (type === 'call-state' && !isUp((event as CallStateEvent).detail.state)) this.close(false);
  }

  /** The toggle of sheet `name`: opens it (closing another) or closes it. */
  toggle(name: string, opening: SheetOpening): void {
    if (this.#open === name) {
      this.close(true);
      return;
    }
    this.#set(name);
    this.#invalidate();
    // The sheet's first render waits for what it shows, so focus lands where it should.
    void (opening.ready?.() ?? Promise.resolve())
      .then(() => this.#host.updateComplete)
      .then(() => {
        if (this.#open !== name) return;
        // The sheet made the card taller and pushed the controls row down, on a phone under a
        // floating launcher: the row scrolls back into view, clear of it (its scroll margin), before
        // focus scrolls to the sheet's first key if it has to. A floating panel is fixed: no need.
        if (this.#host.getAttribute('layout') !== 'floating')
          this.#host.renderRoot.querySelector<HTMLElement>('.controls')?.scrollIntoView({ block: 'nearest' });
        opening.first()?.focus();
      });
  }

  /**
   * The round button that opens and closes sheet `name` (`aria-expanded`, `aria-controls`);
   * `onIntent`, when the pointer enters it or focus reaches it (what the sheet needs may load then).
   */
  button(
    name: string,
    label: string,
    icon: SVGTemplateResult,
    inactive: 'true' | undefined,
    onClick: () => void,
    onIntent?: () => void,
  ): TemplateResult {
    return html`<button
      class="control tool ${name}-toggle"
      part="${name}-button"
      type="button"
      aria-expanded=${this.#open === name ? 'true' : 'false'}
      aria-controls=${name}
      aria-disabled=${inactive ?? nothing}
      title=${label}
      @click=${onClick}
      @pointerenter=${onIntent}
      @focus=${onIntent}
    >
      ${icon}<span class="tool-label">${label}</span>
    </button>`;
  }

  /** Closes the open sheet; `refocus`: its toggle gets focus back (Escape, or the toggle itself). */
  close(refocus: boolean): void {
    const sheet = this.#open;
    if (!sheet) return;
    this.#set(null);
    this.#invalidate();
    if (refocus)
      void this.#host.updateComplete.then(() =>
        this.#host.renderRoot.querySelector<HTMLElement>(`[part~='${sheet}-button']`)?.focus(),
      );
  }

  #set(open: string | null): void {
    if (this.#open === open) return;
    this.#open = open;
    for (const listener of this.#changed) listener(open);
  }

  /** Escape closes an open sheet. */
  readonly #onKeydown = (event: KeyboardEvent): void => {
    if (!this.#open || event.defaultPrevented || event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    this.close(true);
  };
}
