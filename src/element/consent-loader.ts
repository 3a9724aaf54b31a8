// How the idle entry reaches the consent gate: one dynamic import of its chunk
// (features/consent/consent-gate.ts), fetched on the click of an element with a `consent`
// attribute or slot, before and beside the call chunk. Shared by every element on the page; a
// failed load is tried again by the next click.
import type { ConsentGate, ConsentHost } from '../features/consent/consent-gate.js';
import { lazyChunk } from '../call/lazy-chunk.js';
import { loadCall, reportLoadFailure } from './call-loader.js';

export type ConsentModule = typeof import('../features/consent/consent-gate.js');

const consent = lazyChunk(() => import('../features/consent/consent-gate.js'));

export const loadConsent: () => Promise<ConsentModule> = consent.load;

/** The element's consent gate now, or null while its chunk has not loaded. */
export function consentGateNow(element: ConsentHost): ConsentGate | null {
  const module = consent.now();
  return module && new module.ConsentGate(element);
}

/** The element's consent gate, once its chunk has loaded; null (and `call-error` `load_failed`) when it did not. */
export function consentGate(element: ConsentHost): Promise<ConsentGate | null> {
  // The call chunk loads behind the disclosure.
  loadCall().catch(() => undefined);
  return loadConsent().then(
    (module) => new module.ConsentGate(element),
    (error: unknown) => {
      reportLoadFailure(element, error);
      return null;
    },
  );
}

/** The element may ask for consent before a call: a `consent` attribute, or a `consent` slot. */
export function wantsConsent(element: HTMLElement & { readonly consent?: string | undefined }): boolean {
  // An empty `consent` asks nothing: its gate starts the call at once (consent-gate.ts).
  return element.consent != null || element.querySelector('[slot=consent]') !== null;
}
