// Connection quality, the session's side: the media server's grade of the visitor's connection
// (LiveKit's ConnectionQualityChanged for the local participant) and the peer connection's stats
// (round trip, jitter, loss), as `call-quality` on each change of grade, never per sample. Keeps
// the call's averages for `call-ended.detail.metrics`.
import type { ActiveCall } from '../../call/active-call.js';
import { CallQualityEvent } from '../../call/events.js';
import type { LinkStats } from '../../call/media/livekit-media.js';
import type { FeatureContext, SessionFeature } from '../../call/session-feature.js';
import type { ConnectionQualityLevel } from '../../call/types.js';

/** How often the peer connection's stats are read during a call. */
const SAMPLE_MS = 2000;

export class QualityFeature implements SessionFeature {
  readonly #context: FeatureContext;
  #quality: ConnectionQualityLevel | null = null;
  #latest: LinkStats = {};
  #sums = { rttMs: [0, 0], jitterMs: [0, 0], packetLoss: [0, 0] } as Record<keyof LinkStats, [number, number]>;
  #timer: ReturnType<typeof setInterval> | undefined;
  #unwatch: (() => void) | undefined;

  constructor(context: FeatureContext) {
    this.#context = context;
  }

  /** The current grade, or null before the media server sent one. */
  get quality(): ConnectionQualityLevel | null {
    return this.#quality;
  }

  started(_call: ActiveCall): void {
    this.#quality = null;
    this.#latest = {};
    this.#sums = { rttMs: [0, 0], jitterMs: [0, 0], packetLoss: [0, 0] };
  }

  joined(call: ActiveCall): void {
    const media = call.media;
    if (!media) return;
    this.#unwatch = media.watchQuality((quality) => this.#grade(call, quality));
    this.#timer = setInterval(() => void this.#sample(call), SAMPLE_MS);
    void this.#sample(call);
  }

  released(_call: ActiveCall): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#unwatch?.();
    this.#unwatch = undefined;
  }

  /** The averages of the call's samples, each absent when no sample had it. */
  averages(): LinkStats {
    const averages: LinkStats = {};
    for (const key of ['rttMs', 'jitterMs', 'packetLoss'] as const) {
      const [sum, count] = this.#sums[key];
      if (count > 0) averages[key] = Math.round((sum / count) * 1000) / 1000;
    }
    return averages;
  }

  #grade(call: ActiveCall, quality: ConnectionQualityLevel): void {
    if (!this.#context.isLive(call) || quality === this.#quality) return;
    this.#quality = quality;
    this.#context.emit(new CallQualityEvent({ quality, ...rounded(this.#latest) }));
  }

  async #sample(call: ActiveCall): Promise<void> {
    const media = call.media;
    if (!media) return;
    const stats = await media.linkStats();
    if (!this.#context.isLive(call)) return;
    this.#latest = stats;
    for (const key of ['rttMs', 'jitterMs', 'packetLoss'] as const) {
      const value = stats[key];
      if (value === undefined || !Number.isFinite(value)) continue;
      this.#sums[key][0] += value;
      this.#sums[key][1] += 1;
    }
  }
}

/** Figures for an event: ms to 0.1, loss to 0.001. */
function rounded(stats: LinkStats): LinkStats {
  const out: LinkStats = {};
  if (stats.rttMs !== undefined) out.rttMs = Math.round(stats.rttMs * 10) / 10;
  if (stats.jitterMs !== undefined) out.jitterMs = Math.round(stats.jitterMs * 10) / 10;
  if (stats.packetLoss !== undefined) out.packetLoss = Math.round(stats.packetLoss * 1000) / 1000;
  return out;
}
