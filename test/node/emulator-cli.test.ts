// The `voice-agent-emulator` CLI as a user runs it: one JSON ready line on stdout, then a working
// API, and a clean exit on SIGTERM / SIGINT.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { describe, test } from 'node:test';
import { SCENARIO_AGENT_IDS } from '../../src/emulator/index.js';
import { mediaCredentials } from '../support/media-credentials.js';
import { finished } from '../support/child-output.js';

const CLI = 'src/emulator/cli.ts';

interface Running {
  child: ChildProcess;
  /** The CLI's ready line (the first test checks exactly these keys). */
  ready: { apiUrl: string; mediaUrl: string; apiKey: string; graphqlUrl: string };
  stdout: () => string;
  stderr: () => string;
}

function startCli(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const { stdout: out, stderr: err } = child;
  if (!out || !err) throw new Error('the CLI was spawned without stdout and stderr pipes');
  err.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let ready = false;
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`the CLI exited (${code}) before it was ready: ${stderr}`));
    child.once('exit', onExit);
    out.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf('\n');
      if (newline === -1 || ready) return;
      ready = true;
      child.off('exit', onExit);
      resolve({ child, ready: JSON.parse(stdout.slice(0, newline)), stdout: () => stdout, stderr: () => stderr });
    });
  });
}

/** Stops the CLI; resolves with its exit code once its output has been read to the end ('close', not 'exit'). */
async function stop(running: Running, signal: NodeJS.Signals): Promise<number | null> {
  const exited = once(running.child, 'close') as Promise<[number | null, NodeJS.Signals | null]>;
  running.child.kill(signal);
  const [code] = await exited;
  return code;
}

describe('voice-agent-emulator CLI', () => {
  test('prints exactly one ready line, serves the API, and exits 0 on SIGTERM', async () => {
    const running = await startCli(['--port', '0']);
    try {
      assert.deepEqual(Object.keys(running.ready), ['apiUrl', 'mediaUrl', 'apiKey', 'graphqlUrl']);
      assert.match(running.ready.apiUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.equal(running.ready.graphqlUrl, `${running.ready.apiUrl}/query`);
      assert.match(running.ready.mediaUrl, /^ws:\/\/127\.0\.0\.1:\d+$/);
      assert.notEqual(running.ready.apiUrl.split(':')[2], '0');
      assert.equal(running.ready.apiKey, 'emu-dev-key');

      const agents = await fetch(`${running.ready.apiUrl}/agents`, {
        headers: { authorization: `Bearer ${running.ready.apiKey}` },
      });
      assert.equal(agents.status, 200);
      assert.equal(((await agents.json()) as { data: unknown[] }).data.length, SCENARIO_AGENT_IDS.length);
      const created = await fetch(`${running.ready.apiUrl}/dials`, {
        method: 'POST',
        headers: { authorization: `Bearer ${running.ready.apiKey}` },
        body: JSON.stringify({ callAgentId: 'emu-demo', browserCall: true }),
      });
      assert.equal(created.status, 200);
    } finally {
      assert.equal(await stop(running, 'SIGTERM'), 0);
    }
    // Logs went to stderr; stdout holds the ready line only.
    assert.equal(running.stdout().trim().split('\n').length, 1);
    assert.match(running.stderr(), /POST \/dials 200/);
    assert.ok(!running.stderr().includes('emu-dev-key'));
  });

  test('--api-key sets the key, --port/--media-port the ports, and SIGINT exits 0', async () => {
    const running = await startCli(['--port', '0', '--media-port', '0', '--api-key', 'custom-cli-key']);
    try {
      assert.equal(running.ready.apiKey, 'custom-cli-key');
      const withDefault = await fetch(`${running.ready.apiUrl}/agents`, {
        headers: { authorization: 'Bearer emu-dev-key' },
      });
      assert.equal(withDefault.status, 401);
      const withCustom = await fetch(`${running.ready.apiUrl}/agents`, {
        headers: { authorization: 'Bearer custom-cli-key' },
      });
      assert.equal(withCustom.status, 200);
    } finally {
      assert.equal(await stop(running, 'SIGINT'), 0);
    }
  });

  test('--idempotency strict answers 409 naming the first dial for a reused key; a bad mode exits 2', async () => {
    const running = await startCli(['--port', '0', '--idempotency', 'strict']);
    try {
      const create = () =>
        fetch(`${running.ready.apiUrl}/dials`, {
          method: 'POST',
          headers: { authorization: `Bearer ${running.ready.apiKey}`, 'idempotency-key': 'cli-strict' },
          body: JSON.stringify({ callAgentId: 'emu-demo', browserCall: true }),
        });
      const first = await create();
      assert.equal(first.status, 200);
      const { dialId } = (await first.json()) as { dialId: string };
      const again = await create();
      assert.equal(again.status, 409);
      assert.equal(((await again.json()) as { error: { dialId: string } }).error.dialId, dialId);
    } finally {
      assert.equal(await stop(running, 'SIGTERM'), 0);
    }
    const bad = spawn(process.execPath, ['--import', 'tsx', CLI, '--idempotency', 'sometimes'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { code, stderr } = await finished(bad);
    assert.equal(code, 2);
    assert.match(stderr, /--idempotency must be one of replay, strict/);
  });

  test('--ice-config is what browserDialToken answers as iceConfig; the GraphQL endpoint is at graphqlUrl', async () => {
    const iceConfig = '{"iceServers":[{"urls":"stun:127.0.0.1:3478"}]}';
    const running = await startCli(['--ice-config', iceConfig]);
    try {
      const headers = { authorization: `Bearer ${running.ready.apiKey}`, 'content-type': 'application/json' };
      const created = await fetch(`${running.ready.apiUrl}/dials`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ callAgentId: 'emu-demo', browserCall: true }),
      });
      const { dialToken, sessionId } = (await created.json()) as { dialToken: string; sessionId: string };
      assert.equal((await mediaCredentials(running.ready.graphqlUrl, dialToken, sessionId)).iceConfig, iceConfig);
    } finally {
      assert.equal(await stop(running, 'SIGTERM'), 0);
    }
    assert.match(running.stderr(), /graphql http mutation BrowserDialToken/);
  });

  test('--keep-ended-dials bounds the history of ended dials (issue 30, 8); a bad count exits 2', async () => {
    const running = await startCli(['--keep-ended-dials', '1']);
    try {
      const headers = { authorization: `Bearer ${running.ready.apiKey}` };
      const busyDial = async () => {
        const created = await fetch(`${running.ready.apiUrl}/dials`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ callAgentId: 'emu-busy', browserCall: true }),
        });
        return ((await created.json()) as { dialId: string }).dialId;
      };
      const first = await busyDial();
      const second = await busyDial();
      const status = async (dialId: string) =>
        (await fetch(`${running.ready.apiUrl}/dials/${dialId}`, { headers })).status;
      assert.equal(await status(first), 404, 'the older ended dial was dropped');
      assert.equal(await status(second), 200);
    } finally {
      assert.equal(await stop(running, 'SIGTERM'), 0);
    }
    const bad = spawn(process.execPath, ['--import', 'tsx', CLI, '--keep-ended-dials-minutes', 'ever'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { code, stderr } = await finished(bad);
    assert.equal(code, 2);
    assert.match(stderr, /--keep-ended-dials-minutes must be a whole number/);
  });

  test('a bad option exits 2 with usage on stderr and nothing on stdout', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', 'eighty'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { code, stdout, stderr } = await finished(child);
    assert.equal(code, 2);
    assert.equal(stdout, '');
    assert.match(stderr, /usage: voice-agent-emulator/);
  });
});
