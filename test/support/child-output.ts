// A child process's whole output and how it ended, for tests that read what a CLI printed once it
// is done. Resolved on 'close', not 'exit': a process may exit before its stdout and stderr pipes
// have been read to the end (ci58, Node 22: a refusal's stderr read '' with exit code 1).
import type { ChildProcess } from 'node:child_process';

export interface ChildOutput {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Collects `child`'s stdout and stderr from now on (as strings) and resolves once both have closed. */
export function finished(child: ChildProcess): Promise<ChildOutput> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}
