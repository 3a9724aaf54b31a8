// The agent's side of the room's peer connection, standing in for libwebrtc in the agent tests that
// need no WebRTC: playback runs 20x real time (a 200 ms step every 10 ms), what was played and the
// data packets sent are recorded, and `stopSpeaking` cuts the line under way. `holding` keeps a line
// from advancing, so a test can act while it is certainly still being said.
export class StandInPeer {
  /** Each line played, its length in ms. */
  readonly played: number[] = [];
  /** The data packets the agent sent. */
  readonly packets: Uint8Array[] = [];
  #cut: Array<() => void> = [];
  /** While true, a line under way does not advance (nor end). */
  holding = false;

  play(samples: Int16Array, progress: (playedMs: number) => void = () => {}): Promise<boolean> {
    const durationMs = (samples.length / 48000) * 1000;
    this.played.push(durationMs);
    return new Promise((resolve) => {
      let playedMs = 0;
      const timer = setInterval(() => {
        if (this.holding) return;
        playedMs = Math.min(durationMs, playedMs + 200);
        progress(playedMs);
        if (playedMs >= durationMs) {
          clearInterval(timer);
          resolve(true);
        }
      }, 10);
      this.#cut.push(() => {
        clearInterval(timer);
        resolve(false);
      });
    });
  }

  sendData(packet: Uint8Array): void {
    this.packets.push(packet);
  }

  stopSpeaking(): void {
    for (const cut of this.#cut.splice(0)) cut();
  }
}
