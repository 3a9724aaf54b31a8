// The closing line of `npm test`: node and browser tests together, `N passed, N failed`, from the
// counts scripts/test-node.mjs and the browser run's reporter (test/support/closing-counts.mjs)
// left in .cache. Exits non-zero when either is missing or counted a failure.
import { existsSync, readFileSync, rmSync } from 'node:fs';

const parts = ['.cache/test-node-summary.json', '.cache/test-browser-summary.json'];
let passed = 0;
let failed = 0;
for (const file of parts) {
  if (!existsSync(file)) {
    process.stdout.write(`no test counts in ${file}: that part of the suite did not finish\n`);
    process.exit(1);
  }
  const counts = JSON.parse(readFileSync(file, 'utf8'));
  rmSync(file);
  passed += counts.passed;
  failed += counts.failed;
}
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed > 0 ? 1 : 0);
