// `metrics: 'server'` (the element's `metrics="server"`): each call's metrics, as metrics-feature.ts
// put them on `call-ended.detail.metrics`, posted once to the companion (`POST /dials/:id/metrics`),
// which turns them into the site's real-user histograms. A chunk of its own, fetched only when the
// option asks for it: a call that ended while it loaded is sent as it arrives.
import type { ActiveCall } from '../../call/active-call.js';
import type { DialHandle } from '../../call/companion-client.js';
import type { FeatureContext, SessionFeature } from '../../call/session-feature.js';
import type { CallMetrics } from '../../call/types.js';
import type { DialRouteTail } from '../../wire/companion.js';
import type { FeatureLoad } from '../../call/optional-features.js';

const ROUTE: DialRouteTail = '/metrics';

/**
 * Sends `metrics` once: a `keepalive` fetch with the handle in the header, or, while the page is
 * leaving, a beacon with the handle in the body (the fetch when the beacon is refused). Fire and forget.
 */
export function sendMetrics(endpoint: string, dial: DialHandle, metrics: CallMetrics, leaving: boolean): void {
  const url = `${endpoint}/dials/${encodeURIComponent(dial.dialId)}${ROUTE}`;
  if (leaving && typeof navigator.sendBeacon === 'function') {
    // text/plain: a beacon the browser may send cross-origin without a preflight; the companion reads it as JSON.
    const body = new Blob([JSON.stringify({ ...metrics, handle: dial.handle })], { type: 'text/plain' });
    if (navigator.sendBeacon(url, body)) return;
  }
  fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${dial.handle}`, 'content-type': 'application/json' },
    body: JSON.stringify(metrics),
    keepalive: true,
  }).catch(() => undefined);
}

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
    sendMetrics(call.companion.endpoint, call.dial, metrics, call.result?.reason === 'page-unload');
  }
}

/** Its chunk's factory (features/registry.ts). */
export const makeFeature = (context: FeatureContext, load: FeatureLoad): MetricsReport =>
  new MetricsReport(context, load.endedBefore);
