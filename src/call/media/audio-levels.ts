// How loud the agent and the visitor are right now, from their audio tracks (Web Audio analysers
// on one AudioContext). Read once per animation frame by the element's voice presence: reading is
// one small copy and a sum per track, nothing is scheduled here. In the media chunk, beside the
// tracks it measures.
import type { VoiceLevels } from '../types.js';

export type Voice = keyof VoiceLevels;

interface Meter {
  source: MediaStreamAudioSourceNode;
  analyser: AnalyserNode;
  samples: Float32Array<ArrayBuffer>;
  level: number;
}

/** dBFS mapped to 0…1: -60 dB (room noise) is 0, -12 dB (speech close to the microphone) is 1. */
const FLOOR_DB = -60;
const CEILING_DB = -12;
/** Per read (per frame): a level jumps up at once and falls back over a few frames, as a VU meter does. */
const RELEASE = 0.82;

export class AudioLevelMeter {
  #context: AudioContext | null = null;
  readonly #meters = new Map<Voice, Meter>();
  #closed = false;

  /** Measures `track` as `voice` from now on (null stops measuring it). */
  track(voice: Voice, track: MediaStreamTrack | null): void {
    const old = this.#meters.get(voice);
    if (old) {
      old.source.disconnect();
      this.#meters.delete(voice);
    }
    if (!track || this.#closed) return;
    const context = this.#audioContext();
    if (!context) return;
    try {
      const source = context.createMediaStreamSource(new MediaStream([track]));
      const analyser = context.createAnalyser();
      analyser.fftSize = 512;
      // Not connected to the destination: measured, never played a second time.
      source.connect(analyser);
      this.#meters.set(voice, { source, analyser, samples: new Float32Array(analyser.fftSize), level: 0 });
    } catch {
      // A browser without Web Audio for media streams: the presence shows no levels, the call goes on.
    }
  }

  read(): VoiceLevels {
    return { agent: this.#read('agent'), visitor: this.#read('visitor') };
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const voice of [...this.#meters.keys()]) this.track(voice, null);
    void this.#context?.close().catch(() => undefined);
    this.#context = null;
  }

  #read(voice: Voice): number {
    const meter = this.#meters.get(voice);
    if (!meter) return 0;
    meter.analyser.getFloatTimeDomainData(meter.samples);
    let sum = 0;
    for (const sample of meter.samples) sum += sample * sample;
    const rms = Math.sqrt(sum / meter.samples.length);
    const db = rms > 0 ? 20 * Math.log10(rms) : -Infinity;
    const now = Math.min(1, Math.max(0, (db - FLOOR_DB) / (CEILING_DB - FLOOR_DB)));
    meter.level = Math.max(now, meter.level * RELEASE);
    return meter.level < 0.01 ? 0 : meter.level;
  }

  #audioContext(): AudioContext | null {
    if (this.#context) return this.#context;
    if (typeof AudioContext === 'undefined') return null;
    this.#context = new AudioContext();
    // Made after the visitor's click (sticky activation), so it may start; if the browser keeps it
    // suspended, the levels stay 0 and nothing else changes.
    if (this.#context.state === 'suspended') void this.#context.resume().catch(() => undefined);
    return this.#context;
  }
}
