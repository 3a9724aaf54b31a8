// A web-test-runner reporter that closes the run with its counts on a line of their own
// (`browser: N passed, N failed`) and leaves them in .cache/test-browser-summary.json for the
// closing line of the whole `npm test` (scripts/test-total.mjs). When a test failed it prints the
// tail of the services' log (.cache/test-services.log), which is kept out of the terminal otherwise.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { SERVICES_LOG } from './wtr-services.mjs';

const BROWSER_SUMMARY = '.cache/test-browser-summary.json';

function count(suite, totals) {
  if (!suite) return;
  for (const test of suite.tests) {
    if (test.skipped) totals.skipped++;
    else if (test.passed) totals.passed++;
    else totals.failed++;
  }
  for (const inner of suite.suites) count(inner, totals);
}

export function closingCounts() {
  return {
    onTestRunFinished({ sessions }) {
      const totals = { passed: 0, failed: 0, skipped: 0 };
      for (const session of sessions) {
        count(session.testResults, totals);
        // A file that failed to load or run reports no tests: count it as a failure.
        if (!session.testResults && session.passed === false) totals.failed++;
      }
      const lines = [];
      if (totals.failed > 0 && existsSync(SERVICES_LOG)) {
        const tail = readFileSync(SERVICES_LOG, 'utf8').trimEnd().split('\n').slice(-120);
        lines.push('', `The last ${tail.length} lines of the services' log (${SERVICES_LOG}):`, ...tail);
      }
      lines.push('', `browser: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
      writeFileSync(BROWSER_SUMMARY, JSON.stringify(totals));
      process.stdout.write(`${lines.join('\n')}\n`);
    },
  };
}
