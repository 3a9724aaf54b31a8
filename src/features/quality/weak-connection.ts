// "Weak connection" on the card: shown once the connection's grade (`call-quality`) has stayed
// `poor` or `lost` for a few seconds, hidden once it has stayed `good` or better for a while, so a
// grade that flaps does not make the card flicker. Announced to screen readers the first time in
// a call only. A part of the call view (element/call-part.ts), in the call chunk: it needs no
// attribute.
import { html, nothing, type TemplateResult } from 'lit';
import type { CallQualityEvent, CallStateEvent } from '../../call/events.js';
import type { CallSessionEventMap, CallState } from '../../call/types.js';
import type { CallPart } from '../../element/call-part.js';
import type { VoiceAgentCallStrings } from '../../element/strings.js';

/** How long a poor or lost grade lasts before the card says so. */
export const WEAK_AFTER_MS = 3000;
/** How long a good grade lasts before the line goes away. */
export const RECOVERED_AFTER_MS = 4000;

export class WeakConnection implements CallPart {
  readonly #invalidate: () => void;
  #weak = false;
  #shown = false;
  #announce = false;
  #announcedThisCall = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(invalidate: () => void) {
    this.#invalidate = invalidate;
  }

  /** The line is on the card. */
  get shown(): boolean {
    return this.#shown;
  }

  onSessionEvent(type: keyof CallSessionEventMap, event: Event): void {
    if (type === 'call-quality') {
      const { quality } = (event as CallQualityEvent).detail;
      const weak = quality === 'poor' || quality === 'lost';
      if (weak === this.#weak) return;
      this.#weak = weak;
      clearTimeout(this.#timer);
      if (weak === this.#shown) return;
      this.#timer = setTimeout(() => this.#show(weak), weak ? WEAK_AFTER_MS : RECOVERED_AFTER_MS);
    } else if (type === 'call-state') {
      const { state } = (event as CallStateEvent).detail;
      if (state === 'starting') this.#announcedThisCall = false;
      if (state === 'ending' || state === 'ended' || state === 'idle' || state === 'starting') this.#reset();
    }
  }

  /** The line, while shown. */
  render(text: string): TemplateResult | typeof nothing {
    return this.#shown ? html`<p class="weak-connection" part="weak-connection">${text}</p>` : nothing;
  }

  body(s: VoiceAgentCallStrings): TemplateResult | typeof nothing {
    return this.render(s.weakConnection);
  }

  announce(s: VoiceAgentCallStrings, state: CallState): string | null {
    return state === 'in-call' && this.announcing ? s.weakConnection : null;
  }

  /** True while the first showing in this call is to be announced. */
  get announcing(): boolean {
    return this.#announce && this.#shown;
  }

  #show(shown: boolean): void {
    this.#shown = shown;
    this.#announce = shown && !this.#announcedThisCall;
    if (shown) this.#announcedThisCall = true;
    this.#invalidate();
  }

  #reset(): void {
    clearTimeout(this.#timer);
    this.#weak = false;
    this.#announce = false;
    if (this.#shown) {
      this.#shown = false;
      this.#invalidate();
    }
  }
}
