// The optional features' view parts, each its own chunk with its part, styles and strings'
// use: fetched only when the element's attribute asks for it (as strings-idle.ts's LANGUAGES are
// fetched only for a `lang`), and shared by every element on the page. A failed load settles
// (the element goes on without the part) and is tried again next time.
import { adoptStyles, type CSSResult } from 'lit';

/** Each optional feature's chunk, by the attribute that asks for it. */
export const FEATURE_PARTS = {
  feedback: () => import('../features/feedback/feedback-part.js'),
};

export type FeaturePartName = keyof typeof FEATURE_PARTS;
export type FeaturePart<K extends FeaturePartName> = Awaited<ReturnType<(typeof FEATURE_PARTS)[K]>>;

const loaded = new Map<FeaturePartName, unknown>();
const loading = new Map<FeaturePartName, Promise<void>>();

/** The feature's part if its chunk has loaded, else undefined. */
export function loadedPart<K extends FeaturePartName>(name: K): FeaturePart<K> | undefined {
  return loaded.get(name) as FeaturePart<K> | undefined;
}

/** Loads the feature's chunk unless it has loaded; null when nothing needs loading. */
export function loadPart(name: FeaturePartName): Promise<void> | null {
  if (loaded.has(name)) return null;
  let pending = loading.get(name);
  if (!pending) {
    pending = FEATURE_PARTS[name]().then(
      (module) => void loaded.set(name, module),
      () => undefined,
    );
    pending.finally(() => loading.delete(name));
    loading.set(name, pending);
  }
  return pending;
}

/** A part's styles join the shadow root's sheets (after the call's, as one sheet would have them). */
export function adoptPartStyles(root: ShadowRoot, styles: CSSResult): void {
  const sheet = styles.styleSheet;
  if (sheet) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  else adoptStyles(root, [styles]);
}
