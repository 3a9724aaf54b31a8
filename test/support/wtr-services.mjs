// A web-test-runner plugin that runs the emulator (and, once it exists, the companion) as child
// processes for the browser tests, and tells the page where they are through `/__services`.
// The emulator runs in a child because libwebrtc crashes a process that exits naturally.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Starts `node --import tsx <script> ...args` and resolves with its first stdout JSON line. */
export function startChild(script, args = [], env = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    const onExit = (code) => reject(new Error(`${script} exited with ${code} before it was ready`));
    child.once('exit', onExit);
    lines.once('line', (line) => {
      child.off('exit', onExit);
      lines.on('line', (more) => process.stdout.write(`[${script}] ${more}\n`));
      try {
        resolve({ child, ready: JSON.parse(line) });
      } catch {
        reject(new Error(`${script} printed a ready line that is not JSON: ${line}`));
      }
    });
  });
}

export function stopChild(child) {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export function testServicesPlugin() {
  const services = {};
  const children = [];
  return {
    name: 'voice-agent-test-services',
    async serverStart() {
      const emulator = await startChild('src/emulator/cli.ts', ['--port', '0']);
      children.push(emulator.child);
      Object.assign(services, emulator.ready);
    },
    async serverStop() {
      await Promise.all(children.map(stopChild));
    },
    serve(context) {
      if (context.path === '/__services') return { body: JSON.stringify(services), type: 'json' };
      return undefined;
    },
  };
}
