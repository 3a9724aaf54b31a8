// `/tts` and `/tts/multispeaker`: text to speech (voicelab).
import type { ModelOptionValue } from './models.js';

export interface TtsFormat {
  outputType: 'RAW_PCM16' | 'WAV_PCM16' | 'MP3';
  sampleRate: 8000 | 16000 | 22050 | 24000 | 41500 | 48000;
}

/** `POST /tts`; the default format is WAV_PCM16 at 24 kHz. */
export interface TtsInput {
  text: string;
  voiceId: string;
  voiceOptionValues?: ModelOptionValue[];
  format?: TtsFormat;
}

export interface MultispeakerTtsInput {
  lines: { text: string; voiceId: string }[];
  voiceOptionValues?: ModelOptionValue[];
  format?: TtsFormat;
}
