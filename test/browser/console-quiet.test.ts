// A site owner opens the console during a normal call and reads every line as a bug (issue 19,
// item 7). Expected outcomes (a hang-up, the agent hanging up, busy, a drop, a blip, a silence
// hang-up) print nothing: not from the widget, not from livekit-client, and no unhandled
// rejection. The `debug` switch brings livekit-client's logs back, which also shows that this
// test sees them when they are there. (A failed fetch, e.g. the companion's 429, is logged by the
// browser itself, outside JavaScript's reach: not counted here, see the README.)
import { expect, fixture, html } from '@open-wc/testing';
import { getLogger, LoggerNames } from 'livekit-client';
import { CallSession } from '../../src/call/call-session.js';
import type { CallSessionOptions, EndReason } from '../../src/call/types.js';
import { VoiceAgentCall } from '../../src/define.js';
import { part } from '../support/dom.js';
import { until } from '../support/until.js';

const METHODS = ['error', 'warn', 'info', 'log', 'debug', 'trace'] as const;
type Method = (typeof METHODS)[number];

/** Everything the page writes to the console from now on, and every unhandled rejection or error. */
function captureConsole(): { lines: string[]; restore(): void } {
  const lines: string[] = [];
  const originals = new Map<Method, (...args: unknown[]) => void>();
  for (const method of METHODS) {
    originals.set(method, console[method]);
    console[method] = (...args: unknown[]) => {
      const text = args
        .map((arg) =>
          arg instanceof Error ? arg.message : typeof arg === 'string' ? arg : (JSON.stringify(arg) ?? String(arg)),
        )
        .join(' ');
      // Lit's own notice when it is served in development mode (the test server's choice, not a page's).
      if (/Lit is in dev mode/.test(text)) return;
      lines.push(`console.${method}: ${text.slice(0, 160)}`);
    };
  }
  const onRejection = (event: PromiseRejectionEvent): void =>
    void lines.push(`unhandledrejection: ${String(event.reason)}`);
  const onError = (event: ErrorEvent): void => void lines.push(`error: ${event.message}`);
  window.addEventListener('unhandledrejection', onRejection);
  window.addEventListener('error', onError);
  return {
    lines,
    restore() {
      for (const [method, original] of originals) console[method] = original;
      window.removeEventListener('unhandledrejection', onRejection);
      window.removeEventListener('error', onError);
    },
  };
}

async function elementCall(agent: string, options: { debug?: boolean; hangUp?: boolean } = {}): Promise<EndReason> {
  const el = await fixture<VoiceAgentCall>(
    html`<voice-agent-call endpoint="/api/voice-call" agent=${agent} ?debug=${options.debug}></voice-agent-call>`,
  );
  const ended = new Promise<EndReason>((resolve) =>
    el.addEventListener('call-ended', (event) => resolve(event.detail.reason), { once: true }),
  );
  part(el, 'call-button').click();
  if (options.hangUp) {
    await until(() => el.state === 'in-call', 20000, 'in-call');
    // A line of the agent's greeting first, so the call is a real one when the visitor leaves.
    await until(() => el.transcript.length > 0, 20000, 'the greeting');
    part(el, 'hangup-button').click();
  }
  return ended;
}

async function sessionCall(
  agent: string,
  options: Partial<CallSessionOptions>,
  during?: (session: CallSession) => void,
): Promise<EndReason> {
  const container = document.createElement('div');
  document.body.append(container);
  const session = new CallSession({ endpoint: '/api/voice-call', agent, audioContainer: container, ...options });
  const ended = new Promise<EndReason>((resolve) =>
    session.addEventListener('call-ended', (event) => resolve(event.detail.reason), { once: true }),
  );
  await session.start();
  during?.(session);
  const reason = await ended;
  container.remove();
  return reason;
}

describe('the console stays quiet on expected outcomes', function () {
  this.timeout(90000);
  let capture: ReturnType<typeof captureConsole>;
  beforeEach(() => {
    capture = captureConsole();
  });
  afterEach(() => capture.restore());

  it('a normal call the visitor hangs up, one the agent hangs up, and a busy line: no console line at all', async () => {
    expect(await elementCall('emu-demo', { hangUp: true })).to.equal('user-hangup');
    expect(await elementCall('emu-quick')).to.equal('agent-hangup');
    expect(await elementCall('emu-busy')).to.equal('busy');
    expect(capture.lines, capture.lines.join('\n')).to.deep.equal([]);
  });

  it('a drop, a blip and a silence hang-up: no console line at all', async () => {
    expect(await sessionCall('emu-drop', { maxReconnectAttempts: 1 })).to.equal('network-lost');
    const blip = await sessionCall('emu-blip', {}, (session) => {
      // Hang up once the connection came back from its one drop.
      let dropped = false;
      session.addEventListener('call-state', (event) => {
        if (event.detail.state === 'reconnecting') dropped = true;
        if (event.detail.state === 'in-call' && dropped) void session.hangup();
      });
    });
    expect(blip).to.equal('user-hangup');
    expect(await sessionCall('emu-silent-user', {}, (session) => session.setMuted(true))).to.equal('silence');
    expect(capture.lines, capture.lines.join('\n')).to.deep.equal([]);
  });

  it('with `debug`, livekit-client logs again (and this test sees it)', async () => {
    expect(await elementCall('emu-demo', { debug: true, hangUp: true })).to.equal('user-hangup');
    expect(capture.lines.length, 'livekit-client debug lines').to.be.greaterThan(0);
    // `debug` ended with its call: livekit-client's levels are global, so the room's late work (its
    // silence check on the stopped microphone, which may finish after the end) must log nothing.
    capture.lines.length = 0;
    getLogger(LoggerNames.Track).debug('a late line from the ended call');
    getLogger(LoggerNames.Room).debug('room event localAudioSilenceDetected');
    expect(capture.lines, capture.lines.join('\n')).to.deep.equal([]);
    // The next call without `debug` is quiet again.
    expect(await elementCall('emu-demo', { hangUp: true })).to.equal('user-hangup');
    expect(capture.lines, capture.lines.join('\n')).to.deep.equal([]);
  });
});
