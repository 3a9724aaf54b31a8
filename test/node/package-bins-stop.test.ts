// Both bins stop within a few seconds of SIGTERM, their child processes included (the emulator's
// media room), also when started through `npx`: npm hands the signal to the `sh -c` it runs the
// bin in, which dies without passing it on, so the bin must notice its parent going
// (`stopWhenAsked` in src/server/node.ts). Needs the build (`npm run build`, as `npm test` does first).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { describe, test } from 'node:test';
import { until } from '../support/until.js';
import { SECRET } from './companion-support.js';

/** How long after SIGTERM every process of the bin may take to be gone: a bound, not a speed (a bin that never stops fails; 5 s and 15 s each failed once beside CI's concurrent builds). */
const STOP_WITHIN_MS = 30_000;

const BINS = {
  'voice-agent-emulator': { built: 'dist/emulator/cli.js', args: ['--port', '0'], env: {} },
  'voice-agent-companion': {
    built: 'dist/server/cli.js',
    args: [],
    env: {
      PORT: '0',
      VOICE_AGENT_API_KEY: 'stop-test-key',
      VOICE_AGENT_BASE_URL: 'http://127.0.0.1:9',
      VOICE_AGENT_AGENT_ID: 'agent-1',
      COMPANION_SECRET: SECRET,
    },
  },
} as const;

/** The parent of every process, from /proc. */
function parents(): Map<number, number> {
  const map = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      map.set(Number(entry), ppid);
    } catch {
      // gone meanwhile
    }
  }
  return map;
}

function descendants(root: number): number[] {
  const map = parents();
  const found = [root];
  for (let i = 0; i < found.length; i++) {
    for (const [pid, ppid] of map) if (ppid === found[i] && !found.includes(pid)) found.push(pid);
  }
  return found;
}

/** A process's command line, for a failure message. */
function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '(gone)';
  }
}

function alive(pid: number): boolean {
  try {
    // Not a zombie: a process that exited but was not reaped yet is gone for this purpose.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function startAndStop(bin: keyof typeof BINS, via: 'node' | 'npx'): Promise<void> {
  const { built, args, env } = BINS[bin];
  assert.ok(existsSync(built), `${built} is missing: run \`npm run build\` first`);
  const command = via === 'npx' ? 'npx' : process.execPath;
  const argv = via === 'npx' ? [bin, ...args] : [`bin/${bin}.js`, ...args];
  const child: ChildProcess = spawn(command, argv, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { stdout, stderr, pid } = child;
  assert.ok(stdout && stderr && pid !== undefined, `${bin} via ${via} did not start`);
  stderr.resume();
  let pids: number[] = [];
  try {
    const lines = createInterface({ input: stdout });
    const [line] = (await Promise.race([
      once(lines, 'line'),
      once(child, 'exit').then(([code]) =>
        assert.fail(`${bin} via ${via} exited (${String(code)}) before it was ready`),
      ),
    ])) as [string];
    assert.match(line, /^\{/, 'the ready line');
    pids = descendants(pid);
    if (bin === 'voice-agent-emulator') {
      // npx → sh → node (the bin) → the media room's process; node → the room's process.
      assert.ok(pids.length >= (via === 'npx' ? 3 : 2), `the bin and its room process: ${pids.join(', ')}`);
    }
    const started = Date.now();
    child.kill('SIGTERM');
    await until(
      () => pids.every((pid) => !alive(pid)),
      STOP_WITHIN_MS,
      `every process of ${bin} (${via}) to end`,
    ).catch((error: Error) => {
      const left = pids.filter(alive).map((pid) => `${pid}: ${commandOf(pid)}`);
      throw new Error(`${error.message}; still running: ${left.join('; ')}`);
    });
    assert.ok(Date.now() - started < STOP_WITHIN_MS);
  } finally {
    for (const pid of pids) {
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  }
}

describe('the bins stop on SIGTERM, children included', { concurrency: 1 }, () => {
  for (const bin of Object.keys(BINS) as (keyof typeof BINS)[]) {
    for (const via of ['node', 'npx'] as const) {
      test(`${bin} started with ${via === 'npx' ? '`npx`' : '`node bin/…`'}`, () => startAndStop(bin, via));
    }
  }
});
