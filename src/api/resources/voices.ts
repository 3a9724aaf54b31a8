// `api.voices`: the voice catalogue and voice cloning.
import { invalidResponse } from '../service-error.js';
import { Resource, type Query, type RequestOptions } from '../resource.js';
import type { AIVoice, CloneVoiceInput, ListVoicesOptions, VoicePage } from '../types/voices.js';

export class VoicesResource extends Resource {
  /** `GET /voices?name=&voiceType=`: the envelope is `{ voices, cursor }`. */
  async list(list: ListVoicesOptions = {}, options?: RequestOptions): Promise<VoicePage> {
    const page = await this.client.call<{ voices?: unknown }>(
      'GET',
      '/voices',
      { query: { ...list } as Query },
      options,
    );
    if (!Array.isArray(page.voices)) throw invalidResponse('GET /voices');
    return page as VoicePage;
  }

  /** `POST /voices/clone` (multipart): a new voice from a sample clip. */
  clone(input: CloneVoiceInput, options?: RequestOptions): Promise<AIVoice> {
    const form = new FormData();
    form.set('name', input.name);
    form.set('clip', input.clip, 'clip');
    form.set('model', input.model);
    if (input.transcription !== undefined) form.set('transcription', input.transcription);
    return this.client.call('POST', '/voices/clone', { form }, options);
  }
}
