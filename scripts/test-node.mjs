// `npm run test:node`: node:test over test/node/*.test.ts, quiet by default. A dot per test and
// each failure in full on stdout (VERBOSE=1: the whole TAP report instead); the TAP report always
// in .cache/test-node.tap; then its summary lines (`# tests`, `# pass`, `# fail`, …) and one
// `node: N passed, N failed` line. Exits non-zero when a test failed or the runner did not finish.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { summaryFile } from '../test/support/closing-counts.mjs';

//
// For the runs on other Node versions (.ci/run): NODE_TEST_ONLY (comma list of file name prefixes,
// e.g. `companion-,emulator-`) runs only those files, and NODE_TEST_LABEL names the run: its report
// is .cache/test-<label>.tap, its closing line `<label> (Node vX): N passed, N failed`, and it leaves
// no counts for `npm test`'s closing line.
const verbose = process.env.VERBOSE === '1';
const label = process.env.NODE_TEST_LABEL || '';
// `npm run test:node -- test/node/docs.test.ts companion-redis`: arguments (a file's path or a file
// name prefix) pick files the way NODE_TEST_ONLY does; with neither, every file runs.
const only = [
  ...(process.env.NODE_TEST_ONLY ?? '').split(','),
  ...process.argv.slice(2).map((arg) => arg.replace(/^(\.\/)?test\/node\//, '')),
].filter(Boolean);
const report = label ? `.cache/test-${label}.tap` : '.cache/test-node.tap';
mkdirSync('.cache', { recursive: true });
const files = readdirSync('test/node')
  .filter((name) => name.endsWith('.test.ts') && (only.length === 0 || only.some((prefix) => name.startsWith(prefix))))
  .sort()
  .map((name) => `test/node/${name}`);
if (only.length > 0 && files.length === 0) {
  process.stderr.write(`no test file in test/node matches ${only.join(', ')}\n`);
  process.exit(1);
}
const reporters = [
  `--test-reporter=${verbose ? 'tap' : 'dot'}`,
  '--test-reporter-destination=stdout',
  '--test-reporter=tap',
  `--test-reporter-destination=${report}`,
];
const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...reporters, ...files], {
  stdio: 'inherit',
});

summarize();
process.exit(run.status ?? 1);

/** Prints the TAP report's closing counts and leaves them for scripts/test-total.mjs. */
function summarize() {
  let tap = '';
  try {
    tap = readFileSync(report, 'utf8');
  } catch {
    // No report: the runner itself failed; its exit code says so below.
  }
  // The top-level report's closing lines (unindented; nested suites indent theirs).
  const summary = {};
  for (const match of tap.matchAll(/^# (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\S+)$/gm))
    summary[match[1]] = match[2];
  if (summary.pass !== undefined) {
    const failed = Number(summary.fail ?? 0) + Number(summary.cancelled ?? 0);
    process.stdout.write(
      '\n' +
        Object.entries(summary)
          .map(([name, value]) => `# ${name} ${value}`)
          .join('\n') +
        '\n',
    );
    if (label) process.stdout.write(`${label} (Node ${process.version}): ${summary.pass} passed, ${failed} failed\n`);
    else process.stdout.write(`node: ${summary.pass} passed, ${failed} failed\n`);
    // For a closing line over several runs (scripts/test-total.mjs): `npm test`'s, or .ci/run's.
    writeFileSync(summaryFile(label || 'node'), JSON.stringify({ passed: Number(summary.pass), failed }));
  }
}
