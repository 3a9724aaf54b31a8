// The agent's voice: one <audio> element per call, played from the visitor's click (gesture.ts)
// so the browser lets it play the agent later, and removed when the call lets go of its media.

export class AgentAudio {
  readonly element: HTMLAudioElement;
  readonly #onBlocked: (blocked: boolean) => void;
  #released = false;

  /** `onBlocked` hears whether the browser refuses playback (no user gesture yet) or allows it again. */
  constructor(element: HTMLAudioElement, onBlocked: (blocked: boolean) => void) {
    this.element = element;
    this.#onBlocked = onBlocked;
  }

  /** Plays the agent's track, or nothing once it went away. */
  play(track: MediaStreamTrack | null): void {
    this.element.srcObject = track ? new MediaStream([track]) : null;
    if (track) void this.resume();
  }

  /** Starts playback (again); from a click it overcomes the browser's autoplay refusal. */
  async resume(): Promise<void> {
    try {
      await this.element.play();
      if (!this.#released) this.#onBlocked(false);
    } catch (error) {
      if (this.#released) return;
      if (error instanceof DOMException && error.name === 'NotAllowedError') this.#onBlocked(true);
    }
  }

  /** Stops and removes the element; nothing it does afterwards is reported. */
  release(): void {
    this.#released = true;
    this.element.pause();
    this.element.srcObject = null;
    this.element.remove();
  }
}
