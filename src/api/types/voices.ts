// `/voices`: the voice catalogue (its envelope names the list `voices`) and voice cloning.
import type { ListOptions } from './pagination.js';

export interface AIVoice {
  id: string;
  name: string;
  voiceType: string;
  voiceTier: 'STANDARD' | 'PREMIUM';
  description: string;
  [field: string]: unknown;
}

export interface ListVoicesOptions extends ListOptions {
  /** Voices whose name contains this. */
  name?: string;
  voiceType?: string;
}

/** `GET /voices`: the envelope names its list `voices`. */
export interface VoicePage {
  voices: AIVoice[];
  cursor: string | null;
}

export interface CloneVoiceInput {
  name: string;
  /** The voice sample (sent as a multipart file). */
  clip: Blob;
  model: 'CARTESIA' | 'CSM';
  transcription?: string;
}
