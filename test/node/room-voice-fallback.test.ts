// Without espeak-ng the agent still speaks: in tones, saying so once on stderr.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const voiceModule = fileURLToPath(new URL('../../src/emulator/agent/voice.ts', import.meta.url));

test('where espeak-ng is missing, lines become audible tones and one notice', async () => {
  // A fresh temp folder (no cached speech) and a PATH without espeak-ng.
  const temp = await mkdtemp(join(tmpdir(), 'voice-fallback-'));
  const script = `
    const { speech } = await import(${JSON.stringify(voiceModule)});
    const a = await speech('one two three');
    const b = await speech('four five');
    const peak = Math.max(...a.map(Math.abs)) / 32768;
    process.stdout.write(JSON.stringify({ a: a.length, b: b.length, peak }));
  `;
  try {
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script],
        { env: { ...process.env, PATH: temp, TMPDIR: temp }, cwd: fileURLToPath(new URL('../../', import.meta.url)) },
        (error, out, err) =>
          error ? reject(Object.assign(error, { stderr: err })) : resolve({ stdout: out, stderr: err }),
      );
    });
    const result = JSON.parse(stdout) as { a: number; b: number; peak: number };
    assert.ok(result.a > 48000 * 0.6, 'three words last a while');
    assert.ok(result.b < result.a, 'fewer words, shorter');
    assert.ok(result.peak > 0.2, 'audible');
    assert.equal(stderr.match(/espeak-ng is not installed/g)?.length, 1, `one notice, got: ${stderr}`);
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
});
