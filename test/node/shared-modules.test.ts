// The modules both sides share: src/wire (the companion's wire contract, the keypad's digits),
// imported by the browser's chunks and the companion, and src/shared (server plumbing), imported
// by the companion and the emulator. Each imports only its own folder's modules, no package, no
// Node built-in and no DOM, so it runs in a browser, Node, Workers, Deno and Bun alike; and the
// helpers do what they say.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { secretCheck, timingSafeEqual } from '../../src/shared/secret.js';
import { MAX_FEEDBACK_COMMENT as COMPANION_LIMIT } from '../../src/server/body.js';
import { MAX_FEEDBACK_COMMENT as ELEMENT_LIMIT } from '../../src/features/feedback/feedback-part.js';
import { MAX_FEEDBACK_COMMENT } from '../../src/wire/companion.js';
import { isDtmfDigit, isDtmfDigits } from '../../src/wire/dtmf.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FOLDERS = ['src/wire', 'src/shared'];
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;
/** A Node-only or DOM-only API in code (comments left out). */
const PLATFORM_ONLY = /\bnode:|\bprocess\.|\bBuffer\b|\bdocument\b|\bwindow\b|\bnavigator\b/;

async function sources(folder: string): Promise<string[]> {
  const entries = await readdir(join(ROOT, folder), { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => join(e.parentPath, e.name));
}

for (const folder of FOLDERS) {
  test(`${folder} imports only itself: no package, no Node built-in, no DOM`, async () => {
    const files = await sources(folder);
    assert.ok(files.length > 0, `${folder} has modules`);
    for (const file of files) {
      const source = await readFile(file, 'utf8');
      for (const match of source.matchAll(IMPORT)) {
        const specifier = match[2] ?? match[3] ?? '';
        const target = specifier.startsWith('.') ? resolve(dirname(file), specifier.replace(/\.js$/, '.ts')) : null;
        const inside = target !== null && !relative(join(ROOT, folder), target).startsWith('..');
        assert.ok(inside, `${relative(ROOT, file)} imports ${specifier}`);
      }
      const code = source.replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
      assert.doesNotMatch(code, PLATFORM_ONLY, `${relative(ROOT, file)} uses a platform-only API`);
    }
  });
}

test('the rating comment limit is one constant: the element and the companion use the wire contract’s', () => {
  assert.equal(MAX_FEEDBACK_COMMENT, 500);
  assert.equal(COMPANION_LIMIT, MAX_FEEDBACK_COMMENT);
  assert.equal(ELEMENT_LIMIT, MAX_FEEDBACK_COMMENT);
});

test('the keypad digits: 0-9, * and #, nothing else', () => {
  for (const digit of '0123456789*#') assert.equal(isDtmfDigit(digit), true, digit);
  for (const key of ['', 'a', 'A', '+', ' ', '12', '١', 'Enter']) assert.equal(isDtmfDigit(key), false, key);
  assert.equal(isDtmfDigits('123*#0'), true);
  for (const digits of ['', '12 3', '12a', '#\n']) assert.equal(isDtmfDigits(digits), false, JSON.stringify(digits));
});

test('secretCheck accepts the secret only: not a prefix, a longer string, another case or the empty string', async () => {
  const isKey = secretCheck('sk_test_0123456789');
  assert.equal(await isKey('sk_test_0123456789'), true);
  for (const given of ['', 'sk_test_012345678', 'sk_test_01234567890', 'SK_TEST_0123456789', 'sk_test_0123456780'])
    assert.equal(await isKey(given), false, given);
});

test('timingSafeEqual compares bytes of one length, and refuses other lengths', () => {
  assert.equal(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3])), true);
  assert.equal(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4])), false);
  assert.equal(timingSafeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2, 3])), false);
});
