// The media room with LiveKit's Rust-core SDK (@livekit/rtc-node; the Python, Rust and Unity SDKs
// share its core), as an integrator's backend, test or recording bot would use it: the token in the
// Authorization header, both signal paths, the agent heard and read, a microphone answered, a
// rejoin that replaces, a refusal logged with its reason.
//
// libwebrtc gathers no loopback candidates, so each call runs (test/support/rtc-node-call.ts) in a
// private network namespace of its own with a veth pair whose two ends both stay inside it, the
// room listening on one end: nothing leaves the machine. That needs root and `ip` (npm test runs as
// root in CI); without them these tests fail and say so.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, test } from 'node:test';
import { DisconnectReason } from '@livekit/protocol';
import { LINES } from '../../src/emulator/agent/scenarios.js';
import type { RtcNodeResult, RtcNodeScenario } from '../support/rtc-node-call.js';
import { finished } from '../support/child-output.js';

const ROOM_ADDRESS = '10.77.0.1';
const NAMESPACE_SETUP = [
  'ip link set lo up',
  'ip link add vac0 type veth peer name vac1',
  `ip addr add ${ROOM_ADDRESS}/30 dev vac0`,
  'ip addr add 10.77.0.2/30 dev vac1',
  'ip link set vac0 up',
  'ip link set vac1 up',
].join(' && ');

/** Runs one call in a fresh namespace; fails with the child's own words when it cannot. */
async function call(scenario: RtcNodeScenario): Promise<RtcNodeResult> {
  const command = `${NAMESPACE_SETUP} && exec "${process.execPath}" --import tsx test/support/rtc-node-call.ts ${scenario} ${ROOM_ADDRESS}`;
  const child = spawn('unshare', ['-n', 'sh', '-c', command], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // rtc-node logs at debug level unless NODE_ENV is production.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const { code, stdout, stderr } = await Promise.race([
    finished(child),
    new Promise<never>((_, reject) => child.once('error', reject)),
  ]).finally(() => clearTimeout(timer));
  const line = stdout.split('\n').find((text) => text.startsWith('RESULT '));
  assert.ok(
    code === 0 && line,
    `the rtc-node call (${scenario}) did not finish (exit ${code}; its network namespace needs root and iproute2).\n${stderr}${stdout}`,
  );
  return JSON.parse(line.slice('RESULT '.length)) as RtcNodeResult;
}

/** The agent's whole lines (it also transcribes the caller's turns, as `(caller spoke, …)`). */
function finals(result: RtcNodeResult): string[] {
  return result.segments
    .filter((segment) => segment.identity === 'agent' && segment.final && !segment.text.startsWith('(caller'))
    .map((segment) => segment.text);
}

/** `lk.transcription`: interim versions grow word by word under one segment id, then the final one. */
function assertWordByWord(result: RtcNodeResult, line: string): void {
  const versions = result.segments.filter((segment) => segment.identity === 'agent' && line.startsWith(segment.text));
  const final = versions.find((segment) => segment.final && segment.text === line);
  assert.ok(final, `the final segment of "${line}"`);
  assert.match(final.segmentId, /\S/);
  const interims = versions.filter((segment) => !segment.final && segment.segmentId === final.segmentId);
  assert.ok(interims.length >= 2, `interim versions of "${line}": ${interims.length}`);
  assert.ok(interims.every((segment, i) => i === 0 || segment.text.length > (interims[i - 1]?.text.length ?? 0)));
}

describe('the media room with @livekit/rtc-node (LiveKit Rust core)', { concurrency: 1 }, () => {
  for (const path of ['v1', 'v0'] as const) {
    test(`${path}: joins with the token in the header, hears and reads the agent, is answered, leaves USER_HANGUP`, async () => {
      const result = await call(`call-${path}`);
      assert.equal(result.mediaUrl.startsWith(`ws://${ROOM_ADDRESS}:`), true);
      const signalPath = path === 'v1' ? '/rtc/v1' : '/rtc';
      assert.ok(
        result.roomLog.some((line) => line.includes(` on ${signalPath} (token in the Authorization header)`)),
        `joined on ${signalPath} with the header: ${result.roomLog.join(' | ')}`,
      );
      assert.ok(result.agentPeakRms > 300, `the agent was heard (peak RMS ${result.agentPeakRms})`);
      assertWordByWord(result, LINES.demoGreeting);
      assert.deepEqual(finals(result).slice(0, 2), [LINES.demoGreeting, LINES.demoReplies[0]]);
      // The caller's own turn, transcribed for its microphone track.
      const callerTurn = result.segments.find((segment) => segment.final && segment.text.startsWith('(caller spoke'));
      assert.ok(callerTurn, 'the agent heard the published microphone');
      assert.match(callerTurn.trackId, /^TR_/);
      assert.ok(result.agentStates.includes('speaking') && result.agentStates.includes('listening'));
      assert.equal(result.dialStatus, 'completed');
      assert.equal(result.dialResult, 'USER_HANGUP');
    });
  }

  test('v0, emu-quick: the agent says goodbye and ends the room; the dial ends AGENT_HANGUP', async () => {
    const result = await call('quick-v0');
    assert.deepEqual(finals(result), [LINES.quickGreeting, LINES.quickGoodbye]);
    assert.ok(result.agentPeakRms > 300);
    assert.equal(result.dialStatus, 'completed');
    assert.equal(result.dialResult, 'AGENT_HANGUP');
    assert.equal(result.disconnected.first, DisconnectReason.ROOM_DELETED);
  });

  test('a second connection with the same identity replaces the first (DUPLICATE_IDENTITY), the dial goes on', async () => {
    const result = await call('replace');
    assert.equal(result.disconnected.first, DisconnectReason.DUPLICATE_IDENTITY, 'the older connection is told why');
    assert.equal(result.dialDuringReplace, 'in-progress');
    assert.ok(result.roomLog.some((line) => line.includes('replacing its older connection (DUPLICATE_IDENTITY)')));
    // The newcomer hears the agent, then leaves: its leave ends the dial.
    assert.equal(finals(result).length, 2);
    assert.equal(result.dialStatus, 'completed');
    assert.equal(result.dialResult, 'USER_HANGUP');
  });

  test('a refused upgrade is logged with its reason, never the token', async () => {
    const result = await call('refused');
    assert.match(result.connectError ?? '', /401|invalid token/i);
    const refusal = result.roomLog.find((line) => line.includes('refused'));
    assert.ok(refusal, `a refusal line: ${result.roomLog.join(' | ')}`);
    assert.match(refusal, /401 invalid token \(token in the Authorization header\)/);
    const secret = result.token.split('.')[2] ?? '';
    assert.ok(secret.length > 10);
    for (const line of result.roomLog) assert.equal(line.includes(secret.slice(0, 12)), false, 'no token in the log');
  });
});
