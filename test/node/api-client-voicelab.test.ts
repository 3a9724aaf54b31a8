// The typed client against the emulator over HTTP: cloning a voice (multipart) and speech
// synthesis (a tone as WAV or raw PCM16, its length following the text).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Emulator } from '../../src/emulator/index.js';
import type { VoiceAgentApi } from '../../src/api/client.js';
import { rejectsWith, startApi } from './api-client-support.js';

const clip = () => new Blob([new Uint8Array(2048).fill(7)], { type: 'audio/wav' });

describe('VoiceAgentApi: voice cloning and text to speech', () => {
  let emu: Emulator;
  let api: VoiceAgentApi;
  before(async () => {
    ({ emu, api } = await startApi());
  });
  after(() => emu.close());

  test('a cloned voice is listed as CLONED and can speak', async () => {
    const voice = await api.voices.clone({
      name: 'Narrator Ada',
      clip: clip(),
      model: 'CARTESIA',
      transcription: 'Hello there',
    });
    assert.equal(voice.name, 'Narrator Ada');
    assert.equal(voice.voiceType, 'CLONED');
    const listed = await api.voices.list({ name: 'narrator ada' });
    assert.deepEqual(listed.voices, [voice]);
    const audio = await api.speech.synthesize({ text: 'Hi', voiceId: voice.id });
    assert.equal(new TextDecoder().decode(audio.slice(0, 4)), 'RIFF');
  });

  test('clone errors: an unknown model or an empty clip 422; a body that is not multipart, or lacks the clip, 400', async () => {
    await rejectsWith(api.voices.clone({ name: 'x', clip: clip(), model: 'OTHER' as 'CSM' }), 'unprocessable', 422);
    await rejectsWith(api.voices.clone({ name: 'x', clip: new Blob([]), model: 'CSM' }), 'unprocessable', 422);
    const headers = { authorization: `Bearer ${emu.apiKey}` };
    const json = await fetch(`${emu.apiUrl}/voices/clone`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{"name":"x"}',
    });
    assert.equal(json.status, 400);
    const form = new FormData();
    form.set('name', 'x');
    form.set('model', 'CSM');
    const noClip = await fetch(`${emu.apiUrl}/voices/clone`, { method: 'POST', headers, body: form });
    assert.equal(noClip.status, 400);
    assert.equal(((await noClip.json()) as { error: { code: string } }).error.code, 'invalid_request');
  });

  test('WAV by default (24 kHz mono 16-bit), its length following the text; raw PCM16 at the asked rate', async () => {
    const text = 'Your appointment is on Monday.';
    const wav = new DataView(await api.speech.synthesize({ text, voiceId: 'emu-voice-espeak-en' }));
    assert.equal(wav.getUint32(24, true), 24000);
    assert.equal(wav.getUint16(22, true), 1);
    assert.equal(wav.getUint16(34, true), 16);
    const seconds = wav.getUint32(40, true) / 2 / 24000;
    assert.ok(Math.abs(seconds - text.length * 0.07) < 0.01, `${seconds} s`);
    const raw = await api.speech.synthesize({
      text: 'abcdefghij',
      voiceId: 'emu-voice-tone',
      format: { outputType: 'RAW_PCM16', sampleRate: 8000 },
    });
    assert.equal(raw.byteLength, 0.7 * 8000 * 2);
    const samples = new Int16Array(raw);
    assert.ok(
      samples.some((sample) => Math.abs(sample) > 4000),
      'the audio is not silent',
    );
  });

  test('multispeaker audio holds every line; errors: MP3, an unknown voice, empty text or lines are 422', async () => {
    const one = await api.speech.synthesize({
      text: 'Hello',
      voiceId: 'emu-voice-espeak-en',
      format: { outputType: 'RAW_PCM16', sampleRate: 16000 },
    });
    const two = await api.speech.synthesizeMultispeaker({
      lines: [
        { text: 'Hello', voiceId: 'emu-voice-espeak-en' },
        { text: 'Hello', voiceId: 'emu-voice-espeak-de' },
      ],
      format: { outputType: 'RAW_PCM16', sampleRate: 16000 },
    });
    assert.equal(two.byteLength, 2 * one.byteLength + 0.15 * 16000 * 2);
    await rejectsWith(
      api.speech.synthesize({ text: 'x', voiceId: 'emu-voice-tone', format: { outputType: 'MP3', sampleRate: 24000 } }),
      'unprocessable',
      422,
    );
    await rejectsWith(api.speech.synthesize({ text: 'x', voiceId: 'no-voice' }), 'unprocessable', 422);
    await rejectsWith(api.speech.synthesize({ text: '', voiceId: 'emu-voice-tone' }), 'unprocessable', 422);
    await rejectsWith(
      api.speech.synthesize({
        text: 'x',
        voiceId: 'emu-voice-tone',
        format: { outputType: 'WAV_PCM16', sampleRate: 11025 as 8000 },
      }),
      'unprocessable',
      422,
    );
    await rejectsWith(api.speech.synthesizeMultispeaker({ lines: [] }), 'unprocessable', 422);
    await rejectsWith(api.speech.synthesize({ voiceId: 'emu-voice-tone' } as never), 'bad_request', 400);
  });
});
