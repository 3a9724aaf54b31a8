// The call's own timings, the session's side alone: `call-progress` per setup stage in order,
// each starting where the last ended; `call-ended.detail.metrics` with the time to the agent's
// first audio, reconnects and the link's averages (on every call; metrics-report.test.ts: sending
// them with `metrics: 'server'`).
import { expect } from '@open-wc/testing';
import type { ActiveCall } from '../../../../src/call/active-call.js';
import { callResult } from '../../../../src/call/endings.js';
import type { CallProgress, EndReason } from '../../../../src/call/types.js';
import { MetricsFeature } from '../../../../src/features/metrics/metrics-feature.js';
import { QualityFeature } from '../../../../src/features/quality/quality-feature.js';
import { details, featureHarness } from '../../../support/feature-context.js';

function metrics() {
  const harness = featureHarness({ phase: 'starting' });
  harness.call.dial = { dialId: 'dial-1', handle: 'h' };
  const feature = new MetricsFeature(harness.context, new QualityFeature(harness.context));
  feature.started(harness.call);
  return { harness, feature };
}

function end(call: ActiveCall, reason: EndReason = 'user-hangup') {
  call.phase = 'released';
  call.result = callResult({
    dialId: 'dial-1',
    reason,
    transcript: [],
    record: null,
    error: undefined,
    nonSpeechLines: undefined,
  });
  return call.result;
}

const progress = (events: readonly Event[]) => details<CallProgress>(events, 'call-progress');

describe('metrics feature (session side)', () => {
  it('each setup stage once, in order, each starting where the last ended; the metrics on the result', () => {
    const { harness, feature } = metrics();
    const { call } = harness;
    feature.microphoneOpened(call);
    call.phase = 'connecting';
    feature.connecting(call);
    feature.joined(call);
    feature.agentJoined(call);
    feature.agentJoined(call);
    call.phase = 'in-call';
    feature.agentSpeaking(call, true);
    feature.agentSpeaking(call, false);
    feature.agentSpeaking(call, true);
    const seen = progress(harness.events);
    expect(seen.map((entry) => entry.stage)).to.deep.equal(['microphone', 'dial', 'media', 'agent', 'firstAudio']);
    expect(seen[0]?.startMs).to.equal(0);
    for (let index = 1; index < seen.length; index++) {
      const before = seen[index - 1];
      const entry = seen[index];
      if (!before || !entry) continue;
      expect(entry.startMs).to.be.closeTo(
        before.startMs + before.ms,
        0.11,
        `${entry.stage} starts as ${before.stage} ends`,
      );
    }
    const result = end(call);
    feature.ended(call);
    const firstAudio = seen[4];
    expect(result.metrics?.reconnects).to.equal(0);
    expect(Object.keys(result.metrics?.stages ?? {})).to.deep.equal([
      'microphone',
      'dial',
      'media',
      'agent',
      'firstAudio',
    ]);
    expect(result.metrics?.timeToFirstAudioMs).to.be.closeTo(
      (firstAudio?.startMs ?? NaN) + (firstAudio?.ms ?? NaN),
      0.11,
    );
  });

  it('an agent already in the room when the join completes is on the call as the room is', () => {
    const { harness, feature } = metrics();
    const { call } = harness;
    feature.microphoneOpened(call);
    feature.connecting(call);
    feature.agentJoined(call);
    expect(progress(harness.events).map((entry) => entry.stage)).to.deep.equal(['microphone', 'dial']);
    feature.joined(call);
    const [, , media, agent] = progress(harness.events);
    expect([media?.stage, agent?.stage]).to.deep.equal(['media', 'agent']);
    expect(agent?.startMs).to.be.closeTo((media?.startMs ?? NaN) + (media?.ms ?? NaN), 0.11);
  });

  it('counts reconnects of a call that was up, not of one still connecting; no first audio, no time to it', () => {
    const { harness, feature } = metrics();
    const { call } = harness;
    call.phase = 'connecting';
    feature.reconnecting(call);
    call.phase = 'in-call';
    feature.reconnecting(call);
    feature.reconnecting(call);
    const result = end(call);
    feature.ended(call);
    expect(result.metrics?.reconnects).to.equal(2);
    expect(result.metrics).to.not.have.property('timeToFirstAudioMs');
  });

  it('a stage of a call that is no longer live is not reported', () => {
    const { harness, feature } = metrics();
    harness.call.phase = 'ending';
    feature.microphoneOpened(harness.call);
    expect(progress(harness.events)).to.deep.equal([]);
  });
});
