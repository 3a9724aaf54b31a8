// The optional features' view parts (the rows of features/registry.ts that have one), each its own
// chunk with its part and styles: fetched only when the element's attribute asks for it (as
// strings-idle.ts's LANGUAGES are fetched only for a `lang`), and shared by every element on the
// page. A failed load settles (the element goes on without the part) and is tried again next
// time. Each chunk exports `makePart` (a PartFactory) and, when it has any, `partStyles`.
import { adoptStyles, type CSSResult } from 'lit';
import { lazyChunk } from '../call/lazy-chunk.js';
import { FEATURES, isAsked, namesWith, type FeaturePartName } from '../features/registry.js';
import { shownControls, type PartFactory, type PartHost } from './call-part.js';

/** What every part's chunk exports. */
export interface PartModule {
  makePart: PartFactory;
  partStyles?: CSSResult;
}

export type { FeaturePartName };
export type FeaturePart<K extends FeaturePartName> = Awaited<ReturnType<(typeof FEATURES)[K]['part']>>;

/** The optional parts, in the card's order (after those every call shows). */
export const PART_NAMES = namesWith('part');

/** The optional parts an element's attributes ask for: the `controls` it names, an attribute it has set (`feedback`). */
export function wantedParts(host: Pick<PartHost, 'controls' | 'feedback'>): FeaturePartName[] {
  const controls = shownControls(host.controls);
  return PART_NAMES.filter((name) => isAsked(name, host, controls));
}

/** Each part's chunk, imported once (call/lazy-chunk.ts). */
const chunks = new Map(PART_NAMES.map((name) => [name, lazyChunk<PartModule>(FEATURES[name].part)]));

/** The feature's part if its chunk has loaded, else undefined. */
export function loadedPart<K extends FeaturePartName>(name: K): FeaturePart<K> | undefined {
  return (chunks.get(name)?.now() ?? undefined) as FeaturePart<K> | undefined;
}

/** Loads the feature's chunk unless it has loaded; null when nothing needs loading. */
export function loadPart(name: FeaturePartName): Promise<void> | null {
  const chunk = chunks.get(name);
  if (!chunk || chunk.now()) return null;
  return chunk.load().then(
    () => undefined,
    () => undefined,
  );
}

/** A part's styles join the shadow root's sheets (after the call's, as one sheet would have them). */
export function adoptPartStyles(root: ShadowRoot, styles: CSSResult): void {
  const sheet = styles.styleSheet;
  if (sheet) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  else adoptStyles(root, [styles]);
}
