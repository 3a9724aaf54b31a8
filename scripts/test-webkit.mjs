// `npm run test:webkit`: the browser tests that need no call, in WebKitGTK through its WebDriver
// (web-test-runner.webkit.config.mjs). It needs Debian's webkit2gtk-driver, and xvfb where no
// display is set. With --if-installed, as `npm test` runs it, a machine without them skips the run
// in one line (its counts, all zero, still reach scripts/test-total.mjs); without it, that is an error.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { summaryFile } from '../test/support/closing-counts.mjs';
import { MINIBROWSER, WEBKIT_DRIVER } from '../test/support/webkit-launcher.mjs';

const onPath = (name) => (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, name)));
const missing = [
  existsSync(WEBKIT_DRIVER) ? null : WEBKIT_DRIVER,
  existsSync(MINIBROWSER) ? null : MINIBROWSER,
  process.env.DISPLAY || process.env.WAYLAND_DISPLAY || onPath('Xvfb') ? null : 'Xvfb',
].filter((item) => item !== null);

if (missing.length > 0) {
  const why = `${missing.join(', ')} not found (apt-get install webkit2gtk-driver xvfb)`;
  if (!process.argv.includes('--if-installed')) {
    process.stderr.write(`webkit: cannot run: ${why}\n`);
    process.exit(1);
  }
  process.stdout.write(`webkit: not run: ${why}\n`);
  mkdirSync('.cache', { recursive: true });
  writeFileSync(summaryFile('webkit'), JSON.stringify({ passed: 0, failed: 0, skipped: 0 }));
  process.exit(0);
}

// The runner's bin, as npm would find it, so that `node scripts/test-webkit.mjs` works too.
const runner = join('node_modules', '.bin', 'web-test-runner');
const run = spawnSync(runner, ['--config', 'web-test-runner.webkit.config.mjs'], { stdio: 'inherit' });
process.exit(run.status ?? 1);
