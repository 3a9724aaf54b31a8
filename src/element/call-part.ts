// What an in-call feature's view is to CallView (call chunk): a part, a reactive controller of the
// element with what it renders in the card's body, what it adds to the controls row and what the
// live region says for it. CallView loops over its parts in PART_ORDER and names none of them; an
// optional part comes in its own chunk (feature-parts.ts) and joins the loop once it has loaded.
import type { nothing, ReactiveControllerHost, TemplateResult } from 'lit';
import type { CallSessionEventMap, CallSessionLike, CallState } from '../call/types.js';
import { CONTROL_FEATURES, type ControlFeature } from '../features/registry.js';
import type { VoiceAgentCallStrings } from './strings.js';
import type { SheetSlot } from './sheet-slot.js';

/** The tokens of `controls`: the two every call has, and the registry's controls; hang-up always shows. */
export type InCallControl = 'mute' | 'devices' | ControlFeature;
const CONTROL_TOKENS: ReadonlySet<string> = new Set(['mute', 'devices', ...CONTROL_FEATURES]);
const DEFAULT_CONTROLS = 'mute devices';

/** `controls` as the set of controls it names; unknown tokens are ignored. */
export function shownControls(attribute: string | undefined | null): Set<InCallControl> {
  const tokens = (attribute ?? DEFAULT_CONTROLS).split(/\s+/);
  return new Set(tokens.filter((token): token is InCallControl => CONTROL_TOKENS.has(token)));
}

/** `{key}` in a string replaced with `value`. */
export function fill(template: string, key: string, value: string): string {
  return template.split(`{${key}}`).join(value);
}

/** What a part may ask of the element: its attributes and public methods (a part never reaches past them). */
export interface PartHost extends ReactiveControllerHost, HTMLElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
  /** The `controls` attribute. */
  readonly controls?: string | null;
  /** The `feedback` attribute. */
  readonly feedback?: string | boolean | null;
  readonly held: boolean;
  readonly microphoneId: string | null;
  readonly speakerId: string | null;
  setHeld(held: boolean): Promise<void>;
  requestTransfer(): Promise<void>;
  sendDigits(digits: string): Promise<void>;
  setMicrophone(deviceId: string): Promise<void>;
  setSpeaker(deviceId: string): Promise<void>;
}

/** What CallView gives each part it makes. */
export interface PartContext {
  readonly host: PartHost;
  /** The element's session, once it has one. */
  session(): CallSessionLike | null;
  /** Renders soon: something the part shows changed. */
  invalidate(): void;
  /** The one sheet (keypad, devices menu) open in the body. */
  readonly sheets: SheetSlot;
  /** The visitor acted on a control: the notice of what changed before goes. */
  clearNotice(): void;
}

/**
 * Where a part's body goes in the card: `first`, above everything else while a call is set up or
 * up (the notice of what to do first); `in-call`, above the voice meters; `ended`, under the ended summary.
 */
export type PartPlace = 'first' | 'in-call' | 'ended';

export interface CallPart {
  /** Where `body()` renders (default `in-call`). */
  readonly place?: PartPlace;
  /** Its announcement goes before the other parts' (a notice of what the visitor's choice did). */
  readonly urgent?: boolean;
  /** Every session event, in order, after the element's own handling. */
  onSessionEvent?(type: keyof CallSessionEventMap, event: Event): void;
  /** What it shows in the body. */
  body?(s: VoiceAgentCallStrings, state: CallState): TemplateResult | typeof nothing;
  /** Its buttons in the controls row (between mute and hang-up), or nothing. */
  buttons?(s: VoiceAgentCallStrings, state: CallState): TemplateResult | typeof nothing;
  /**
   * What the live region says for it instead of the view's own line, or null: in a call, a notice;
   * after one, `line` (the summary) with its question.
   */
  announce?(s: VoiceAgentCallStrings, state: CallState, line: string): string | null;
}

/** Makes a part for the element CallView belongs to. */
export type PartFactory = (context: PartContext) => CallPart;
