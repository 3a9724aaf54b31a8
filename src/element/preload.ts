// Loading the call ahead of the click (the `preload` attribute): the call chunk and the media
// library (livekit-client) once, on intent (the element calls `intent` when the pointer enters the
// call button or launcher, a touch too, since Pointer Events fire pointerenter before a touch's
// pointerdown, or focus reaches them; on a touch device, also when the inline card comes into
// view), or with `preload="idle"` also in idle time a while after the element is connected.
// The call chunk, once in, warms the connection to a companion on another origin (call/preconnect.ts);
// then the element asks for the microphone's permission and makes its call view in the next idle
// moment (in-call.ts `ahead`), so that the click neither waits for the one nor makes the other.
// In the idle entry.
import type { ReactiveController } from 'lit';
import { loadCall, type CallModule } from './call-loader.js';
import { loadConsent, wantsConsent } from './consent-loader.js';
import type { VoiceAgentCall, VoiceAgentCallPreload } from './voice-agent-call.js';

/** A touch screen is the primary pointer: no hover, and a pointer (a finger) that is coarse. */
export const TOUCH_PRIMARY = '(hover:none) and (pointer:coarse)';

export class PreloadController implements ReactiveController {
  readonly #host: VoiceAgentCall;
  /** A load was asked for (reset when it fails, so the next intent tries again). */
  #requested = false;
  /** Cancels the scheduled idle-time load. */
  #cancelIdle: (() => void) | null = null;
  /** Once the call chunk is in: the element's work ahead of the click (the microphone's permission asked, the call view made). */
  readonly #prepare: (module: CallModule) => void;

  constructor(host: VoiceAgentCall, prepare: (module: CallModule) => void) {
    this.#host = host;
    this.#prepare = prepare;
    host.addController(this);
  }

  hostConnected(): void {
    if (this.#mode() === 'idle') this.#scheduleIdle();
    // A phone has no pointerenter before the tap: the inline card coming into view is its intent.
    // Only a touch screen (a coarse pointer without hover): a device with no pointer at all (a TV
    // remote, a headless browser) also reports `hover:none`, and its visitors show intent by focus.
    // The observer ends itself once it has seen the card (or with the element, which it alone holds).
    if (matchMedia(TOUCH_PRIMARY).matches && this.#host.layout != 'floating')
      new IntersectionObserver(([entry], seen) => entry?.isIntersecting && (seen.disconnect(), this.#load())).observe(
        this.#host,
      );
  }

  hostDisconnected(): void {
    this.#cancelIdle?.();
    this.#cancelIdle = null;
  }

  /** The visitor shows intent: load now, unless `preload="none"`. */
  readonly intent = (): void => {
    this.#load();
  };

  /** The element's class: its statics (`mediaPreloader`, `idlePreloadDelayMs`) are read when used, so a page may replace them. */
  #settings(): typeof VoiceAgentCall {
    return this.#host.constructor as typeof VoiceAgentCall;
  }

  #mode(): VoiceAgentCallPreload {
    const mode = this.#host.preload;
    return mode === 'none' || mode === 'idle' ? mode : 'intent';
  }

  /** Loads the call chunk and the media library once, unless `preload="none"`; a failed load may be tried again. */
  #load(): void {
    if (this.#mode() === 'none' || this.#requested) return;
    this.#requested = true;
    const retry = (): void => {
      this.#requested = false;
    };
    loadCall().then(this.#prepare, retry);
    // The consent gate's chunk too, for an element that asks first (it shows before the call's).
    if (wantsConsent(this.#host)) loadConsent().catch(() => undefined);
    this.#settings().mediaPreloader().catch(retry);
  }

  #scheduleIdle(): void {
    if (this.#cancelIdle || this.#requested) return;
    let idle: number | undefined;
    const timer = setTimeout(() => {
      if (typeof requestIdleCallback === 'function') {
        idle = requestIdleCallback(() => this.#load(), { timeout: 2000 });
      } else {
        this.#load();
      }
    }, this.#settings().idlePreloadDelayMs);
    this.#cancelIdle = () => {
      clearTimeout(timer);
      if (idle !== undefined) cancelIdleCallback(idle);
    };
  }
}
