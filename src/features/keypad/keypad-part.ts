// The keypad (`controls` has `keypad`), in a chunk of its own (element/feature-parts.ts) fetched
// only for an element that shows it: its toggle in the controls row, the 12-key pad it opens in
// the body with the digits sent so far, and digits typed anywhere in the widget while it is open.
import { html, nothing, svg, type CSSResult, type TemplateResult } from 'lit';
import type { CallDtmfEvent, CallStateEvent } from '../../call/events.js';
import { isUp } from '../../call/state-predicates.js';
import type { CallSessionEventMap, CallState } from '../../call/types.js';
import { shownControls, type CallPart, type PartContext } from '../../element/call-part.js';
import { icon } from '../../element/icons.js';
import type { VoiceAgentCallStrings } from '../../element/strings.js';
import { keypadStyles } from './keypad-styles.js';

const SHEET = 'keypad';
const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'] as const;
/** The pad's keys, which are the keypad's digits (src/wire/dtmf.ts, in the keypad's session chunk). */
const KEY_SET: ReadonlySet<string> = new Set(KEYS);
const KEY_LETTERS: Partial<Record<string, string>> = {
  '2': 'ABC',
  '3': 'DEF',
  '4': 'GHI',
  '5': 'JKL',
  '6': 'MNO',
  '7': 'PQRS',
  '8': 'TUV',
  '9': 'WXYZ',
  '0': '+',
};

const keypadIcon = icon(
  svg`<g fill="currentColor" stroke="none"><circle cx="6" cy="4" r="1.6"/><circle cx="12" cy="4" r="1.6"/><circle cx="18" cy="4" r="1.6"/><circle cx="6" cy="10" r="1.6"/><circle cx="12" cy="10" r="1.6"/><circle cx="18" cy="10" r="1.6"/><circle cx="6" cy="16" r="1.6"/><circle cx="12" cy="16" r="1.6"/><circle cx="18" cy="16" r="1.6"/><circle cx="12" cy="21.5" r="1.6"/></g>`,
);

export class KeypadPart implements CallPart {
  readonly #context: PartContext;
  /** The digits sent in this call, shown above the pad. */
  #sent = '';

  constructor(context: PartContext) {
    this.#context = context;
    context.host.addController({
      hostConnected: () => context.host.addEventListener('keydown', this.#onKeydown),
      hostDisconnected: () => context.host.removeEventListener('keydown', this.#onKeydown),
    });
  }

  onSessionEvent(type: keyof CallSessionEventMap, event: Event): void {
    if (type === 'call-dtmf') this.#sent = (this.#sent + (event as CallDtmfEvent).detail.digit).slice(-24);
    else if (type === 'call-state' && (event as CallStateEvent).detail.state === 'starting') this.#sent = '';
  }

  buttons(s: VoiceAgentCallStrings, state: CallState): TemplateResult | typeof nothing {
    const { host, session, sheets } = this.#context;
    if (!shownControls(host.controls).has('keypad') || !session()?.sendDigits) return nothing;
    return sheets.button(SHEET, s.keypad, keypadIcon, isUp(state) ? undefined : 'true', this.#onToggle);
  }

  body(s: VoiceAgentCallStrings, state: CallState): TemplateResult | typeof nothing {
    if (!isUp(state) || this.#context.sheets.open !== SHEET) return nothing;
    return html`<div class="sheet keypad" part="keypad" id="keypad" role="group" aria-label=${s.keypad}>
      <div class="keypad-sent" dir="ltr" aria-hidden="true">${this.#sent || '\u00a0'}</div>
      <div class="keys">
        ${KEYS.map(
          (key) => html`<button
            class="key"
            part="keypad-key"
            type="button"
            data-key=${key}
            @click=${() => this.#send(key)}
          >
            <span class="digit">${key}</span><span class="letters" aria-hidden="true">${KEY_LETTERS[key] ?? '\u00a0'}</span>
          </button>`,
        )}
      </div>
    </div>`;
  }

  readonly #onToggle = (): void => {
    const session = this.#context.session();
    if (!session || !isUp(session.state)) return;
    const root = this.#context.host.renderRoot;
    this.#context.sheets.toggle(SHEET, { first: () => root.querySelector<HTMLElement>('.keypad .key') });
  };

  #send(digit: string): void {
    this.#context.host.sendDigits(digit).catch(() => undefined);
  }

  /** Digits typed anywhere in the widget while the keypad is open are sent. */
  readonly #onKeydown = (event: KeyboardEvent): void => {
    if (this.#context.sheets.open !== SHEET || event.defaultPrevented) return;
    if (event.ctrlKey || event.metaKey || event.altKey || !KEY_SET.has(event.key)) return;
    event.preventDefault();
    this.#send(event.key);
  };
}

export const partStyles: CSSResult = keypadStyles;
export const makePart = (context: PartContext): CallPart => new KeypadPart(context);
