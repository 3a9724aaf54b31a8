// The one import of the media module (livekit-client, a lazy chunk), shared by every CallSession,
// `preloadMedia` and the element. Kept apart from call-session.ts so that the element's idle
// entry can start this load on the click without holding the call logic.
import { lazyChunk } from './lazy-chunk.js';

export type MediaModule = typeof import('./media/livekit-media.js');

/**
 * The call chunk and the media chunk share the error classes (errors.ts), which the bundler puts
 * in a small chunk of its own that each of them imports. Asking for it when either starts loading
 * fetches it beside them, not only once one of them has arrived (a round trip more on the click).
 */
export function warmErrors(): void {
  import('./errors.js').catch(() => undefined);
}

const media = lazyChunk(() => {
  warmErrors();
  return import('./media/livekit-media.js');
});

export const loadMedia: () => Promise<MediaModule> = media.load;

/**
 * Starts loading the media module (livekit-client, the lazy chunk) before a call, e.g. when the
 * visitor shows intent. Idempotent: the chunk is fetched once, and the next call uses it.
 */
export function preloadMedia(): Promise<void> {
  return loadMedia().then(() => undefined);
}
