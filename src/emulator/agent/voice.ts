// The agent's voice: each line spoken by espeak-ng, made once per process (and cached on disk in
// the OS temp folder), as 48 kHz mono Int16. Where espeak-ng is missing, a tone stands in.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseWav, toMono48k, toneFor, trimSilence } from '../room/media/pcm.js';

const CACHE_DIR = join(tmpdir(), 'voice-agent-emulator-speech');
/** Words per minute; a little quicker than espeak-ng's default keeps the scenarios short. */
const WORDS_PER_MINUTE = 190;

/** Who speaks: the agent (espeak-ng's default voice) or the person a call is transferred to (another voice). */
export type Voice = 'agent' | 'person';
/** espeak-ng's `-v` for each voice; the person's is a different variant, so a listener hears the change. */
const ESPEAK_VOICE: Readonly<Record<Voice, string | null>> = { agent: null, person: 'en-us+f3' };

const memory = new Map<string, Promise<Int16Array>>();
let toneNoticeShown = false;

/** 48 kHz mono PCM of `text` spoken. Never rejects: falls back to a tone. */
export function speech(text: string, voice: Voice = 'agent'): Promise<Int16Array> {
  const id = `${voice}|${text}`;
  let pending = memory.get(id);
  if (!pending) {
    pending = synthesize(text, ESPEAK_VOICE[voice]);
    memory.set(id, pending);
  }
  return pending;
}

async function synthesize(text: string, espeakVoice: string | null): Promise<Int16Array> {
  const key = createHash('sha256')
    .update(`${WORDS_PER_MINUTE}|${espeakVoice === null ? '' : `${espeakVoice}|`}${text}`)
    .digest('hex')
    .slice(0, 24);
  const file = join(CACHE_DIR, `${key}.wav`);
  try {
    return trimSilence(toMono48k(parseWav(await readFile(file))));
  } catch {
    // not cached yet
  }
  try {
    await mkdir(CACHE_DIR, { recursive: true });
    const partial = `${file}.${process.pid}.tmp`;
    await new Promise<void>((resolve, reject) => {
      const voiceArgs = espeakVoice === null ? [] : ['-v', espeakVoice];
      execFile('espeak-ng', [...voiceArgs, '-s', String(WORDS_PER_MINUTE), '-w', partial, '--', text], (error) =>
        error ? reject(error) : resolve(),
      );
    });
    await rename(partial, file);
    return trimSilence(toMono48k(parseWav(await readFile(file))));
  } catch (error) {
    if (!toneNoticeShown) {
      toneNoticeShown = true;
      const why =
        (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'espeak-ng is not installed' : 'espeak-ng failed';
      process.stderr.write(`voice-agent-emulator: ${why}; the agent speaks in tones instead of words\n`);
    }
    return toneFor(text);
  }
}
