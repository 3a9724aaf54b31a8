// Another version of the package, side by side in the same run: `git archive <ref>` of src/ and
// package.json into a temporary folder that uses this tree's node_modules.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './services.js';

export interface RefTree {
  /** The commit, short. */
  commit: string;
  /** The folder holding `src/` and `package.json` of that commit. */
  root: string;
  remove(): void;
}

/** `paths`: what to take from the commit besides `src/` and `package.json` (e.g. the CDN build's config). */
export function checkoutRef(ref: string, paths: string[] = []): RefTree {
  const commit = execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', `${ref}^{commit}`], {
    encoding: 'utf8',
  }).trim();
  const root = mkdtempSync(join(tmpdir(), `vac-bench-${commit}-`));
  execFileSync('sh', [
    '-c',
    `git -C "$1" archive "$2" src package.json ${paths.map((path) => `'${path}'`).join(' ')} | tar -x -C "$3"`,
    'sh',
    ROOT,
    commit,
    root,
  ]);
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  return { commit, root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** What a side-by-side run takes from the commit besides src/ and package.json: the CDN build's config. */
export const CDN_BUILD_PATHS = ['vite.cdn.config.ts', 'tsconfig.json'];
