// PCM helpers for the agent's voice and the caller's microphone: WAV parsing, resampling to the
// 48 kHz mono Int16 that WebRTC wants, 10 ms framing, a tone fallback and frame levels. Pure.

export const SAMPLE_RATE = 48_000;
/** WebRTC audio sources take exactly 10 ms per frame. */
export const FRAME_SAMPLES = SAMPLE_RATE / 100;

export interface Pcm {
  sampleRate: number;
  channels: number;
  /** Interleaved 16-bit samples. */
  samples: Int16Array;
}

export class WavError extends Error {
  override name = 'WavError';
}

/** Reads a 16-bit PCM WAV (what espeak-ng writes). */
export function parseWav(bytes: Uint8Array): Pcm {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (offset: number) => String.fromCharCode(...bytes.subarray(offset, offset + 4));
  if (bytes.byteLength < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new WavError('not a RIFF/WAVE file');
  let offset = 12;
  let format: { channels: number; sampleRate: number; bits: number; code: number } | undefined;
  while (offset + 8 <= bytes.byteLength) {
    const id = tag(offset);
    // espeak-ng writing to a pipe leaves the sizes at 0x7fffffff: clamp to what is there.
    const size = Math.min(view.getUint32(offset + 4, true), bytes.byteLength - offset - 8);
    const body = offset + 8;
    if (id === 'fmt ') {
      format = {
        code: view.getUint16(body, true),
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        bits: view.getUint16(body + 14, true),
      };
    } else if (id === 'data') {
      if (!format) throw new WavError('data chunk before fmt chunk');
      if (format.code !== 1 || format.bits !== 16) throw new WavError('only 16-bit PCM WAV is supported');
      const count = Math.floor(size / 2);
      const samples = new Int16Array(count);
      for (let i = 0; i < count; i++) samples[i] = view.getInt16(body + i * 2, true);
      return { sampleRate: format.sampleRate, channels: format.channels, samples };
    }
    offset = body + size + (size % 2);
  }
  throw new WavError('no data chunk');
}

/** Mixes down to mono and resamples (linear interpolation) to 48 kHz. */
export function toMono48k(pcm: Pcm): Int16Array {
  const frames = Math.floor(pcm.samples.length / pcm.channels);
  const mono = new Float32Array(frames);
  for (let i = 0; i < frames; i++) {
    let sum = 0;
    for (let c = 0; c < pcm.channels; c++) sum += pcm.samples[i * pcm.channels + c] ?? 0;
    mono[i] = sum / pcm.channels;
  }
  if (pcm.sampleRate === SAMPLE_RATE) return Int16Array.from(mono, (v) => Math.round(v));
  const ratio = pcm.sampleRate / SAMPLE_RATE;
  const length = Math.floor(frames / ratio);
  const out = new Int16Array(length);
  for (let i = 0; i < length; i++) {
    const position = i * ratio;
    const left = Math.floor(position);
    const right = Math.min(left + 1, frames - 1);
    const fraction = position - left;
    out[i] = Math.round((mono[left] ?? 0) * (1 - fraction) + (mono[right] ?? 0) * fraction);
  }
  return out;
}

/** Splits into 10 ms frames; the last one is padded with silence. */
export function toFrames(samples: Int16Array): Int16Array[] {
  const frames: Int16Array[] = [];
  for (let start = 0; start < samples.length; start += FRAME_SAMPLES) {
    const frame = new Int16Array(FRAME_SAMPLES);
    frame.set(samples.subarray(start, Math.min(start + FRAME_SAMPLES, samples.length)));
    frames.push(frame);
  }
  return frames;
}

/** The stand-in voice when espeak-ng is missing: a soft two-note chime per word. */
export function toneFor(text: string): Int16Array {
  const words = Math.max(1, text.split(/\s+/).filter(Boolean).length);
  const wordSamples = Math.round(SAMPLE_RATE * 0.28);
  const out = new Int16Array(words * wordSamples);
  for (let w = 0; w < words; w++) {
    const frequency = w % 2 === 0 ? 440 : 550;
    for (let i = 0; i < wordSamples; i++) {
      const envelope = Math.sin((Math.PI * i) / wordSamples);
      out[w * wordSamples + i] = Math.round(9000 * envelope * Math.sin((2 * Math.PI * frequency * i) / SAMPLE_RATE));
    }
  }
  return out;
}

/** Peak level of a frame, 0…1. */
export function peakLevel(samples: Int16Array): number {
  let peak = 0;
  for (const sample of samples) {
    const magnitude = Math.abs(sample);
    if (magnitude > peak) peak = magnitude;
  }
  return peak / 32768;
}

/**
 * How many 10 ms frames are due at `nowMs` for a pump started at `startMs` that has sent `sent`
 * frames: a drift-free schedule (timers fire late; the next tick catches up), capped so a long
 * stall does not burst seconds of audio at once.
 */
export function framesDue(startMs: number, nowMs: number, sent: number, maxBurst = 10): number {
  const due = Math.floor((nowMs - startMs) / 10) + 1 - sent;
  return Math.max(0, Math.min(due, maxBurst));
}

/** Cuts the quiet before the first and after the last sound (espeak-ng pads its lines), keeping `padMs`. */
export function trimSilence(samples: Int16Array, threshold = 0.01, padMs = 40): Int16Array {
  const limit = threshold * 32768;
  let first = 0;
  while (first < samples.length && Math.abs(samples[first] ?? 0) < limit) first++;
  if (first === samples.length) return samples;
  let last = samples.length - 1;
  while (last > first && Math.abs(samples[last] ?? 0) < limit) last--;
  const pad = Math.round((SAMPLE_RATE * padMs) / 1000);
  return samples.slice(Math.max(0, first - pad), Math.min(samples.length, last + 1 + pad));
}
