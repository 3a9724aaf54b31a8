// The call's own timings, the session's side: each setup stage as it ends (`call-progress`), the
// time from the click to the agent's first audio, reconnects and the link's averages, put on
// `call-ended.detail.metrics`, on every call (metrics-report.ts, a chunk of its own, posts them to
// the companion with `metrics: 'server'`).
import type { ActiveCall } from '../../call/active-call.js';
import { CallProgressEvent } from '../../call/events.js';
import type { FeatureContext, SessionFeature } from '../../call/session-feature.js';
import type { CallMetrics, CallStage, StageTiming } from '../../call/types.js';
import type { QualityFeature } from '../quality/quality-feature.js';

const round = (ms: number) => Math.round(ms * 10) / 10;

export class MetricsFeature implements SessionFeature {
  readonly #context: FeatureContext;
  readonly #quality: QualityFeature;
  /** `performance.now()` at the click (the setup's start), or null before a call started its setup. */
  #origin: number | null = null;
  #stages: Partial<Record<CallStage, StageTiming>> = {};
  /** When the last stage ended (ms from the click): where the next one starts. */
  #mediaJoinedAt: number | null = null;
  #agentAt: number | null = null;
  #reconnects = 0;

  constructor(context: FeatureContext, quality: QualityFeature) {
    this.#context = context;
    this.#quality = quality;
  }

  started(_call: ActiveCall): void {
    this.#origin = performance.now();
    this.#stages = {};
    this.#mediaJoinedAt = null;
    this.#agentAt = null;
    this.#reconnects = 0;
  }

  microphoneOpened(call: ActiveCall): void {
    this.#stage(call, 'microphone', 0);
  }

  connecting(call: ActiveCall): void {
    this.#stage(call, 'dial', this.#endOf('microphone'));
  }

  joined(call: ActiveCall): void {
    this.#mediaJoinedAt = this.#stage(call, 'media', this.#endOf('dial'));
    if (this.#agentAt !== null) this.#stage(call, 'agent', this.#mediaJoinedAt);
  }

  agentJoined(call: ActiveCall): void {
    if (this.#agentAt !== null) return;
    this.#agentAt = this.#now();
    // An agent already in the room when the join completes is on the call as the room is.
    if (this.#mediaJoinedAt !== null) this.#stage(call, 'agent', this.#mediaJoinedAt);
  }

  agentSpeaking(call: ActiveCall, speaking: boolean): void {
    if (!speaking || this.#stages.firstAudio || !this.#stages.agent) return;
    this.#stage(call, 'firstAudio', this.#endOf('agent'));
  }

  reconnecting(call: ActiveCall): void {
    if (call.phase === 'in-call') this.#reconnects += 1;
  }

  ended(call: ActiveCall): void {
    const result = call.result;
    if (this.#origin === null || !result) return;
    const metrics: CallMetrics = { stages: this.#stages, reconnects: this.#reconnects, ...this.#quality.averages() };
    const firstAudio = this.#stages.firstAudio;
    if (firstAudio) metrics.timeToFirstAudioMs = round(firstAudio.startMs + firstAudio.durationMs);
    result.metrics = metrics;
    this.#origin = null;
  }

  /** ms since the click. */
  #now(): number {
    return this.#origin === null ? 0 : performance.now() - this.#origin;
  }

  #endOf(stage: CallStage): number {
    const timing = this.#stages[stage];
    return timing ? timing.startMs + timing.durationMs : 0;
  }

  /** Ends `stage` now (begun at `startMs`), fires `call-progress`; returns when it ended. */
  #stage(call: ActiveCall, stage: CallStage, startMs: number): number {
    const now = this.#now();
    if (this.#stages[stage] || !this.#context.isLive(call)) return now;
    const timing = { startMs: round(startMs), durationMs: round(Math.max(0, now - startMs)) };
    this.#stages[stage] = timing;
    this.#context.emit(new CallProgressEvent({ stage, ms: timing.durationMs, startMs: timing.startMs }));
    return now;
  }
}
