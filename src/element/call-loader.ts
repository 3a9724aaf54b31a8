// How the idle entry reaches the call: one dynamic import of the call chunk (in-call.ts: the
// call logic, the in-call UI and its styles, the rest of the English strings). Shared by every
// element on the page; a failed load is tried again by the next request.
import { lazyChunk } from '../call/lazy-chunk.js';
import { warmErrors } from '../call/media-loader.js';

export type CallModule = typeof import('./in-call.js');
/** What `loadCallApi()` resolves to: the call logic for use without the element. */
export type CallApi = CallModule['api'];

const call = lazyChunk(() => {
  warmErrors();
  return import('./in-call.js');
});

/** The call chunk if it has loaded, else null. */
export const loadedCall: () => CallModule | null = call.now;

/** The call chunk, for code that runs only once it has loaded. */
export function requireCall(): CallModule {
  const module = call.now();
  if (!module) throw new Error('the call chunk has not loaded');
  return module;
}

export const loadCall: () => Promise<CallModule> = call.load;

/**
 * The call logic (`CallSession`, the event classes) for a page that uses it without the element
 * and loaded only the idle entry (the CDN script): `const { CallSession } = await loadCallApi();`.
 */
export function loadCallApi(): Promise<CallApi> {
  return loadCall().then((loaded) => loaded.api);
}

/**
 * The call chunk did not load (offline, a deploy replaced it): `call-error` with code
 * `load_failed`, as a plain CustomEvent (the event classes are in that chunk). No session, so no
 * `call-ended`: the call never left idle, and clicking again tries the load again.
 */
export function reportLoadFailure(element: HTMLElement, error: unknown): void {
  const message = `could not load the call logic: ${error instanceof Error ? error.message : String(error)}`;
  const detail = { code: 'load_failed', message, recoverable: true };
  element.dispatchEvent(new CustomEvent('call-error', { detail, bubbles: true, composed: true }));
}

/** A call an earlier page of this tab left (`persist`) may be waiting: only whether one is stored (its key, src/features/persist). */
export function storedResume(): boolean {
  try {
    return sessionStorage.getItem('voice-agent-call:resume') !== null;
  } catch {
    return false; // Storage blocked: nothing was kept either.
  }
}
