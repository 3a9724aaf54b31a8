// The README is the reference a user gets. The design contract the first version was built from
// is not in the repository, so a comment, test or doc citing it points nowhere (issue 19, item 14):
// cite the README section that says the thing instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readDocs } from '../../scripts/docs.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Spelled in two pieces so this file does not cite it either.
const MISSING_DOC = new RegExp(['CONTRA', 'CT(\\.md|\\s*§)'].join(''));

/** Binary files (a core dump, images) hold no references a reader follows. */
function isText(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(8192);
    const read = readSync(fd, head, 0, head.length, 0);
    return !head.subarray(0, read).includes(0);
  } finally {
    closeSync(fd);
  }
}

function trackedFiles(): string[] | null {
  try {
    return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  } catch {
    return null; // not a git checkout (an unpacked tarball): nothing to check
  }
}

test('no tracked file cites the design contract, which is not in the repository', (t) => {
  const files = trackedFiles();
  if (files === null) return t.skip('not a git checkout');
  assert.ok(files.includes('README.md'), 'git ls-files lists the repository');
  const citing = files.filter((file) => {
    const path = ROOT + file;
    let size: number;
    try {
      size = statSync(path).size;
    } catch {
      return false; // deleted in the working tree, not yet committed
    }
    return size > 0 && isText(path) && MISSING_DOC.test(readFileSync(path, 'utf8'));
  });
  assert.deepEqual(citing, [], 'cite the README section instead');
});

test("the README's Types section matches src/call/types.ts", () => {
  const readme = readDocs();
  const source = readFileSync(`${ROOT}src/call/types.ts`, 'utf8');
  const types = readme.slice(readme.indexOf('### Types'), readme.indexOf('## How a call ends'));
  assert.ok(types.length > 0 && readme.includes('### Types'), 'README has a Types section before "How a call ends"');
  const callState = source.match(/export type CallState = [^;]+;/)?.[0].replace('export ', '');
  assert.ok(callState && types.includes(callState), `README Types shows ${callState}`);
  for (const field of ['id', 'speaker', 'text', 'final', 'dialId', 'reason', 'transcript', 'aiResult', 'error']) {
    assert.match(types, new RegExp(`\\b${field}\\??:`), `README Types shows ${field}`);
  }
  const reasons = [...(source.match(/export type EndReason =([^;]+);/)?.[1] ?? '').matchAll(/'([a-z-]+)'/g)].map(
    (m) => m[1],
  );
  assert.ok(reasons.length > 10);
  const howItEnds = readme.slice(readme.indexOf('## How a call ends'), readme.indexOf('## With the real service'));
  for (const reason of reasons) assert.ok(howItEnds.includes(`\`${reason}\``), `"How a call ends" names ${reason}`);
});
