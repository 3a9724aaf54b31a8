// Soak: 100 sequential calls of mixed scenarios in one page (real Chromium, the real companion,
// the emulator, faults from test/support/fault-proxy.mjs). Asserts 100 call-ended with the
// expected reasons, 0 dials left non-terminal, 0 live microphone tracks, 0 audio elements, and
// reports the JS heap before and after (Chromium's performance.memory, no forced GC).
// Run: `npm run soak` inside the loopback-only namespace, like the browser tests:
//   unshare -n sh -c 'ip link set lo up && exec npm run soak'
import { expect } from '@open-wc/testing';
import type { CallSession } from '../../src/call/call-session.js';
import type { EndReason } from '../../src/call/types.js';
import {
  orphanDials,
  faultLog,
  newSession,
  record,
  setUpHarness,
  tearDownHarness,
  until,
} from '../support/fault-matrix.js';
import type { Harness } from '../support/fault-matrix.js';
import { present } from '../support/present.js';

const CALLS = Number(new URLSearchParams(location.search).get('calls') ?? 100);

interface Kind {
  name: string;
  endpoint: string;
  agent: string;
  options?: Parameters<typeof newSession>[3];
  /** Runs the call (default: start() and let it end by itself). */
  run?: (session: CallSession, harness: Harness) => Promise<void>;
  reason: EndReason;
}

const hangupInCall = async (session: CallSession) => {
  await session.start();
  await session.hangup();
};

const COMPANION = '/api/voice-call';

const KINDS: Kind[] = [
  { name: 'demo, visitor hangs up', endpoint: COMPANION, agent: 'emu-demo', run: hangupInCall, reason: 'user-hangup' },
  { name: 'busy', endpoint: COMPANION, agent: 'emu-busy', reason: 'busy' },
  {
    name: 'no agent',
    endpoint: COMPANION,
    agent: 'emu-no-agent',
    options: { agentTimeoutMs: 1000 },
    reason: 'agent-unavailable',
  },
  { name: 'companion 502', endpoint: '/__fault/dials-502', agent: 'emu-demo', reason: 'setup-failed' },
  {
    name: 'token refused by the media server',
    endpoint: '/__fault/token-badtoken',
    agent: 'emu-demo',
    reason: 'setup-failed',
  },
  {
    name: 'demo, visitor hangs up (2)',
    endpoint: COMPANION,
    agent: 'emu-demo',
    run: hangupInCall,
    reason: 'user-hangup',
  },
  {
    name: 'microphone revoked',
    endpoint: COMPANION,
    agent: 'emu-demo',
    run: async (s, h) => {
      await s.start();
      const track = present(h.micTracks.at(-1), 'the microphone track');
      track.stop();
      track.dispatchEvent(new Event('ended'));
    },
    reason: 'microphone-unavailable',
  },
  {
    name: 'page hidden',
    endpoint: COMPANION,
    agent: 'emu-demo',
    run: async (s) => {
      await s.start();
      window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
    },
    reason: 'page-unload',
  },
  { name: 'service hangs', endpoint: '/__fault-svc', agent: 'svc-create-hang', reason: 'setup-failed' },
  { name: 'quick, agent hangs up', endpoint: COMPANION, agent: 'emu-quick', reason: 'agent-hangup' },
];

const heap = () => (performance as Performance & { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? NaN;

describe('soak', function () {
  this.timeout(15 * 60 * 1000);

  it(`${CALLS} sequential calls of mixed scenarios: every call ends once, no orphan dial, no leaked track`, async () => {
    const harness = await setUpHarness();
    const began = performance.now();
    const heapBefore = heap();
    let ended = 0;
    const wrong: string[] = [];
    const dialIds = new Set<string>();
    for (let i = 0; i < CALLS; i++) {
      const kind = present(KINDS[i % KINDS.length], 'a kind of call');
      const session = newSession(harness, kind.endpoint, kind.agent, kind.options);
      const seen = record(session);
      await (kind.run ?? ((s) => s.start()))(session, harness);
      await until(() => seen.ended.length > 0, 30000, `call ${i} (${kind.name}) ended`);
      if (session.state !== 'ended')
        await new Promise<void>((resolve) => session.addEventListener('call-ended', () => resolve(), { once: true }));
      ended += seen.ended.length;
      const result = present(seen.ended[0], `call ${i}'s result`);
      if (result.reason !== kind.reason) wrong.push(`${i} ${kind.name}: ${result.reason} ${result.error?.code ?? ''}`);
      if (result.dialId) dialIds.add(result.dialId);
    }
    await until(
      async () => (await faultLog()).slice(harness.logStart).every((entry) => entry.status !== 0),
      10000,
      'proxied requests answered',
    );
    for (const entry of (await faultLog()).slice(harness.logStart)) if (entry.dialId) dialIds.add(entry.dialId);
    const orphans = await orphanDials(dialIds, 10000);
    const liveTracks = harness.micTracks.filter((track) => track.readyState === 'live').length;
    const audio = document.querySelectorAll('audio').length;
    const heapAfter = heap();
    const report = {
      calls: CALLS,
      callEnded: ended,
      wrongReasons: wrong.length,
      dials: dialIds.size,
      orphanDials: orphans.length,
      liveTracks,
      audioElements: audio,
      micTracksOpened: harness.micTracks.length,
      heapBeforeMB: +(heapBefore / 1e6).toFixed(1),
      heapAfterMB: +(heapAfter / 1e6).toFixed(1),
      heapGrowthMB: +((heapAfter - heapBefore) / 1e6).toFixed(1),
      seconds: Math.round((performance.now() - began) / 1000),
    };
    console.log(`SOAK ${JSON.stringify(report)}`);
    tearDownHarness(harness);
    expect(wrong, wrong.join('\n')).to.deep.equal([]);
    expect(ended).to.equal(CALLS);
    expect(orphans, orphans.join('\n')).to.deep.equal([]);
    expect(liveTracks).to.equal(0);
    expect(audio).to.equal(0);
  });
});
