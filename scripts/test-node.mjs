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
    // The failures last, just above the counts: the run's final lines say which test and why.
    const failures = failedTests(tap);
    if (failures.length > 0)
      process.stdout.write(`\nFailed (${label || 'node'}):\n${failures.map((line) => `  ✗ ${line}`).join('\n')}\n`);
    if (label) process.stdout.write(`${label} (Node ${process.version}): ${summary.pass} passed, ${failed} failed\n`);
    else process.stdout.write(`node: ${summary.pass} passed, ${failed} failed\n`);
    // For a closing line over several runs (scripts/test-total.mjs): `npm test`'s, or .ci/run's.
    writeFileSync(summaryFile(label || 'node'), JSON.stringify({ passed: Number(summary.pass), failed }));
  }
}

/**
 * The failed tests of a TAP report, innermost only (a suite fails with its test), each as
 * `file > suite > test: the error's first line`.
 */
function failedTests(tap) {
  const path = [];
  const failures = [];
  const lines = tap.split('\n');
  lines.forEach((line, index) => {
    const subtest = /^( *)# Subtest: (.*)$/.exec(line);
    if (subtest) {
      const depth = subtest[1].length / 4;
      path.length = depth;
      path[depth] = subtest[2].replace(`${process.cwd()}/`, '');
      return;
    }
    const failed = /^( *)not ok \d+ - (.*?)(?: # .*)?$/.exec(line);
    if (!failed) return;
    const depth = failed[1].length / 4;
    const name = [...path.slice(0, depth), failed[2].replace(`${process.cwd()}/`, '')].join(' > ');
    // The YAML block under it: its `error:` line (a quoted message, or `|-` with the message below).
    let error = 'failed';
    let where = '';
    for (let at = index + 1; at < lines.length && !/^ *(ok|not ok) \d+/.test(lines[at]); at++) {
      const location = /^ *location: '(.*)'$/.exec(lines[at]);
      if (location) where = ` (${location[1].replace(`${process.cwd()}/`, '')})`;
      const field = /^ *error: (.*)$/.exec(lines[at]);
      if (!field) continue;
      error = /^[|>]-?$/.test(field[1]) ? (lines[at + 1] ?? '').trim() : field[1].replace(/^'|'$/g, '');
      break;
    }
    // A parent that failed because this child did is left out: the child says more.
    while (failures.length > 0 && name.startsWith(`${failures.at(-1).name} > `)) failures.pop();
    if (!failures.some((failure) => failure.name.startsWith(`${name} > `)))
      failures.push({ name, error: `${error.slice(0, 300)}${where}` });
  });
  return failures.map(({ name, error }) => `${name}: ${error}`);
}
