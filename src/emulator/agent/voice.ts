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

const memory = new Map<string, Promise<Int16Array>>();
let toneNoticeShown = false;

/** 48 kHz mono PCM of `text` spoken. Never rejects: falls back to a tone. */
export function speech(text: string): Promise<Int16Array> {
  let pending = memory.get(text);
  if (!pending) {
    pending = synthesize(text);
    memory.set(text, pending);
  }
  return pending;
}

async function synthesize(text: string): Promise<Int16Array> {
  const key = createHash('sha256').update(`${WORDS_PER_MINUTE}|${text}`).digest('hex').slice(0, 24);
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
      execFile('espeak-ng', ['-s', String(WORDS_PER_MINUTE), '-w', partial, '--', text], (error) =>
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
