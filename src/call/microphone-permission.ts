// Whether the microphone is already granted, from the Permissions API: in the call chunk only
// (gesture.ts, which the idle entry holds too, stays as small as the click needs).

/**
 * Whether the visitor has already granted the microphone (the Permissions API says `granted`, e.g. a
 * returning visitor), so `request` cannot end in a refusal: then a call may create its dial while
 * `getUserMedia` resolves. `false` for `prompt`, `denied`, a browser that cannot say, and when the
 * request settles first (the answer would come too late to save anything).
 */
export async function microphoneGranted(request: Promise<MediaStream>): Promise<boolean> {
  const permissions = globalThis.navigator?.permissions;
  if (typeof permissions?.query !== 'function') return false;
  const state = permissions
    .query({ name: 'microphone' as PermissionName })
    .then((status) => status.state === 'granted')
    .catch(() => false);
  const settled = request.then(
    () => false,
    () => false,
  );
  return Promise.race([state, settled]);
}
