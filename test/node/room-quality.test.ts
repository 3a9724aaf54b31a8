// The room's connection-quality updates: LiveKit's ConnectionQualityUpdate as livekit-client
// decodes it, one every interval for the caller and the agent; emu-weak-link grades the caller POOR.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConnectionQuality, SignalResponse } from '@livekit/protocol';
import { connectionQualityUpdate } from '../../src/emulator/room/protocol/connection-quality.js';
import { WEAK_LINK_AGENT, startQualityReports } from '../../src/emulator/room/quality-reports.js';

test('ConnectionQualityUpdate round-trips through the wire format', () => {
  const bytes = connectionQualityUpdate([
    { participantSid: 'PA_caller', quality: ConnectionQuality.POOR, score: 2 },
    { participantSid: 'PA_agent', quality: ConnectionQuality.EXCELLENT, score: 4.5 },
  ]).toBinary();
  const decoded = SignalResponse.fromBinary(bytes);
  assert.equal(decoded.message.case, 'connectionQuality');
  if (decoded.message.case !== 'connectionQuality') return;
  assert.deepEqual(
    decoded.message.value.updates.map(({ participantSid, quality, score }) => [participantSid, quality, score]),
    [
      ['PA_caller', ConnectionQuality.POOR, 2],
      ['PA_agent', ConnectionQuality.EXCELLENT, 4.5],
    ],
  );
});

async function reportsOf(scenario: string, agentSid: string | undefined): Promise<SignalResponse[]> {
  const sent: SignalResponse[] = [];
  // The reports' timer is unref'd (it never keeps a room process alive): this keeps the test's.
  const keepAlive = setInterval(() => {}, 1000);
  let resolve: () => void = () => {};
  const twoSent = new Promise<void>((done) => (resolve = done));
  const stop = startQualityReports({
    intervalMs: 20,
    scenario,
    callerSid: 'PA_caller',
    agentSid,
    send: (response) => {
      sent.push(response);
      if (sent.length === 2) resolve();
    },
  });
  await twoSent;
  stop();
  const count = sent.length;
  await new Promise((done) => setTimeout(done, 60));
  clearInterval(keepAlive);
  assert.equal(sent.length, count, 'nothing is sent once stopped');
  return sent;
}

test('every interval, the caller and the agent: EXCELLENT on loopback, the caller POOR for emu-weak-link', async () => {
  const grades = (response: SignalResponse | undefined) =>
    response?.message.case === 'connectionQuality'
      ? response.message.value.updates.map(({ participantSid, quality }) => [participantSid, quality])
      : [];
  assert.deepEqual(grades((await reportsOf('emu-demo', 'PA_agent'))[1]), [
    ['PA_caller', ConnectionQuality.EXCELLENT],
    ['PA_agent', ConnectionQuality.EXCELLENT],
  ]);
  assert.deepEqual(grades((await reportsOf(WEAK_LINK_AGENT, 'PA_agent'))[0]), [
    ['PA_caller', ConnectionQuality.POOR],
    ['PA_agent', ConnectionQuality.EXCELLENT],
  ]);
  assert.deepEqual(grades((await reportsOf('emu-no-agent', undefined))[0]), [
    ['PA_caller', ConnectionQuality.EXCELLENT],
  ]);
});
