// A web-test-runner reporter that closes the run with its counts on a line of their own
// (`chromium: N passed, N failed`) and leaves them in .cache/test-<label>-summary.json
// (`summaryFile`, with each file's tests' time, the slowest first) for the closing line of the whole `npm test` (scripts/test-total.mjs). When a
// test failed it prints the tail of the run's services' log (.cache/test-services-<label>.log),
// which is kept out of the terminal otherwise.
// Each run names its engine (web-test-runner.config.mjs: chromium or firefox). The WebKit run
// (web-test-runner.webkit.config.mjs) starts no services, so it has no log to show.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';

function count(suite, totals, path = []) {
  if (!suite) return;
  for (const test of suite.tests) {
    totals.ms += test.duration ?? 0;
    if (test.skipped) {
      totals.skipped++;
      totals.skippedNames.push([...path, test.name].join(' > '));
    } else if (test.passed) totals.passed++;
    else {
      totals.failed++;
      totals.failures.push(`${[...path, test.name].join(' > ')}: ${firstLine(test.error?.message)}`);
    }
  }
  for (const inner of suite.suites) count(inner, totals, [...path, inner.name]);
}

const firstLine = (message) =>
  String(message ?? 'failed')
    .split('\n')[0]
    .slice(0, 300);

/** The counts file a run labelled `label` leaves for scripts/test-total.mjs. */
export const summaryFile = (label) => `.cache/test-${label}-summary.json`;

/** The services' log of the run labelled `label` (wtr-services.mjs writes it: `testServices({ log })`). */
export const servicesLogFile = (label) => `.cache/test-services-${label}.log`;

export function closingCounts({ label, servicesLog = servicesLogFile(label) }) {
  return {
    onTestRunFinished({ sessions }) {
      const totals = { passed: 0, failed: 0, skipped: 0, skippedNames: [], failures: [], ms: 0 };
      /** Each file's tests' time, summed (the slowest first): where a long run spends it. */
      const fileMs = [];
      for (const session of sessions) {
        const file = session.testFile.replace(`${process.cwd()}/`, '');
        const before = totals.failures.length;
        const msBefore = totals.ms;
        count(session.testResults, totals, [`${file} (${session.browser?.name ?? label})`]);
        fileMs.push([file, Math.round(totals.ms - msBefore)]);
        // A file that failed to load or run reports no tests: count it as a failure.
        if (!session.testResults && session.passed === false) {
          totals.failed++;
          totals.failures.push(`${file}: ${firstLine(session.errors?.[0]?.message ?? 'did not run')}`);
        }
        // A hook or the file itself failed after its tests passed: name that too.
        if (totals.failures.length === before && session.passed === false && session.testResults) {
          totals.failures.push(`${file}: ${firstLine(session.errors?.[0]?.message ?? 'failed outside its tests')}`);
        }
      }
      const lines = [];
      if (servicesLog && totals.failed > 0 && existsSync(servicesLog)) {
        const tail = readFileSync(servicesLog, 'utf8').trimEnd().split('\n').slice(-120);
        lines.push('', `The last ${tail.length} lines of the services' log (${servicesLog}):`, ...tail);
      }
      // A skipped test says so, by name (a skip hides nothing that way).
      lines.push(...totals.skippedNames.map((name) => `skipped (${label}): ${name}`));
      // The failures last, just above the counts: the run's final lines say which test and why.
      if (totals.failures.length > 0)
        lines.push('', `Failed (${label}):`, ...totals.failures.map((failure) => `  ✗ ${failure}`));
      // A run of chosen files (WTR_FILES) in a terminal ends with web-test-runner's own summary: the
      // closing line would say it twice. Piped (CI), the progress and its summary are off (the
      // configs' `reportTestProgress`), so this line is the run's last word.
      if (!process.env.WTR_FILES || !process.stdout.isTTY)
        lines.push(
          '',
          `${label}: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`,
        );
      mkdirSync('.cache', { recursive: true });
      writeFileSync(
        summaryFile(label),
        JSON.stringify({
          passed: totals.passed,
          failed: totals.failed,
          skipped: totals.skipped,
          fileMs: fileMs.sort((a, b) => b[1] - a[1]),
        }),
      );
      process.stdout.write(`${lines.join('\n')}\n`);
    },
  };
}
