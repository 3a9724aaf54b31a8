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
  if (typeof globalThis.navigator?.mediaDevices?.getUserMedia !== 'function') missing.push('getUserMedia');
  for (const name of ['RTCPeerConnection', 'AudioContext', 'WebSocket'] as const) {
    if (!hasConstructor(name)) missing.push(name);
  }
  return missing;
}

/**
 * The global is a constructor. Not `name in globalThis`: a page or an extension that blocks WebRTC
 * often sets `window.RTCPeerConnection = undefined` (or to a non-function), which `in` still sees.
 */
export function hasConstructor(name: string): boolean {
  return typeof (globalThis as Record<string, unknown>)[name] === 'function';
}
