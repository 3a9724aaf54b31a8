// One way to do server plumbing (issue 35): the companion and the emulator read request bodies
// only through src/shared/capped-body.ts and compare presented secrets only through
// src/shared/secret.ts. A second reader or a hand-written comparison fails here.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The servers' HTTP halves (the media room speaks WebSocket and WebRTC, not request bodies). */
const SERVERS = [
  'src/server',
  'src/emulator/api',
  'src/emulator/graphql',
  'src/emulator/index.ts',
  'src/emulator/cli.ts',
];

async function sources(): Promise<string[]> {
  const files: string[] = [];
  for (const path of SERVERS) {
    const full = join(ROOT, path);
    if (path.endsWith('.ts')) files.push(full);
    else
      for (const entry of await readdir(full, { recursive: true, withFileTypes: true }))
        if (entry.isFile() && entry.name.endsWith('.ts')) files.push(join(entry.parentPath, entry.name));
  }
  return files;
}

/** The code of a module, its comments left out. */
async function code(file: string): Promise<string> {
  return (await readFile(file, 'utf8')).replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
}

test('request bodies are read only by the shared capped-body reader', async () => {
  const readers: string[] = [];
  for (const file of await sources()) {
    const source = await code(file);
    if (/\.on\(\s*'data'|\.getReader\(\)|for await \([^)]*\b(req|request)\b/.test(source))
      readers.push(relative(ROOT, file));
  }
  assert.deepEqual(readers, []);
});

test('presented secrets are compared only through src/shared/secret.ts', async () => {
  const own: string[] = [];
  for (const file of await sources()) {
    const source = await code(file);
    // node:crypto's timingSafeEqual, or a hand-written constant-time loop (`difference |= a ^ b`).
    if (/\btimingSafeEqual\b[^;]*from\s+'node:crypto'|\|=[^;\n]*\^/.test(source)) own.push(relative(ROOT, file));
  }
  assert.deepEqual(own, []);
});
