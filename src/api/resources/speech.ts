// `api.speech`: text to speech (voicelab), answered as audio bytes.
import { Resource, type RequestOptions } from '../resource.js';
import type { MultispeakerTtsInput, TtsInput } from '../types/speech.js';

export class SpeechResource extends Resource {
  /** `POST /tts`: the audio bytes (WAV, raw PCM16 or MP3 as `format` asks). */
  synthesize(input: TtsInput, options?: RequestOptions): Promise<ArrayBuffer> {
    return this.client.call('POST', '/tts', { body: input, shape: 'binary' }, options);
  }

  /** `POST /tts/multispeaker`: several voices, one after another, in one audio file. */
  synthesizeMultispeaker(input: MultispeakerTtsInput, options?: RequestOptions): Promise<ArrayBuffer> {
    return this.client.call('POST', '/tts/multispeaker', { body: input, shape: 'binary' }, options);
  }
}
