// The consent gate, a chunk of its own (element/consent-loader.ts) that needs no session: when the
// element has a `consent` attribute or a
// `consent` slot, a click on the call button first shows the disclosure with "Agree and call" and
// "Cancel". Nothing is asked of the browser before "Agree": no microphone request, no dial. The
// agree click starts the call itself, so the microphone request and the audio unlock still happen
// inside a user gesture. An agreement is remembered for the page (once per page), and with
// `consent-storage="session"` or `"local"` in that storage under a key holding a hash of the text,
// so a changed text asks again. `CallSession` knows nothing of it. The element fetches this chunk
// on the click, shows the disclosure as soon as it arrives, and the call and media chunks load
// behind it; its strings are the idle card's (strings-idle.ts).
import {
  adoptStyles,
  html,
  nothing,
  type ReactiveController,
  type ReactiveControllerHost,
  type TemplateResult,
} from 'lit';
import { isResting } from '../../call/state-predicates.js';
import type { CallState } from '../../call/types.js';
import { loadCall, loadedCall, type CallModule } from '../../element/call-loader.js';
import { consentStyles } from './consent-styles.js';
import { consentEn, type ConsentStrings } from './consent-strings.js';

/** Where an agreement is kept beyond the page: the `consent-storage` attribute. */
export type ConsentStorage = 'session' | 'local';

/** Prefix of the storage key; the rest is a hash of the disclosure. */
export const CONSENT_KEY_PREFIX = 'voice-agent-call:consent:';

const TABBABLE = 'a[href], button:not([disabled]), input, select, textarea, [tabindex]:not([tabindex="-1"])';

/** Agreements given on this page, by the hash of their text: asked once per page. */
const agreedOnPage = new Map<string, string>();

/**
 * cyrb53, a fast 53-bit string hash, as hex: a key that changes with the text. Synchronous
 * (unlike `crypto.subtle`), so the click that finds an agreement can start the call in its gesture.
 */
export function hashText(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16);
}

/** The storage `consent-storage` names, or null (unset, another value, or storage the browser refuses). */
function storageOf(value: string | null | undefined): Storage | null {
  try {
    if (value === 'session') return globalThis.sessionStorage;
    if (value === 'local') return globalThis.localStorage;
  } catch {
    // Storage blocked (a sandboxed frame, a browser setting): the page remembers it alone.
  }
  return null;
}

/** The focusable nodes under `root` in tab order, slotted content where its slot is. */
function tabbables(root: Element): HTMLElement[] {
  const found: HTMLElement[] = [];
  const visit = (node: Element): void => {
    if (node instanceof HTMLSlotElement) {
      for (const assigned of node.assignedElements({ flatten: true })) visit(assigned);
      return;
    }
    if (node instanceof HTMLElement && node.matches(TABBABLE) && !node.hidden) found.push(node);
    for (const child of node.children) visit(child);
  };
  visit(root);
  return found;
}

export interface ConsentHost extends ReactiveControllerHost, HTMLElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
  /** The `consent` attribute. */
  readonly consent?: string | null;
  /** The `consent-storage` attribute. */
  readonly consentStorage?: string | null;
  readonly state: CallState;
}

/**
 * `call-consent` on the element, a `CallConsentEvent`: its class is in the call chunk, which loads
 * behind the gate; fired at once when that chunk is there (the visitor read the disclosure first),
 * else as soon as it is.
 */
function fireConsent(host: HTMLElement, accepted: boolean, at: string): void {
  const fire = (module: CallModule): void => void host.dispatchEvent(new module.api.CallConsentEvent({ accepted, at }));
  const module = loadedCall();
  if (module) fire(module);
  else loadCall().then(fire, () => undefined);
}

/** The gate's strings: the element's, over the gate's own English. */
function consentStrings(s: Partial<ConsentStrings>): ConsentStrings {
  return { ...consentEn, ...s };
}

export class ConsentGate implements ReactiveController {
  private readonly _host: ConsentHost;
  /** The start the visitor is asked about, while the gate is open. */
  private _pending: { start: () => Promise<void>; hash: string; resolve: () => void } | null = null;
  /** A second `start()` while the gate is open: settles with the first. */
  private _waiters: Array<() => void> = [];
  /** When the visitor agreed for the current or last call (undefined without a gate). */
  private _consentAt: string | undefined;

  constructor(host: ConsentHost) {
    this._host = host;
    host.addController(this);
    // Its styles join the shadow root's sheets (the call's, adopted later, go before them).
    const root = host.shadowRoot;
    const sheet = consentStyles.styleSheet;
    if (root && sheet) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    else if (root) adoptStyles(root, [consentStyles]);
  }

  /** The gate is showing. */
  get open(): boolean {
    return this._pending !== null;
  }

  /** When the visitor agreed, for `call-ended`'s `consentAt`; undefined when no gate applied. */
  get consentAt(): string | undefined {
    return this._consentAt;
  }

  /** The slotted disclosure, if the page gave one. */
  private _slotted(): Element[] {
    return [...this._host.children].filter((child) => child.getAttribute('slot') === 'consent');
  }

  /** What the visitor agrees to, as the hash and the announcement read it; null without a gate. */
  private _disclosure(): { source: string; text: string } | null {
    const slotted = this._slotted();
    if (slotted.length > 0) {
      const text = slotted.map((node) => node.textContent ?? '').join(' ');
      return { source: slotted.map((node) => node.outerHTML).join(''), text: text.replace(/\s+/g, ' ').trim() };
    }
    const attribute = this._host.consent;
    return attribute == null || attribute.trim() === '' ? null : { source: attribute, text: attribute.trim() };
  }

  /**
   * Runs `start` at once when there is no gate, the call is up, or the visitor agreed before
   * (this page, or the storage `consent-storage` names); otherwise shows the gate and runs it from
   * the "Agree and call" click. Resolves as `start` does, or once the visitor cancelled.
   */
  ask(start: () => Promise<void>): Promise<void> {
    const state = this._host.state;
    if (!isResting(state)) return start();
    const disclosure = this._disclosure();
    if (!disclosure) {
      this._consentAt = undefined;
      return start();
    }
    const hash = hashText(disclosure.source);
    const earlier = agreedOnPage.get(hash) ?? this._stored(hash);
    if (earlier) {
      this._consentAt = earlier;
      return start();
    }
    if (this._pending) return new Promise((resolve) => this._waiters.push(resolve));
    return new Promise<void>((resolve) => {
      this._pending = { start, hash, resolve };
      this._host.requestUpdate();
      void this._host.updateComplete.then(() => this._focus('[part~="consent-agree"]'));
      this._host.addEventListener('keydown', this._onKeydown, true);
    });
  }

  private _stored(hash: string): string | undefined {
    try {
      return storageOf(this._host.consentStorage)?.getItem(CONSENT_KEY_PREFIX + hash) ?? undefined;
    } catch {
      return undefined;
    }
  }

  private _close(accepted: boolean): { start: () => Promise<void>; resolve: () => void } | null {
    const pending = this._pending;
    if (!pending) return null;
    this._pending = null;
    this._host.removeEventListener('keydown', this._onKeydown, true);
    const at = new Date().toISOString();
    if (accepted) {
      this._consentAt = at;
      agreedOnPage.set(pending.hash, at);
      try {
        storageOf(this._host.consentStorage)?.setItem(CONSENT_KEY_PREFIX + pending.hash, at);
      } catch {
        // Storage full or refused: the page still remembers the agreement.
      }
    }
    fireConsent(this._host, accepted, at);
    this._host.requestUpdate();
    const waiters = this._waiters;
    this._waiters = [];
    const resolve = () => {
      pending.resolve();
      for (const waiter of waiters) waiter();
    };
    return { start: pending.start, resolve };
  }

  /** "Agree and call": the call starts inside this click (microphone request, audio unlock). */
  private readonly _onAgree = (): void => {
    const closed = this._close(true);
    if (closed) void closed.start().then(closed.resolve);
  };

  /** "Cancel" or Escape: back to idle, focus on the call button, nothing asked for. */
  cancel(refocus = true): void {
    const closed = this._close(false);
    if (!closed) return;
    closed.resolve();
    if (refocus) void this._host.updateComplete.then(() => this._focus('[part~="call-button"]'));
  }

  private readonly _onCancel = (): void => this.cancel();

  private _focus(selector: string): void {
    this._host.renderRoot.querySelector<HTMLElement>(selector)?.focus();
  }

  /** Escape cancels; in the floating panel Tab and Shift+Tab stay inside it. Capture: before the panel's own Escape. */
  private readonly _onKeydown = (event: KeyboardEvent): void => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      event.preventDefault();
      this.cancel();
      return;
    }
    const panel = this._host.renderRoot.querySelector('.panel');
    if (event.key !== 'Tab' || !panel) return;
    const order = tabbables(panel);
    const first = order[0];
    const last = order[order.length - 1];
    if (!first || !last) return;
    const root = this._host.getRootNode() as Document | ShadowRoot;
    const inShadow = (this._host.shadowRoot?.activeElement ?? null) as HTMLElement | null;
    const active = inShadow ?? (root.activeElement as HTMLElement | null);
    const inside = active !== null && order.includes(active);
    if (event.shiftKey && (!inside || active === first)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (!inside || active === last)) {
      event.preventDefault();
      first.focus();
    }
  };

  hostUpdated(): void {
    // The floating panel closed (launcher, close button) while the gate showed: that is a cancel.
    if (this._pending && this._host.getAttribute('layout') === 'floating' && !this._host.hasAttribute('open')) {
      this.cancel(false);
    }
  }

  hostDisconnected(): void {
    // A move (remove and insert in one task, as frameworks re-parent) keeps the gate; a removal cancels it.
    setTimeout(() => {
      if (!this._host.isConnected) this.cancel(false);
    }, 0);
  }

  /** What the live region says while the gate shows: its label and the disclosure. */
  announcement(s: Partial<ConsentStrings>): string | null {
    if (!this._pending) return null;
    return `${consentStrings(s).consentLabel}. ${this._disclosure()?.text ?? ''}`;
  }

  /** The disclosure, in the card's body. */
  body(s: Partial<ConsentStrings>): TemplateResult | typeof nothing {
    if (!this._pending) return nothing;
    return html`<div class="consent" part="consent" role="group" aria-labelledby="consent-label">
      <p class="consent-label" id="consent-label">${consentStrings(s).consentLabel}</p>
      <div class="consent-text" id="consent-text"><slot name="consent">${this._host.consent}</slot></div>
    </div>`;
  }

  /** "Agree and call" and "Cancel", in the controls row. */
  controls(strings: Partial<ConsentStrings>): TemplateResult {
    const s = consentStrings(strings);
    return html`<button
        class="control secondary"
        part="consent-cancel"
        type="button"
        @click=${this._onCancel}
      >${s.consentCancel}</button>
      <button
        class="control call"
        part="consent-agree"
        type="button"
        data-primary
        aria-describedby="consent-text"
        @click=${this._onAgree}
      >${s.consentAgree}</button>`;
  }
}
