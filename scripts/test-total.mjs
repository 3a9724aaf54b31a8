// The closing line of `npm test`: node, Chromium, Firefox and WebKit tests together, `N passed, N failed`
// (and `, N skipped` when a run skipped any), from the counts scripts/test-node.mjs, the browser
// runs' reporter (test/support/closing-counts.mjs) and scripts/test-webkit.mjs (all zero when
// WebKit is not installed) left in .cache. Exits non-zero when one is missing or counted a failure.
//
// With run labels as arguments (.ci/run: `npm-test node22 node24`) it closes over those runs
// instead; without, it also leaves its own counts as the run `npm-test`.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { summaryFile } from '../test/support/closing-counts.mjs';

const labels = process.argv.slice(2);
const parts = (labels.length > 0 ? labels : ['node', 'chromium', 'firefox', 'webkit']).map(summaryFile);
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of parts) {
  if (!existsSync(file)) {
    process.stdout.write(`no test counts in ${file}: that part of the suite did not finish\n`);
    process.exit(1);
  }
  const counts = JSON.parse(readFileSync(file, 'utf8'));
  rmSync(file);
  passed += counts.passed;
  failed += counts.failed;
  skipped += counts.skipped ?? 0;
}
if (labels.length === 0) writeFileSync(summaryFile('npm-test'), JSON.stringify({ passed, failed, skipped }));
process.stdout.write(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(failed > 0 ? 1 : 0);
