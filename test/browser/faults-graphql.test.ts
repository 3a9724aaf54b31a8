// The fault matrix, service-protocol half: the GraphQL steps of a call (the companion's
// browserDialToken; the browser's connectSession, startDialSession and live transcript) failing
// one at a time, the subscription socket cut mid-call, a client that never starts the session,
// a Vonage dial, and transcript events duplicated and out of order. Real Chromium, the real
// CallSession, the real companion and emulator; the faults come from test/support/fault-proxy.mjs
// (the `gql-<kind>` front spec points the browser at fault-graphql.mjs, `svc-browserdialtoken-*`
// faults the companion's own GraphQL step).
import { expect } from '@open-wc/testing';
import type { CallSession } from '../../src/call/call-session.js';
import type { CallSessionOptions, CallState, EndReason, TranscriptEntry } from '../../src/call/types.js';
import { expectCleanEnd, front, newSession, record, until, useHarness } from '../support/fault-matrix.js';
import { present } from '../support/present.js';
import { loadMedia } from '../../src/call/media-loader.js';

const COMPANION = '/api/voice-call';
// emu-quick's lines (src/emulator/agent/scenarios.ts LINES); emu-graphql-transcript says them too.
const QUICK_GREETING = 'Hi, quick test call.';

interface GraphqlLogEntry {
  kind: string;
  transport: 'http' | 'ws';
  op: string | null;
  action: string;
}

async function graphqlLog(): Promise<GraphqlLogEntry[]> {
  return (await fetch('/__fault/gql-log')).json();
}

/** Every `call-transcript` event, with the state the call was in when it came. */
function transcriptEvents(
  session: CallSession,
): { state: CallState; changed: TranscriptEntry; entries: TranscriptEntry[] }[] {
  const events: { state: CallState; changed: TranscriptEntry; entries: TranscriptEntry[] }[] = [];
  session.addEventListener('call-transcript', (event) =>
    events.push({ state: session.state, changed: event.detail.changed, entries: event.detail.entries }),
  );
  return events;
}

/** One entry per utterance: no id twice, no speaker + text twice. */
function expectNoDuplicates(entries: TranscriptEntry[]): void {
  expect(new Set(entries.map((entry) => entry.id)).size, 'ids').to.equal(entries.length);
  const lines = entries.map((entry) => `${entry.speaker}: ${entry.text}`);
  expect(new Set(lines).size, `lines: ${lines.join(' | ')}`).to.equal(lines.length);
}

describe('fault matrix: the service protocol (GraphQL)', function () {
  this.timeout(45000);
  const harness = useHarness();
  let logStart = 0;

  beforeEach(async () => {
    logStart = (await graphqlLog()).length;
  });

  const newLog = async () => (await graphqlLog()).slice(logStart);

  /** A call on `endpoint` to `agent`, recorded (states, results, transcript events), once start() is through. */
  async function startedCall(endpoint: string, agent: string, options: Partial<CallSessionOptions> = {}) {
    const session = newSession(harness, endpoint, agent, options);
    const seen = record(session);
    const events = transcriptEvents(session);
    await session.start();
    return { session, seen, events };
  }

  /** The matrix's shared assertion for a cell whose call made its one dial. */
  const endsAs = (call: Awaited<ReturnType<typeof startedCall>>, reason: EndReason, code: string | null = null) =>
    expectCleanEnd(harness, call.session, call.seen, { reason, code, dials: 1 });

  const resultTranscript = (session: CallSession) => present(session.result, 'the call result').transcript;

  // ---- the companion's step: browserDialToken ----

  for (const [kind, code] of [
    ['errors', 'upstream_error'],
    ['reset', 'upstream_error'],
    ['hang', 'upstream_timeout'],
  ] as const) {
    it(`browserDialToken ${kind === 'errors' ? 'answering GraphQL errors' : kind === 'reset' ? 'unreachable' : 'silent'} (companion): setup-failed (${code}), no media`, async () => {
      const call = await startedCall('/__fault-svc', `svc-browserdialtoken-${kind}`);
      await endsAs(call, 'setup-failed', code);
      expect(call.seen.states, 'never reached the media').to.not.include('connecting');
      // Right after the create (which then answers without the media credentials), and on the token
      // route the page asks next. Refused (errors) with the create's own dial token, the create asks
      // again the token route's way, with a fresh one; a reset or silence is not asked again.
      const asked = kind === 'errors' ? 3 : 2;
      expect(
        (await newLog()).filter((entry) => entry.op === 'BrowserDialToken').map((entry) => entry.action),
      ).to.deep.equal(Array<string>(asked).fill(`injected ${kind}`));
    });
  }

  it('Vonage dial: setup-failed (unsupported_media_provider), no media', async () => {
    const call = await startedCall(COMPANION, 'emu-vonage');
    const { session, seen } = call;
    await endsAs(call, 'setup-failed', 'unsupported_media_provider');
    expect(seen.states).to.not.include('connecting');
    expect(session.result?.error?.message).to.match(/vonage/);
  });

  // ---- the browser's steps ----

  it("the service's ICE servers (the token answer's iceServers) reach livekit-client's peer connections; the call goes through", async () => {
    // The media chunk in, and its idle-time WebRTC warm-up (a bare peer connection) over, before counting.
    await loadMedia();
    await new Promise<void>((resolve) => requestIdleCallback(() => resolve()));
    const Real = window.RTCPeerConnection;
    const configs: (RTCConfiguration | undefined)[] = [];
    window.RTCPeerConnection = class extends Real {
      constructor(config?: RTCConfiguration) {
        configs.push(config);
        super(config);
      }
    };
    try {
      const call = await startedCall(front('token-ice'), 'emu-demo');
      const { session } = call;
      expect(session.state).to.equal('in-call');
      await session.hangup();
      await endsAs(call, 'user-hangup');
    } finally {
      window.RTCPeerConnection = Real;
    }
    expect(configs.length, 'peer connections made').to.be.greaterThan(0);
    for (const config of configs) expect(config?.iceServers).to.deep.equal([{ urls: 'stun:127.0.0.1:3478' }]);
  });

  it('GraphQL endpoint unreachable from the browser: setup-failed (session_start_failed), the agent never heard', async () => {
    const call = await startedCall(front('gql-down'), 'emu-demo');
    const { session } = call;
    await endsAs(call, 'setup-failed', 'session_start_failed');
    expect(session.result?.transcript, 'nothing was said').to.deep.equal([]);
  });

  it('subscriptions cannot be opened (WebSocket refused, HTTP fine): startDialSession once in the room, the transcript by polling, the call goes on', async () => {
    const call = await startedCall(front('gql-wsdown'), 'emu-graphql-transcript', { pollIntervalMs: 300 });
    const { session, events } = call;
    await endsAs(call, 'agent-hangup');
    expect(
      events.some((event) => event.state === 'in-call' && event.changed.final && event.changed.text === QUICK_GREETING),
      'the greeting reached the transcript during the call',
    ).to.equal(true);
    const log = await newLog();
    expect(log.map((entry) => entry.action)).to.include('refused the socket');
    expect(log.filter((entry) => entry.op === 'StartDialSession').map((entry) => entry.action)).to.deep.equal([
      'forwarded',
    ]);
    expectNoDuplicates(resultTranscript(session));
  });

  it('startDialSession answering errors: retried once, then setup-failed (session_start_failed)', async () => {
    const call = await startedCall(front('gql-starterr'), 'emu-demo');
    const { session } = call;
    await endsAs(call, 'setup-failed', 'session_start_failed');
    const starts = (await newLog()).filter((entry) => entry.op === 'StartDialSession');
    expect(starts.map((entry) => entry.action)).to.deep.equal(['injected', 'injected']);
    expect(session.result?.transcript).to.deep.equal([]);
  });

  it('connectSession answering errors: startDialSession is sent once the room is joined, and the call goes through', async () => {
    const call = await startedCall(front('gql-connecterr'), 'emu-demo');
    const { session } = call;
    expect(session.state).to.equal('in-call');
    await until(
      () => session.transcript.some((entry) => entry.speaker === 'AI' && entry.final),
      15000,
      'the agent greets',
    );
    await session.hangup();
    await endsAs(call, 'user-hangup');
    const log = await newLog();
    expect(log.filter((entry) => entry.op === 'ConnectSession').map((entry) => entry.action)).to.deep.equal([
      'injected',
    ]);
    expect(log.filter((entry) => entry.op === 'StartDialSession').map((entry) => entry.action)).to.deep.equal([
      'forwarded',
    ]);
  });

  it('the transcript subscription answering errors (no lk.transcription in the room): the transcript comes by polling, the call goes on', async () => {
    const call = await startedCall(front('gql-transcripterr'), 'emu-graphql-transcript', { pollIntervalMs: 300 });
    const { session, events } = call;
    await endsAs(call, 'agent-hangup');
    expect(
      events.some(
        (event) =>
          event.state === 'in-call' &&
          event.changed.speaker === 'AI' &&
          event.changed.final &&
          event.changed.text === QUICK_GREETING,
      ),
      'the greeting reached the transcript during the call',
    ).to.equal(true);
    expect(
      (await newLog()).filter((entry) => entry.op === 'RefreshTranscript').map((entry) => entry.action),
    ).to.deep.equal(['injected']);
    expectNoDuplicates(resultTranscript(session));
  });

  it('the subscription socket cut mid-call: the transcript goes on by polling, the call goes on to its own end', async () => {
    const call = await startedCall(front('gql-drop'), 'emu-graphql-transcript', { pollIntervalMs: 300 });
    const { session, seen, events } = call;
    await endsAs(call, 'agent-hangup');
    expect((await newLog()).map((entry) => entry.action)).to.include('dropped the socket');
    // The socket carried one event (the greeting's first words); its final text came by polling.
    expect(
      events.some((event) => event.state === 'in-call' && event.changed.final && event.changed.text === QUICK_GREETING),
      'the greeting became final during the call',
    ).to.equal(true);
    expect(
      seen.states.filter((state) => state === 'reconnecting'),
      'the media never noticed',
    ).to.deep.equal([]);
    expectNoDuplicates(resultTranscript(session));
  });

  it('a client that never sends startDialSession: the agent stays silent and the call ends agent-unavailable', async () => {
    const call = await startedCall(front('gql-nostart'), 'emu-demo', { agentTimeoutMs: 5000 });
    const { session, seen } = call;
    await endsAs(call, 'agent-unavailable');
    expect(seen.connected, 'never connected to an agent').to.deep.equal([]);
    expect(session.result?.transcript, 'the agent said nothing').to.deep.equal([]);
    expect(
      (await newLog()).filter((entry) => entry.op === 'StartDialSession').map((entry) => entry.action),
    ).to.deep.equal(['swallowed']);
  });

  it('transcript events duplicated and out of order (a LIVE again after its FINAL): one entry per line, a final line never reopened', async () => {
    const call = await startedCall(front('gql-dup'), 'emu-graphql-transcript');
    const { session, events } = call;
    await endsAs(call, 'agent-hangup');
    expect(
      (await newLog()).filter((entry) => entry.action === 'replayed a LIVE after its FINAL').length,
      'the proxy did reorder',
    ).to.be.greaterThan(0);
    const finals = new Set<string>();
    for (const event of events) {
      if (finals.has(event.changed.id))
        expect(event.changed.final, `entry ${event.changed.id} reopened: ${event.changed.text}`).to.equal(true);
      if (event.changed.final) finals.add(event.changed.id);
      expectNoDuplicates(event.entries);
    }
    expect(session.transcript.some((entry) => entry.text === QUICK_GREETING && entry.final)).to.equal(true);
    expectNoDuplicates(resultTranscript(session));
  });
});
