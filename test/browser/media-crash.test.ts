// Issue 18: the emulator's media room (native libwebrtc) runs in a supervised child process. A
// crash there (SIGSEGV, as a native fault ends it) must never take the REST/GraphQL API down, and
// must leave the next call working. The calls in the room drop as emu-blip's do: the restarted room
// takes their callers back (docs/emulator.md, "When the media room crashes").
import { expect } from '@open-wc/testing';
import {
  emulatorDial,
  expectCleanEnd,
  newSession,
  record,
  setUpHarness,
  tearDownHarness,
  until,
  type Harness,
} from '../support/fault-matrix.js';
import { present } from '../support/present.js';

interface Health {
  ok: boolean;
  media: {
    state: string;
    pid: number | null;
    restarts: number;
    lastExit: { signal: string | null; restartMs: number | null } | null;
  };
}

/** What emu-demo's agent says to a caller who comes back (src/emulator/agent/scenarios.ts LINES.welcomeBack). */
const WELCOME_BACK = 'Welcome back. Go on.';

const health = async (): Promise<Health> => (await fetch('/__emu/healthz')).json();

describe('the media room crashes mid-call', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await setUpHarness();
  });
  afterEach(() => tearDownHarness(harness));

  it('the call drops and reconnects to the restarted room (same dial, the agent back), the API answers throughout, and the next call completes', async () => {
    const before = await health();
    expect(before.media.state).to.equal('up');

    const session = newSession(harness, '/api/voice-call', 'emu-demo', { maxReconnectAttempts: 6 });
    const seen = record(session);
    await session.start();
    expect(session.state).to.equal('in-call');
    const dialId = present(session.dialId, "the call's dial id");

    const crash = await fetch('/__emu-media/crash', { method: 'POST' });
    expect(crash.status).to.equal(200);
    // The REST API answers while the room is down or coming back.
    expect((await fetch('/__emu/agents')).status).to.equal(200);

    await until(() => seen.states.includes('reconnecting'), 10000, 'reconnecting');
    await until(() => session.state === 'in-call' || seen.ended.length > 0, 15000, 'back in-call');
    expect(session.state, `${session.result?.reason} ${session.result?.error?.code}`).to.equal('in-call');
    expect(session.dialId, 'the same dial').to.equal(dialId);
    expect((await emulatorDial(dialId)).status, 'the dial goes on').to.equal('in-progress');
    // The agent of the restarted room carries on: its line for a returning caller reaches the transcript.
    await until(
      () => session.transcript.some((entry) => entry.speaker === 'AI' && entry.final && entry.text === WELCOME_BACK),
      10000,
      'the agent back',
    );
    await session.hangup();
    await expectCleanEnd(harness, session, seen, { reason: 'user-hangup', code: null, dials: 1 });
    expect(seen.connected, 'call-connected once').to.have.length(1);

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
