// What a call needs from the visitor's click itself (user activation): the microphone request
// and an <audio> element played inside the gesture, so the agent can be heard later. Kept apart
// from call-session.ts so that the element's idle entry can do both in the click while the call
// logic is still loading, and hand them to `CallSession.start()`.

/** The microphone the session asks for: the browser's voice processing on. */
export const MICROPHONE_CONSTRAINTS: MediaTrackConstraints = {
  echoCancellation: true,
  noiseSuppression: true,
  autoGainControl: true,
};

/** What `CallSession.start()` can take over from a click that happened before the session existed. */
export interface CallHandover {
  /** A `getUserMedia` request made in the click (the session stops the tracks at the end). */
  microphone?: Promise<MediaStream>;
  /** An `<audio>` element made by `gestureAudio()` in the click; the session plays the agent in it and removes it at the end. */
  audio?: HTMLAudioElement;
}

/** Asks for the microphone; never throws (a browser without microphone access gives a rejected promise). */
export function requestMicrophone(): Promise<MediaStream> {
  try {
    const devices = globalThis.navigator?.mediaDevices;
    return typeof devices?.getUserMedia === 'function'
      ? devices.getUserMedia({ audio: MICROPHONE_CONSTRAINTS })
      : Promise.reject(new DOMException('this browser offers no microphone access', 'NotFoundError'));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The element that plays the agent, in `container`. */
export function createAudio(container: Node): HTMLAudioElement {
  const audio = document.createElement('audio');
  audio.autoplay = true;
  audio.setAttribute('playsinline', '');
  audio.setAttribute('data-voice-agent-audio', '');
  container.appendChild(audio);
  return audio;
}

/** Call synchronously inside the click: an element that played from a gesture may play the agent later. */
export function unlockPlayback(audio: HTMLAudioElement): void {
  audio.srcObject = new MediaStream();
  audio.play().catch(() => undefined);
}

/**
 * Both requests, made synchronously inside a click, for a `CallSession` that does not exist yet.
 * The element asks only where WebRTC is (`RTCPeerConnection` a constructor, not just a name: a
 * page or extension that blocks WebRTC may leave it defined as `undefined`): a browser without it
 * is not asked for the microphone, and the session then checks all a call needs (capabilities.ts)
 * and says what is missing. Only this one check before, for the idle entry's bytes: without a
 * secure context or getUserMedia there is no prompt to avoid, and no browser has WebRTC without
 * AudioContext and WebSocket.
 */
export function captureGesture(container: Node): Required<CallHandover> {
  const microphone = requestMicrophone();
  // Not unhandled while the session loads: it awaits this promise as soon as it starts.
  microphone.catch(() => undefined);
  const audio = createAudio(container);
  unlockPlayback(audio);
  return { microphone, audio };
}

/** Stops the microphone a request gives (or gave), when no call will use it. */
export function stopMicrophone(request: Promise<MediaStream> | undefined): void {
  request?.then((stream) => stream.getTracks().forEach((track) => track.stop())).catch(() => undefined);
}

/** Gives back what `captureGesture` took when no session will use it (the call logic failed to load). */
export function releaseGesture(handover: Required<CallHandover>): void {
  handover.audio.pause();
  handover.audio.srcObject = null;
  handover.audio.remove();
  stopMicrophone(handover.microphone);
}
