// A real redis-server (the Debian package) on 127.0.0.1 for tests and benchmarks: a free port,
// nothing written to disk, resolved once it accepts connections.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from './free-port.mjs';

export interface RedisServer {
  port: number;
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts redis-server on `port` (default: a free one); `stop` ends it (SIGKILL: as a crash would). */
export async function startRedisServer(port?: number): Promise<RedisServer> {
  const chosen = port ?? (await freePort());
  const child = spawn(
    'redis-server',
    ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`redis-server exited (${code}) before it was ready: ${output}`));
    child.once('error', reject);
    child.once('exit', onExit);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        child.off('exit', onExit);
        resolve();
      }
    });
  });
  child.stdout.resume();
  child.stderr.resume();
  return {
    port: chosen,
    url: `redis://127.0.0.1:${chosen}`,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}
