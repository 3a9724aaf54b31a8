// The element's card and floating panel as templates (idle entry): the header, the body (the
// idle hint, or the call view's), the controls row (the call button, or the view's controls) and
// the floating launcher. VoiceAgentCall renders them from a CardModel; what only a call shows
// comes from the call view.
import { html, nothing, type TemplateResult } from 'lit';
import { isResting } from '../call/state-predicates.js';
import type { CallState } from '../call/types.js';
import type { CallView } from './call-view.js';
import type { ConsentGate } from '../features/consent/consent-gate.js';
import { closeIcon, phoneIcon } from './icons.js';
import type { VoiceAgentCallStrings } from './strings.js';

const CONNECTING: ReadonlySet<CallState> = new Set<CallState>(['starting', 'connecting', 'reconnecting']);

/** What the card reads of the element. */
export interface CardModel {
  readonly state: CallState;
  readonly view: CallView | null;
  /** The consent gate, once its chunk has loaded: while open, it has the body and the controls row. */
  readonly consent: ConsentGate | null;
  /** The visitor clicked call before the call chunk had loaded. */
  readonly preparing: boolean;
  readonly open: boolean;
  readonly fallback: string | undefined;
  /** Pointer or focus on the call button or launcher: the preload's intent. */
  readonly intent: () => void;
  readonly onStart: () => void;
  readonly onLauncher: () => void;
  readonly onClose: () => void;
}

/** The floating layout: the panel holding the card, and the launcher. */
export function renderFloating(card: CardModel, s: VoiceAgentCallStrings): TemplateResult {
  // A state other than idle comes from the view, so a call that is up always has one.
  const view = card.view;
  return html`<div class="panel" part="panel" id="panel" ?hidden=${!card.open}>
      ${renderCard(card, s, true)}
    </div>
    <button
      class="launcher"
      part="launcher"
      type="button"
      aria-label=${s.launcherLabel}
      aria-expanded=${card.open ? 'true' : 'false'}
      aria-controls="panel"
      @click=${card.onLauncher}
      @pointerenter=${card.intent}
      @focus=${card.intent}
    >
      ${view && !isResting(card.state) ? view.launcherGlyph() : card.open ? closeIcon : phoneIcon}
    </button>`;
}

/** The card: header, body and the controls row. */
export function renderCard(card: CardModel, s: VoiceAgentCallStrings, inPanel: boolean): TemplateResult {
  const state = card.state;
  const view = card.view;
  const idle = state === 'idle';
  const speaking = view?.speaking ?? false;
  const connecting = CONNECTING.has(state) || card.preparing;
  // The header row is a plain <div>: a <header> inside the panel's dialog is a banner to tools
  // that scope it only by a sectioning element without a role, a second banner on the page.
  return html`<section
    class="card"
    part="card"
    role=${inPanel ? 'dialog' : 'region'}
    aria-labelledby="title"
  >
    <div class="header" part="header">
      <div class="avatar${speaking ? ' speaking' : ''}${connecting ? ' connecting' : ''}" part="indicator" aria-hidden="true">
        <slot name="logo"><span class="bars"><i></i><i></i><i></i><i></i></span></slot>
      </div>
      <div class="heading">
        <div class="title" id="title" part="title"><slot name="title">${s.title}</slot></div>
        <div class="status" part="status"><span class="status-dot"></span><span>${
          // The consent gate asks before a new call: the last call's "Call ended" above it would be stale.
          card.consent?.open
            ? s.statusIdle
            : idle || !view
              ? card.preparing
                ? s.statusStarting
                : s.statusIdle
              : view.statusText(s)
        }</span></div>
      </div>
      ${idle || !view ? nothing : view.timer(s)}
      ${
        inPanel && isResting(state)
          ? html`<button
            class="icon-button"
            part="close-button"
            type="button"
            aria-label=${s.closePanel}
            @click=${card.onClose}
          >
            ${closeIcon}
          </button>`
          : nothing
      }
    </div>
    <div class="body" part="body">${
      card.consent?.open ? card.consent.body(s) : view ? view.body(s) : html`<p class="hint">${s.idleHint}</p>`
    }</div>
    <div class="controls" part="controls">${renderControls(card, s)}</div>
  </section>`;
}

function renderControls(card: CardModel, s: VoiceAgentCallStrings): TemplateResult | typeof nothing {
  const state = card.state;
  const view = card.view;
  if (card.consent?.open) return card.consent.controls(s);
  const own = view?.restingControls(s, card.fallback);
  if (own) return own;
  if (isResting(state) || !view) {
    const label = state === 'idle' || !view ? s.startCall : view.againLabel(s);
    return html`<button class="control call" part="call-button"
      type="button"
      data-primary
      @click=${card.onStart}
      @pointerenter=${card.intent}
      @focus=${card.intent}
    >
      ${phoneIcon}<span>${label}</span>
    </button>`;
  }
  return view.controls(s);
}
