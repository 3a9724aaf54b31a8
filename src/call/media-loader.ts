// The one import of the media module (livekit-client, a lazy chunk), shared by every CallSession,
// `preloadMedia` and the element. Kept apart from call-session.ts so that the element's idle
// entry can start this load on the click without holding the call logic.
export type MediaModule = typeof import('./media/livekit-media.js');

let mediaModule: Promise<MediaModule> | null = null;

export function loadMedia(): Promise<MediaModule> {
  if (!mediaModule) {
    const loading = import('./media/livekit-media.js');
    mediaModule = loading;
    // A failed load (offline, a deploy replaced the chunk) is tried again by the next call.
    loading.catch(() => {
      if (mediaModule === loading) mediaModule = null;
    });
  }
  return mediaModule;
}

/**
 * Starts loading the media module (livekit-client, the lazy chunk) before a call, e.g. when the
 * visitor shows intent. Idempotent: the chunk is fetched once, and the next call uses it.
 */
export function preloadMedia(): Promise<void> {
  return loadMedia().then(() => undefined);
}
