// The optional features, one row each: what asks for it (a `controls` token, or an attribute of
// the element that is also the CallSession option of the same name), its view part's chunk and its
// session side's chunk (each a dynamic import() of its own, so this module pulls no feature's code
// into the call chunk that imports it), and the English of the strings its folder declares. The
// rows' order is the parts' order in the card (after those every call shows: "Weak connection",
// the notice, the devices menu) and the order their session hooks run in (after the session's own).
// Everything else derives from it: the parts' chunks (element/feature-parts.ts), the card's order
// (call-view.ts), the tokens of `controls` (call-part.ts), the session's chunks and `features`
// (call/optional-features.ts, OptionalFeature), the element's session options, the public
// VoiceAgentCallStrings (element/strings.ts) and the page-weight table (scripts/build-sizes.ts,
// which finds a row's chunks by their names: a chunk is named after its module, so a row's modules
// start with the row's name, its part's being `<name>-part.ts`).
import type { PartModule } from '../element/feature-parts.js';
import type { SessionModule } from '../call/optional-features.js';
import { holdEn } from './hold/hold-strings.js';
import { keypadEn } from './keypad/keypad-strings.js';
import { transferEn } from './transfer/transfer-strings.js';

/** The element's attributes (and CallSession's options) a feature may be asked for by, besides `controls`. */
export type FeatureAttribute = 'feedback' | 'persist' | 'metrics';

export interface FeatureRow {
  /**
   * `controls`: a token of the `controls` attribute, named as the row (its session side is one of
   * CallSession's `features`). Else the attribute that asks, when it is set (not `false`) or, with
   * `value`, when it says that; a session side is asked by the CallSession option of that name.
   */
  readonly asks: 'controls' | { readonly attribute: FeatureAttribute; readonly value?: string };
  /** Its view part's chunk (a CallPart's factory and styles). */
  readonly part?: () => Promise<PartModule>;
  /** Its session side's chunk (a SessionFeature's factory). */
  readonly session?: () => Promise<SessionModule>;
  /** The English of its strings (keys of the public VoiceAgentCallStrings; the Arabic is strings-ar.ts's). */
  readonly strings?: object;
}

export const FEATURES = {
  keypad: {
    asks: 'controls',
    part: () => import('./keypad/keypad-part.js'),
    session: () => import('./keypad/keypad-feature.js'),
    strings: keypadEn,
  },
  hold: {
    asks: 'controls',
    part: () => import('./hold/hold-part.js'),
    session: () => import('./hold/hold-feature.js'),
    strings: holdEn,
  },
  transfer: {
    asks: 'controls',
    part: () => import('./transfer/transfer-part.js'),
    session: () => import('./transfer/transfer-feature.js'),
    strings: transferEn,
  },
  feedback: {
    asks: { attribute: 'feedback' },
    part: () => import('./feedback/feedback-part.js'),
  },
  persist: {
    asks: { attribute: 'persist' },
    part: () => import('./persist/persist-part.js'),
    session: () => import('./persist/persist-feature.js'),
  },
  metrics: {
    asks: { attribute: 'metrics', value: 'server' },
    session: () => import('./metrics/metrics-report.js'),
  },
} as const satisfies Record<string, FeatureRow>;

type Rows = typeof FEATURES;
export type FeatureName = keyof Rows;
/** The features with a view part. */
export type FeaturePartName = { [K in FeatureName]: Rows[K] extends { part: unknown } ? K : never }[FeatureName];
/** The features with a session side. */
export type SessionFeatureName = { [K in FeatureName]: Rows[K] extends { session: unknown } ? K : never }[FeatureName];
/** The `controls` tokens the registry adds to `mute` and `devices`. */
export type ControlFeature = { [K in FeatureName]: Rows[K] extends { asks: 'controls' } ? K : never }[FeatureName];
/** CallSession's `features`: the controls with a session side. */
export type OptionalFeatureName = ControlFeature & SessionFeatureName;

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** Every feature's strings, as its folder declares them. */
export type FeatureStrings = Intersection<
  { [K in FeatureName]: Rows[K] extends { strings: infer S } ? S : never }[FeatureName]
>;

/** The rows in order, as the loops over them read them. */
export const FEATURE_ROWS = Object.entries(FEATURES) as [FeatureName, FeatureRow][];

/** Every feature's English strings, joined (element/strings.ts spreads them into `en`). */
export const featuresEn = Object.assign({}, ...FEATURE_ROWS.map(([, row]) => row.strings ?? {})) as FeatureStrings;

/** The names of the rows that have `side`, in order. */
export function namesWith<K extends 'part' | 'session'>(
  side: K,
): (K extends 'part' ? FeaturePartName : SessionFeatureName)[] {
  return FEATURE_ROWS.filter(([, row]) => row[side]).map(([name]) => name) as (K extends 'part'
    ? FeaturePartName
    : SessionFeatureName)[];
}

/** The names of the rows a token of `controls` asks for, in order. */
export const CONTROL_FEATURES = FEATURE_ROWS.filter(([, row]) => row.asks === 'controls').map(
  ([name]) => name,
) as ControlFeature[];

/** The names of the `controls` rows that have a session side (CallSession's `features`). */
export const OPTIONAL_FEATURES = CONTROL_FEATURES.filter((name) => FEATURES[name].session) as OptionalFeatureName[];

/**
 * Whether `source` (an element's properties, or a session's options) asks for the feature: a
 * `controls` row when `controls` (the tokens of `controls`, or `features`) names it; another when
 * its attribute is set and not false or, with the row's `value`, says that.
 */
export function isAsked(name: FeatureName, source: object, controls: ReadonlySet<string>): boolean {
  const { asks }: FeatureRow = FEATURES[name];
  if (asks === 'controls') return controls.has(name);
  const value = (source as Partial<Record<FeatureAttribute, unknown>>)[asks.attribute];
  return asks.value === undefined ? value != null && value !== false : value === asks.value;
}
