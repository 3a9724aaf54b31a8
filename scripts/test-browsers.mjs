// `npm test`'s browser runs, side by side: Chromium (`npm run test:browser`) beside Firefox
// (`npm run test:firefox`, then the WebKit run). A run spends most of its time waiting on the agents'
// real-time speech, not on the CPU (a whole Chromium run used about a third of one core), so the
// two take little longer together than the longer one alone. Each run has its own services, port,
// services' log and counts, so neither sees the other's calls.
//
// The first lane's output comes as it happens (its progress bar, in a terminal); the other's is
// held and printed whole once the first lane is done, so the two never interleave. Every run goes
// to its end, even after another failed; the exit code is non-zero when any of them failed.
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Each lane's commands, one after the other. */
// The Chromium run is the longer (it has the room suite's two extra client runs), so the short
// WebKit run follows the Firefox run.
const lanes = [
  [[npm, ['run', 'test:browser']]],
  [
    [npm, ['run', 'test:firefox']],
    [process.execPath, ['scripts/test-webkit.mjs', '--if-installed']],
  ],
];

const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of running) child.kill(signal);
    process.exit(130);
  });
}

/** Runs `command`; resolves with its exit code. `output`: where its stdout and stderr go, or inherit. */
function run([command, args], output) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: output ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    running.add(child);
    if (output) {
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
    }
    child.once('error', (error) => {
      output?.push(Buffer.from(`${command} ${args.join(' ')}: ${error.message}\n`));
      running.delete(child);
      resolve(1);
    });
    child.once('close', (code, signal) => {
      running.delete(child);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

async function runLane(commands, output) {
  let failed = false;
  for (const command of commands) if ((await run(command, output)) !== 0) failed = true;
  return failed;
}

const held = lanes.map((_, index) => (index === 0 ? null : []));
const results = lanes.map((commands, index) => runLane(commands, held[index]));
let failed = false;
for (const [index, result] of results.entries()) {
  if (await result) failed = true;
  const output = held[index];
  if (output) process.stdout.write(Buffer.concat(output));
}
process.exit(failed ? 1 : 0);
