// `metrics: 'server'` (the element's `metrics="server"`): each call's metrics, as metrics-feature.ts
// put them on `call-ended.detail.metrics`, posted once to the companion (`POST /dials/:id/metrics`),
// which turns them into the site's real-user histograms. A chunk of its own, fetched only when the
// option asks for it: a call that ended while it loaded is sent as it arrives.
import type { ActiveCall } from '../../call/active-call.js';
import type { FeatureContext, SessionFeature } from '../../call/session-feature.js';
import type { FeatureLoad } from '../../call/optional-features.js';

export class MetricsReport implements SessionFeature {
  readonly #context: FeatureContext;
  readonly #sent = new WeakSet<ActiveCall>();

  /** `before`: the call that had already ended when the chunk was asked for (not sent); one that ended while it loaded is sent now. */
  constructor(context: FeatureContext, before: ActiveCall | null) {
    this.#context = context;
    const call = context.call;
    if (call && call !== before) this.ended(call);
  }

  /** After the metrics feature's own `ended`, which put them on the result. */
  ended(call: ActiveCall): void {
    const metrics = call.result?.metrics;
    if (!metrics || !call.dial || this.#sent.has(call) || this.#context.options.metrics !== 'server') return;
    this.#sent.add(call);
    // Once: a keepalive fetch, or while the page is leaving a beacon (companion-client.ts). Fire and forget.
    if (call.result?.reason === 'page-unload') call.companion.beacon(call.dial, '/metrics', metrics);
    else call.companion.keepalive(call.dial, '/metrics', metrics);
  }
}

/** Its chunk's factory (features/registry.ts). */
export const makeFeature = (context: FeatureContext, load: FeatureLoad): MetricsReport =>
  new MetricsReport(context, load.endedBefore);
