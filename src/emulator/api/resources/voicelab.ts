// Voice cloning and speech synthesis. The emulator has no real TTS here: it answers a tone whose
// length follows the text (70 ms a character) and whose pitch follows the voice, as 16-bit PCM,
// WAV (default, 24 kHz) or raw. MP3 is refused (422): the emulator has no encoder.
import { badRequest, unprocessable } from '../errors.js';
import type { AIVoiceRecord } from '../records.js';
import type { Store } from '../store.js';
import { checkBody, isObject, requireNonEmpty, type Body, type Schema } from '../validate.js';
import { BinaryAnswer, type ResourceRoute } from './route.js';

const SAMPLE_RATES = [8000, 16000, 22050, 24000, 41500, 48000];
const MS_PER_CHARACTER = 70;
const MAX_TEXT = 5000;
const GAP_MS = 150;

const lineSchema = {
  text: { type: 'string', required: true },
  voiceId: { type: 'string', required: true },
} as const satisfies Schema;

const formatSchema = {
  outputType: { type: 'string', required: true, oneOf: ['RAW_PCM16', 'WAV_PCM16', 'MP3'] },
  sampleRate: { type: 'integer', required: true },
} as const satisfies Schema;

const multispeakerSchema = { lines: { type: 'array', required: true } } as const satisfies Schema;

interface Line {
  text: string;
  voiceId: string;
}

export function voicelabRoutes(store: Store): ResourceRoute[] {
  function checkLine(value: unknown, where?: string): Line {
    const line = checkBody(value, lineSchema, where ? { where } : {});
    requireNonEmpty(line.text, where ? `${where}.text` : 'text');
    if (line.text.length > MAX_TEXT) throw unprocessable(`text must be at most ${MAX_TEXT} characters`);
    if (!store.voices.has(line.voiceId)) throw unprocessable(`no voice with id ${JSON.stringify(line.voiceId)}`);
    return { text: line.text, voiceId: line.voiceId };
  }

  function format(body: Body): { wav: boolean; sampleRate: number } {
    if (body.format === undefined || body.format === null) return { wav: true, sampleRate: 24000 };
    const format = checkBody(body.format, formatSchema, { where: 'format' });
    if (format.outputType === 'MP3')
      throw unprocessable('the emulator cannot encode MP3; ask for WAV_PCM16 or RAW_PCM16');
    if (!SAMPLE_RATES.includes(format.sampleRate))
      throw unprocessable(`format.sampleRate must be one of ${SAMPLE_RATES.join(', ')}`);
    return { wav: format.outputType === 'WAV_PCM16', sampleRate: format.sampleRate };
  }

  function synthesize(lines: Line[], body: Body): BinaryAnswer {
    const { wav, sampleRate } = format(body);
    const pieces = lines.map((line, index) => {
      const ms = Math.min(15_000, Math.max(300, line.text.length * MS_PER_CHARACTER)) + (index > 0 ? GAP_MS : 0);
      return { ms, gapMs: index > 0 ? GAP_MS : 0, frequency: pitch(line.voiceId) };
    });
    const total = pieces.reduce((sum, piece) => sum + Math.round((piece.ms * sampleRate) / 1000), 0);
    const pcm = new Int16Array(total);
    let offset = 0;
    for (const piece of pieces) {
      const count = Math.round((piece.ms * sampleRate) / 1000);
      const gap = Math.round((piece.gapMs * sampleRate) / 1000);
      for (let index = gap; index < count; index++) {
        pcm[offset + index] = Math.round(Math.sin((2 * Math.PI * piece.frequency * index) / sampleRate) * 8000);
      }
      offset += count;
    }
    const bytes = new Uint8Array(pcm.buffer);
    return wav
      ? new BinaryAnswer('audio/wav', wavFile(bytes, sampleRate))
      : new BinaryAnswer('application/octet-stream', bytes);
  }

  function clone(form: unknown): AIVoiceRecord {
    if (!(form instanceof FormData)) throw badRequest('the body must be multipart/form-data');
    const name = form.get('name');
    const clip = form.get('clip');
    const model = form.get('model');
    const transcription = form.get('transcription');
    if (typeof name !== 'string') throw badRequest('name is required');
    if (!(clip instanceof Blob)) throw badRequest('clip is required (a file)');
    if (typeof model !== 'string') throw badRequest('model is required');
    requireNonEmpty(name, 'name');
    if (!['CARTESIA', 'CSM'].includes(model)) throw unprocessable('model must be one of CARTESIA, CSM');
    if (clip.size === 0) throw unprocessable('clip must not be empty');
    const voice: AIVoiceRecord = {
      id: store.newId(),
      name,
      voiceType: 'CLONED',
      voiceTier: 'PREMIUM',
      description:
        typeof transcription === 'string' && transcription
          ? `Cloned (${model}) from a clip: "${transcription.slice(0, 80)}"`
          : `Cloned (${model}) from a clip.`,
    };
    store.voices.set(voice.id, voice);
    return structuredClone(voice);
  }

  return [
    { pattern: /^\/voices\/clone$/, bodyType: 'multipart', methods: { POST: ({ body }) => clone(body) } },
    {
      pattern: /^\/tts$/,
      methods: {
        POST: ({ body }) => {
          const line = checkLine(body);
          // checkLine refused anything but an object.
          return synthesize([line], isObject(body) ? body : {});
        },
      },
    },
    {
      pattern: /^\/tts\/multispeaker$/,
      methods: {
        POST: ({ body }) => {
          const input = checkBody(body, multispeakerSchema);
          const lines = input.lines.map((line, index) => checkLine(isObject(line) ? line : null, `lines[${index}]`));
          if (lines.length === 0) throw unprocessable('lines must not be empty');
          return synthesize(lines, input);
        },
      },
    },
  ];
}

/** A pitch per voice, stable across runs, between 180 and 420 Hz. */
function pitch(voiceId: string): number {
  let hash = 0;
  for (const char of voiceId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return 180 + (hash % 240);
}

function wavFile(pcm: Uint8Array, sampleRate: number): Uint8Array {
  const file = new Uint8Array(44 + pcm.byteLength);
  const view = new DataView(file.buffer);
  const text = (offset: number, value: string) =>
    [...value].forEach((char, index) => view.setUint8(offset + index, char.charCodeAt(0)));
  text(0, 'RIFF');
  view.setUint32(4, 36 + pcm.byteLength, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, pcm.byteLength, true);
  file.set(pcm, 44);
  return file;
}
