// The companion CLI as a child process for node tests (as an operator runs it): its JSON log lines
// collected, a wait for one that matches, and a stop (SIGTERM) or a kill (SIGKILL: a crash).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Emulator } from '../../src/emulator/index.js';
import type { CompanionLogEntry } from '../../src/server/log.js';
import { present } from './present.js';

export interface CompanionProcess {
  url: string;
  child: ChildProcess;
  logs: CompanionLogEntry[];
  /** Resolves with the first log entry (past or future) that matches. */
  logged(match: (entry: CompanionLogEntry) => boolean): Promise<CompanionLogEntry>;
  /** Ends the process with `signal` (default SIGTERM) and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function startCompanionProcess(
  emulator: Pick<Emulator, 'apiKey' | 'apiUrl'>,
  secret: string,
  env: Record<string, string>,
): Promise<CompanionProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      VOICE_AGENT_API_KEY: emulator.apiKey,
      VOICE_AGENT_BASE_URL: emulator.apiUrl,
      VOICE_AGENT_AGENT_ID: 'emu-demo',
      COMPANION_SECRET: secret,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: CompanionLogEntry[] = [];
  const waiting: Array<{ match: (entry: CompanionLogEntry) => boolean; resolve: (entry: CompanionLogEntry) => void }> =
    [];
  let stderr = '';
  createInterface({ input: present(child.stderr) }).on('line', (line) => {
    stderr += line + '\n';
    let entry: CompanionLogEntry;
    try {
      entry = JSON.parse(line) as CompanionLogEntry;
    } catch {
      return;
    }
    logs.push(entry);
    for (const waiter of waiting.filter((w) => w.match(entry))) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve(entry);
    }
  });
  const ready = await new Promise<{ url: string }>((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`the companion exited (${code}) before it was ready: ${stderr}`));
    child.once('exit', onExit);
    createInterface({ input: present(child.stdout) }).once('line', (line) => {
      child.off('exit', onExit);
      resolve(JSON.parse(line) as { url: string });
    });
  });
  return {
    url: ready.url,
    child,
    logs,
    logged: (match) => {
      const found = logs.find(match);
      return found ? Promise.resolve(found) : new Promise((resolve) => waiting.push({ match, resolve }));
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
}
