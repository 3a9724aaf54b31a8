// The project's esbuild (installed with tsx), for the benchmarks that compare against livekit-client
// as a site would minify it: page-weight.ts (its size) and time-to-talk.ts (a page that loads it on
// the click).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './services.js';

const ESBUILD = join(ROOT, 'node_modules/esbuild/bin/esbuild');

/**
 * esbuild with `args`, minifying to ES modules with livekit-client's production define (`input`
 * on stdin, resolved from the repository's root): its stdout, or null when esbuild is not installed.
 */
export function esbuildMinified(args: readonly string[], input?: string): Buffer | null {
  if (!existsSync(ESBUILD)) return null;
  return execFileSync(
    ESBUILD,
    ['--minify', '--format=esm', '--log-level=error', '--define:process.env.NODE_ENV="production"', ...args],
    { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, ...(input === undefined ? {} : { input }) },
  );
}
