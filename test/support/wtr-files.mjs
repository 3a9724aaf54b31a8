// Which test files a web-test-runner run loads: `WTR_FILES` (a comma list of files or globs; the
// config's own list without it), each `WTR_REPEAT` times in a row (default once). A repeat is a
// file of its own in .cache/repeat/<run>/ (chromium, firefox, webkit) that imports the test file,
// so web-test-runner runs it in a new page after the one before, as in a whole run:
// `WTR_REPEAT=20 WTR_FILES=test/browser/x.test.ts npm run test:browser` shows a test that fails
// now and then, and which run it failed in.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, relative, resolve } from 'node:path';

/**
 * The files for this run: `fallback` unless `WTR_FILES` names some; each `WTR_REPEAT` times. `run`
 * names the run's own folder of repeats, so runs side by side (npm test's) keep theirs apart.
 */
export function testFiles(fallback, run) {
  const repeatDir = `.cache/repeat/${run}`;
  const named = (process.env.WTR_FILES ?? '')
    .split(',')
    .map((file) => file.trim())
    .filter(Boolean);
  const repeat = Number(process.env.WTR_REPEAT ?? 1);
  if (!Number.isInteger(repeat) || repeat < 1)
    throw new Error(`WTR_REPEAT must be a whole number ≥ 1, not "${process.env.WTR_REPEAT}"`);
  if (named.length === 0) {
    if (repeat > 1) throw new Error('WTR_REPEAT needs WTR_FILES: name the files to run again and again');
    return fallback;
  }
  if (repeat === 1) return named;
  rmSync(repeatDir, { recursive: true, force: true });
  mkdirSync(repeatDir, { recursive: true });
  const files = [];
  for (let round = 1; round <= repeat; round++) {
    for (const file of named) {
      if (!existsSync(file)) throw new Error(`WTR_REPEAT takes files, not globs: ${file} does not exist`);
      const copy = `${repeatDir}/${String(round).padStart(3, '0')}-${basename(file)}`;
      writeFileSync(
        copy,
        `// Run ${round} of ${repeat} (WTR_REPEAT).\nimport '${relative(repeatDir, resolve(file))}';\n`,
      );
      files.push(copy);
    }
  }
  return files;
}
