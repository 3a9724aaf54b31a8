// What a browser call needs, checked before anything is spent: before the microphone prompt and
// before a dial exists. Kept tiny: the element's idle entry runs it inside the click.

/** A browser feature a voice call needs, named as a developer would look it up. */
export type CallCapability = 'secure-context' | 'getUserMedia' | 'RTCPeerConnection' | 'AudioContext' | 'WebSocket';

/**
 * What this browser lacks for a voice call; empty when it can place one. `secure-context`: the
 * page is not served over https (nor from localhost), so the browser offers no microphone.
 */
export function missingCapabilities(): CallCapability[] {
  const missing: CallCapability[] = globalThis.isSecureContext ? [] : ['secure-context'];
  if (!globalThis.navigator?.mediaDevices?.getUserMedia) missing.push('getUserMedia');
  for (const name of ['RTCPeerConnection', 'AudioContext', 'WebSocket'] as const) {
    if (!(name in globalThis)) missing.push(name);
  }
  return missing;
}
