// What a browser call needs, checked by CallSession.start() before anything is spent: before the
// microphone prompt and before a dial exists. (The element's idle entry checks only for WebRTC
// before it asks for the microphone inside the click; see voice-agent-call.ts.)

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
