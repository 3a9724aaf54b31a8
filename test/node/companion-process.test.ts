// The companion as a process, as a supervisor runs it (issue 29, item 9): the documented command
// (`node …/bin/voice-agent-companion.js`, no npm or npx in between to swallow the signal) stops
// on SIGTERM and frees its port, and a run with several configuration problems names them all.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { describe, test } from 'node:test';
import { SECRET } from './companion-support.js';
import { finished } from '../support/child-output.js';

const BIN = 'bin/voice-agent-companion.js';

const ENV = {
  PATH: process.env.PATH,
  PORT: '0',
  VOICE_AGENT_API_KEY: 'process-test-key',
  VOICE_AGENT_BASE_URL: 'http://127.0.0.1:9',
  VOICE_AGENT_AGENT_ID: 'agent-1',
  COMPANION_SECRET: SECRET,
};

describe('voice-agent-companion as a process', () => {
  test('SIGTERM stops it: exit 0, and its port refuses connections', async () => {
    assert.ok(existsSync('dist/server/cli.js'), 'dist/server is missing: run `npm run build` first');
    const child = spawn(process.execPath, [BIN], { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      const { url } = JSON.parse(line) as { url: string };
      assert.equal((await fetch(`${url}/dials/x`)).status, 401);
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code, signal] = (await exited) as [number | null, string | null];
      assert.deepEqual({ code, signal }, { code: 0, signal: null });
      await assert.rejects(fetch(`${url}/dials/x`), 'the port is free');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });

  test('every configuration problem of a run is reported at once, one line each', async () => {
    const child = spawn(process.execPath, [BIN], {
      env: {
        PATH: process.env.PATH,
        PORT: 'eighty',
        VOICE_AGENT_BASE_URL: 'not-a-url',
        COMPANION_TRUST_PROXY: 'maybe',
        COMPANION_RATE_LIMIT_ON_STORE_ERROR: 'sometimes',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { code, stderr } = await finished(child);
    assert.equal(code, 1);
    const lines = stderr.trim().split('\n');
    for (const name of [
      'VOICE_AGENT_API_KEY',
      'VOICE_AGENT_BASE_URL',
      'VOICE_AGENT_AGENT_ID',
      'COMPANION_SECRET',
      'COMPANION_TRUST_PROXY',
      'PORT',
      'COMPANION_RATE_LIMIT_ON_STORE_ERROR',
    ]) {
      assert.ok(
        lines.some((line) => line.startsWith('voice-agent-companion: ') && line.includes(name)),
        `${name} in ${stderr}`,
      );
    }
    assert.equal(lines.length, 7, stderr);
  });
});
