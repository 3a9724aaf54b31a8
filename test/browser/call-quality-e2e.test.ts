// What a site owner watches, from the browser: a real call (companion + emulator + the loopback
// room over real WebRTC) fires `call-progress` for each setup stage and `call-quality` from the
// room's connection-quality updates, ends with `call-ended.detail.metrics`, and with
// `metrics="server"` the companion's /metrics counts the visitor's time to first audio; a room
// that grades the link poor (emu-weak-link) makes the card say "Weak connection", announced once.
import { expect, fixture, html } from '@open-wc/testing';
import { CallSession } from '../../src/call/call-session.js';
import type { CallProgress, CallQuality, CallResult } from '../../src/call/types.js';
import { VoiceAgentCall } from '../../src/define.js';
import { findPart, part, shadow } from '../support/dom.js';
import { collect } from '../support/events.js';
import { until } from '../support/until.js';

const METRICS_TOKEN = 'browser-tests-metrics-token-0123456789';

/** A series' value in the companion's /metrics (0 when absent). */
async function scraped(series: string): Promise<number> {
  const response = await fetch('/api/voice-call/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(response.status).to.equal(200);
  const line = (await response.text()).split('\n').find((candidate) => candidate.startsWith(series + ' '));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

function next<T>(target: EventTarget, type: string, pick: (event: Event) => T | undefined, timeoutMs = 20000) {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      target.removeEventListener(type, listener);
      reject(new Error(`no ${type} within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (event: Event): void => {
      const value = pick(event);
      if (value === undefined) return;
      clearTimeout(timer);
      target.removeEventListener(type, listener);
      resolve(value);
    };
    target.addEventListener(type, listener);
  });
}

describe('call quality, progress and metrics (companion + emulator)', function () {
  this.timeout(60000);
  let container: HTMLElement;

  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
  });
  afterEach(() => container.remove());

  it('a real call fires call-progress for each stage in order, call-quality from the room, and ends with metrics the companion counts', async () => {
    const session = new CallSession({
      endpoint: '/api/voice-call',
      agent: 'emu-demo',
      audioContainer: container,
      metrics: 'server',
    });
    const progress: CallProgress[] = [];
    const qualities: CallQuality[] = [];
    session.addEventListener('call-progress', (event) => progress.push(event.detail));
    session.addEventListener('call-quality', (event) => qualities.push(event.detail));
    const ended = next(session, 'call-ended', (event) => (event as CustomEvent<CallResult>).detail);
    const firstAudio = next(session, 'call-progress', (event) =>
      (event as CustomEvent<CallProgress>).detail.stage === 'firstAudio' ? true : undefined,
    );
    const graded = next(session, 'call-quality', (event) => (event as CustomEvent<CallQuality>).detail, 15000);
    const before = await scraped('voice_agent_companion_client_time_to_first_audio_seconds_count');

    await session.start();
    await firstAudio;
    const quality = await graded;
    expect(quality.quality).to.equal('excellent');
    expect(progress.map((entry) => entry.stage)).to.deep.equal(['microphone', 'dial', 'media', 'agent', 'firstAudio']);
    for (const [index, entry] of progress.entries()) {
      expect(entry.ms, entry.stage).to.be.at.least(0);
      if (index > 0) expect(entry.startMs, entry.stage).to.be.at.least(progress[index - 1]?.startMs ?? 0);
    }
    // Fired on a change of grade, not per update: the room sends one every 5 s.
    await new Promise((resolve) => setTimeout(resolve, 5500));
    expect(qualities.map((entry) => entry.quality)).to.deep.equal(['excellent']);

    await session.hangup();
    const result = await ended;
    const metrics = result.metrics;
    expect(metrics, 'call-ended.detail.metrics').to.not.equal(undefined);
    if (!metrics) return;
    expect(Object.keys(metrics.stages)).to.have.members(['microphone', 'dial', 'media', 'agent', 'firstAudio']);
    const last = progress[progress.length - 1];
    expect(metrics.timeToFirstAudioMs).to.be.closeTo((last?.startMs ?? 0) + (last?.ms ?? 0), 0.2);
    expect(metrics.timeToFirstAudioMs).to.be.above(0);
    expect(metrics.reconnects).to.equal(0);
    if (metrics.rttMs !== undefined) expect(metrics.rttMs).to.be.within(0, 1000);
    if (metrics.packetLoss !== undefined) expect(metrics.packetLoss).to.be.within(0, 1);
    expect(metrics.jitterMs, 'jitter of the agent audio as received').to.be.a('number');

    // metrics="server": sent once; the companion's histogram has one more visitor.
    await until(
      async () => (await scraped('voice_agent_companion_client_time_to_first_audio_seconds_count')) === before + 1,
      10000,
      'the companion counted the call',
    );
  });

  it('emu-weak-link: the card says "Weak connection" once the room grades the link poor, and announces it', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-weak-link"></voice-agent-call>`,
    );
    const qualities = collect(el, 'call-quality', (event) => event.detail.quality);
    const ended = collect(el, 'call-ended', (event) => event.detail);
    const poor = next(el, 'call-quality', (event) =>
      (event as CustomEvent<CallQuality>).detail.quality === 'poor' ? Date.now() : undefined,
    );
    part(el, 'call-button').click();
    const gradedAt = await poor;
    expect(findPart(el, 'weak-connection'), 'not at once: a grade must last').to.equal(null);
    await until(() => findPart(el, 'weak-connection') !== null, 8000, '"Weak connection" on the card');
    expect(Date.now() - gradedAt).to.be.at.least(2900);
    expect(part(el, 'weak-connection').textContent?.trim()).to.equal('Weak connection');
    const live = shadow(el).querySelector('[role="status"]');
    await until(() => (live?.textContent ?? '').includes('Weak connection'), 2000, 'announced');
    expect(qualities).to.deep.equal(['poor']);
    await el.hangup();
    await until(() => ended.length === 1, 15000, 'call-ended');
    expect(findPart(el, 'weak-connection')).to.equal(null);
  });
});
