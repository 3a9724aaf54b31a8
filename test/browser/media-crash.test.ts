// Issue 18: the emulator's media room (native libwebrtc) runs in a supervised child process. A
// crash there (SIGSEGV, as a native fault ends it) must look to the visitor like a media server
// failure, never take the REST/GraphQL API down, and leave the next call working.
import { expect } from '@open-wc/testing';
import {
  expectCleanEnd,
  newSession,
  record,
  setUpHarness,
  tearDownHarness,
  until,
  type Harness,
} from '../support/fault-matrix.js';

interface Health {
  ok: boolean;
  media: {
    state: string;
    pid: number | null;
    restarts: number;
    lastExit: { signal: string | null; restartMs: number | null } | null;
  };
}

const health = async (): Promise<Health> => (await fetch('/__emu/healthz')).json();

describe('the media room crashes mid-call', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await setUpHarness();
  });
  afterEach(() => tearDownHarness(harness));

  it('the call ends network-lost, the API answers throughout, the room comes back and the next call completes', async () => {
    const before = await health();
    expect(before.media.state).to.equal('up');

    const session = newSession(harness, '/api/voice-call', 'emu-demo');
    const seen = record(session);
    await session.start();
    expect(session.state).to.equal('in-call');

    const crash = await fetch('/__emu-media/crash', { method: 'POST' });
    expect(crash.status).to.equal(200);
    // The REST API answers while the room is down or coming back.
    expect((await fetch('/__emu/agents')).status).to.equal(200);

    await expectCleanEnd(harness, session, seen, { reason: 'network-lost', code: 'network_lost', dials: 1 });
    expect(seen.states, 'the widget tried to reconnect first').to.include('reconnecting');

    await until(
      async () => {
        const now = await health();
        return now.media.restarts > before.media.restarts && now.media.state === 'up';
      },
      15000,
      'media room restarted and up',
    );
    const after = await health();
    expect(after.media.restarts).to.equal(before.media.restarts + 1);
    expect(after.media.lastExit?.signal).to.equal('SIGSEGV');
    expect(after.media.pid).to.not.equal(before.media.pid);

    // The next call, on the same media URL: the agent greets, says goodbye and hangs up.
    const next = newSession(harness, '/api/voice-call', 'emu-quick');
    const nextSeen = record(next);
    await next.start();
    expect(next.state).to.equal('in-call');
    await expectCleanEnd(harness, next, nextSeen, { reason: 'agent-hangup', code: null, dials: 1 });
    expect(next.transcript.filter((entry) => entry.speaker === 'AI').length, 'the agent spoke').to.be.greaterThan(0);
  });
});
