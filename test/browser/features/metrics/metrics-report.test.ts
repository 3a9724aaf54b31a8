// `metrics: 'server'`, the report's side alone (its own chunk, metrics-report.ts): each call's
// metrics sent once to the companion as the call ends, by beacon (text/plain, the handle in the
// body) when the page is leaving, else a keepalive fetch with the handle in the header, which is
// also the fallback when the browser refuses the beacon; a call that ended while the chunk loaded
// is sent as it arrives. The page's fetch and sendBeacon are recorded, not sent (the real post to a
// real companion: call-quality-e2e.test.ts).
import { expect } from '@open-wc/testing';
import { callResult } from '../../../../src/call/endings.js';
import type { CallMetrics, EndReason } from '../../../../src/call/types.js';
import { MetricsReport } from '../../../../src/features/metrics/metrics-report.js';
import { featureHarness, type FeatureHarness } from '../../../support/feature-context.js';

interface Sent {
  via: 'beacon' | 'fetch';
  url: string;
  type: string;
  authorization: string | null;
  body: unknown;
}

/** Records the page's beacons and fetches until `restore()`; `refuseBeacons` makes sendBeacon say no. */
function recordSends({ refuseBeacons = false } = {}) {
  const pending: Promise<Sent>[] = [];
  const realFetch = window.fetch;
  const realBeacon = Object.getOwnPropertyDescriptor(navigator, 'sendBeacon');
  window.fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : null;
    pending.push(
      Promise.resolve({
        via: 'fetch',
        url: String(input),
        type: headers.get('content-type') ?? '',
        authorization: headers.get('authorization'),
        body,
      }),
    );
    return Promise.resolve(new Response('{"success":true}'));
  };
  Object.defineProperty(navigator, 'sendBeacon', {
    configurable: true,
    value: (url: string, data: Blob) => {
      if (refuseBeacons) return false;
      pending.push(
        data.text().then((text) => ({
          via: 'beacon' as const,
          url,
          type: data.type,
          authorization: null,
          body: JSON.parse(text) as unknown,
        })),
      );
      return true;
    },
  });
  return {
    sent: () => Promise.all(pending),
    restore() {
      window.fetch = realFetch;
      if (realBeacon) Object.defineProperty(navigator, 'sendBeacon', realBeacon);
      else delete (navigator as { sendBeacon?: unknown }).sendBeacon;
    },
  };
}

const METRICS: CallMetrics = { stages: { microphone: { startMs: 0, durationMs: 12.5 } }, reconnects: 0 };

function report(options: { metrics?: 'server' | 'off' } = { metrics: 'server' }) {
  const harness = featureHarness({ phase: 'in-call', options: { endpoint: 'https://site.test/api', ...options } });
  harness.call.dial = { dialId: 'dial/1', handle: 'handle-1' };
  return harness;
}

/** Ends the harness's call as the session does: the result, with the metrics the metrics feature put on it. */
function end(harness: FeatureHarness, reason: EndReason = 'user-hangup') {
  const { call } = harness;
  call.phase = 'released';
  call.result = callResult({
    dialId: 'dial/1',
    reason,
    transcript: [],
    record: null,
    error: undefined,
    nonSpeechLines: undefined,
  });
  call.result.metrics = METRICS;
}

describe('metrics report (metrics="server", session side)', () => {
  let sends: ReturnType<typeof recordSends>;
  afterEach(() => sends.restore());

  it("sends the call's metrics once as it ends, a keepalive fetch with the handle in the header", async () => {
    sends = recordSends();
    const harness = report();
    const feature = new MetricsReport(harness.context, null);
    end(harness);
    feature.ended(harness.call);
    feature.ended(harness.call);
    expect(await sends.sent()).to.deep.equal([
      {
        via: 'fetch',
        url: 'https://site.test/api/dials/dial%2F1/metrics',
        type: 'application/json',
        authorization: 'Bearer handle-1',
        body: METRICS,
      },
    ]);
  });

  it('a page that is leaving sends a text/plain beacon with the handle in the body; a refused beacon falls back to the fetch', async () => {
    sends = recordSends();
    const leaving = report();
    const feature = new MetricsReport(leaving.context, null);
    end(leaving, 'page-unload');
    feature.ended(leaving.call);
    expect(await sends.sent()).to.deep.equal([
      {
        via: 'beacon',
        url: 'https://site.test/api/dials/dial%2F1/metrics',
        type: 'text/plain',
        authorization: null,
        body: { ...METRICS, handle: 'handle-1' },
      },
    ]);
    sends.restore();

    sends = recordSends({ refuseBeacons: true });
    const refused = report();
    const again = new MetricsReport(refused.context, null);
    end(refused, 'page-unload');
    again.ended(refused.call);
    expect((await sends.sent()).map(({ via, authorization }) => ({ via, authorization }))).to.deep.equal([
      { via: 'fetch', authorization: 'Bearer handle-1' },
    ]);
  });

  it('sends nothing once the page turned metrics off, nor for a call with no dial', async () => {
    sends = recordSends();
    const off = report({ metrics: 'off' });
    const feature = new MetricsReport(off.context, null);
    end(off);
    feature.ended(off.call);
    const undialled = report();
    undialled.call.dial = null;
    end(undialled);
    new MetricsReport(undialled.context, null).ended(undialled.call);
    expect(await sends.sent()).to.deep.equal([]);
  });

  it('a call that ended while the chunk loaded is sent as it arrives; one that had ended before it was asked for is not', async () => {
    sends = recordSends();
    const loadedLate = report();
    end(loadedLate);
    new MetricsReport(loadedLate.context, null);
    expect((await sends.sent()).map(({ url }) => url)).to.deep.equal(['https://site.test/api/dials/dial%2F1/metrics']);
    sends.restore();

    sends = recordSends();
    const endedBefore = report();
    end(endedBefore);
    new MetricsReport(endedBefore.context, endedBefore.call);
    expect(await sends.sent()).to.deep.equal([]);
  });
});
