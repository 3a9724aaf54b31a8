// Whether the microphone is already granted, from the Permissions API: in the call chunk only
// (gesture.ts, which the idle entry holds too, stays as small as the click needs).

/**
 * The microphone's permission status, once asked ahead of a call (`askMicrophonePermission`). The
 * browser keeps its `state` current (a grant or a block in the site's settings changes it), so a
 * click reads the answer at once instead of waiting for the Permissions API (about 10 ms in
 * Chromium, on the dial's path).
 */
let known: PermissionStatus | undefined;

/** The Permissions API's status for the microphone; rejects where the browser cannot say (no API, no such name). */
function queryMicrophone(): Promise<PermissionStatus> {
  try {
    const permissions = globalThis.navigator?.permissions;
    if (typeof permissions?.query !== 'function') return Promise.reject(new Error('no Permissions API'));
    return permissions.query({ name: 'microphone' as PermissionName });
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Asks the Permissions API for the microphone's status ahead of a call (the element does, on intent); never throws, never prompts. */
export function askMicrophonePermission(): void {
  // A browser that cannot say: the click asks (and gets no answer) as before.
  queryMicrophone().then(
    (status) => (known = status),
    () => undefined,
  );
}

/**
 * Whether the visitor has already granted the microphone (the Permissions API says `granted`, e.g. a
 * returning visitor), so `request` cannot end in a refusal: then a call may create its dial while
 * `getUserMedia` resolves. `false` for `prompt`, `denied`, a browser that cannot say, and when the
 * request settles first (the answer would come too late to save anything).
 */
export async function microphoneGranted(request: Promise<MediaStream>): Promise<boolean> {
  if (known) return known.state === 'granted';
  const state = queryMicrophone().then(
    (status) => status.state === 'granted',
    () => false,
  );
  const settled = request.then(
    () => false,
    () => false,
  );
  return Promise.race([state, settled]);
}
