// Media soak (issue 18): 500 calls of the scenarios that exercise the emulator's media room, every
// fifth round three calls at once, in real Chromium through the companion. Reports how often the
// media room crashed and was restarted (the emulator's GET /healthz), how long each restart took,
// and whether the whole emulator or companion process had to be restarted (the test services).
// Asserts every call ended once with its scenario's reason, no dial left non-terminal, no track left.
// Run inside the loopback-only namespace:
//   unshare -n sh -c 'ip link set lo up && exec npm run soak:media'
import { expect } from '@open-wc/testing';
import type { CallSession } from '../../src/call/call-session.js';
import type { EndReason } from '../../src/call/types.js';
import { orphanDials, newSession, record, setUpHarness, tearDownHarness, until } from '../support/fault-matrix.js';
import type { Harness } from '../support/fault-matrix.js';
import { present } from '../support/present.js';

const CALLS = 500;
/** Every CONCURRENT_EVERY-th round starts CONCURRENT calls at once. */
const CONCURRENT_EVERY = 5;
const CONCURRENT = 3;

interface Kind {
  name: string;
  agent: string;
  options?: Parameters<typeof newSession>[3];
  run: (session: CallSession) => Promise<void>;
  reason: EndReason;
}

const hangupInCall = async (session: CallSession) => {
  await session.start();
  await session.hangup();
};

const KINDS: Kind[] = [
  { name: 'demo, visitor hangs up', agent: 'emu-demo', run: hangupInCall, reason: 'user-hangup' },
  { name: 'quick, agent hangs up', agent: 'emu-quick', run: (s) => s.start(), reason: 'agent-hangup' },
  { name: 'connection dropped', agent: 'emu-drop', run: (s) => s.start(), reason: 'network-lost' },
  { name: 'media server leaves', agent: 'emu-server-leave', run: (s) => s.start(), reason: 'failed' },
  {
    name: 'no agent',
    agent: 'emu-no-agent',
    options: { agentTimeoutMs: 1000 },
    run: (s) => s.start(),
    reason: 'agent-unavailable',
  },
  { name: 'demo, visitor hangs up (2)', agent: 'emu-demo', run: hangupInCall, reason: 'user-hangup' },
];

interface Health {
  media: {
    state: string;
    restarts: number;
    exits: { signal: string | null; code: number | null; restartMs: number | null }[];
  };
}

async function oneCall(
  harness: Harness,
  kind: Kind,
  wrong: string[],
  dialIds: Set<string>,
  index: number,
): Promise<void> {
  const session = newSession(harness, '/api/voice-call', kind.agent, kind.options);
  const seen = record(session);
  await kind.run(session).catch(() => {});
  await until(() => seen.ended.length > 0, 30000, `call ${index} (${kind.name}) ended`);
  const result = present(seen.ended[0], `call ${index}'s result`);
  if (seen.ended.length !== 1 || result.reason !== kind.reason)
    wrong.push(`${index} ${kind.name}: ${result.reason} ${result.error?.code ?? ''} (${seen.ended.length} call-ended)`);
  if (result.dialId) dialIds.add(result.dialId);
}

describe('media soak', function () {
  this.timeout(60 * 60 * 1000);

  it(`${CALLS} calls through the media room, some concurrent: every call ends once, no orphan dial, crashes counted`, async () => {
    const harness = await setUpHarness();
    const began = performance.now();
    const healthBefore = (await (await fetch('/__emu/healthz')).json()) as Health;
    const servicesBefore = (await (await fetch('/__services')).json()) as { restarts: Record<string, number> };
    const wrong: string[] = [];
    const dialIds = new Set<string>();
    let started = 0;
    let concurrentRounds = 0;
    for (let round = 0; started < CALLS; round++) {
      const width = round % CONCURRENT_EVERY === CONCURRENT_EVERY - 1 ? Math.min(CONCURRENT, CALLS - started) : 1;
      if (width > 1) concurrentRounds++;
      const calls = Array.from({ length: width }, () => {
        const index = started++;
        return oneCall(harness, present(KINDS[index % KINDS.length], 'a kind of call'), wrong, dialIds, index);
      });
      await Promise.all(calls);
    }
    const orphans = await orphanDials(dialIds, 15000);
    const healthAfter = (await (await fetch('/__emu/healthz')).json()) as Health;
    const servicesAfter = (await (await fetch('/__services')).json()) as { restarts: Record<string, number> };
    const newExits = healthAfter.media.exits.slice(healthBefore.media.exits.length);
    const report = {
      calls: CALLS,
      concurrentRounds,
      wrongReasons: wrong.length,
      dials: dialIds.size,
      orphanDials: orphans.length,
      liveTracks: harness.micTracks.filter((track) => track.readyState === 'live').length,
      audioElements: document.querySelectorAll('audio').length,
      mediaRoomCrashes: newExits.length,
      mediaRoomRestarts: healthAfter.media.restarts - healthBefore.media.restarts,
      restartMs: newExits.map((exit) => exit.restartMs),
      crashSignals: newExits.map((exit) => exit.signal ?? `code ${exit.code}`),
      emulatorProcessRestarts: (servicesAfter.restarts.emulator ?? 0) - (servicesBefore.restarts.emulator ?? 0),
      companionProcessRestarts: (servicesAfter.restarts.companion ?? 0) - (servicesBefore.restarts.companion ?? 0),
      seconds: Math.round((performance.now() - began) / 1000),
    };
    console.log(`MEDIA-SOAK ${JSON.stringify(report)}`);
    tearDownHarness(harness);
    expect(wrong, wrong.join('\n')).to.deep.equal([]);
    expect(orphans, orphans.join('\n')).to.deep.equal([]);
    expect(report.liveTracks).to.equal(0);
    expect(report.audioElements).to.equal(0);
  });
});
