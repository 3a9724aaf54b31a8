// The metrics' report is a chunk of its own (src/features/metrics/metrics-report.ts): a CallSession
// fetches it only when its options say `metrics: 'server'` (at construction or in configure()),
// while `call-progress` and `call-ended.detail.metrics` (metrics-feature.ts) come with every call.
import { expect } from '@open-wc/testing';
import { CallSession } from '../../../../src/call/call-session.js';

const MODULE = '/src/features/metrics/metrics-report.';

const fetched = (): boolean => performance.getEntriesByType('resource').some((entry) => entry.name.includes(MODULE));

/** Resolves once the page has fetched the report's module. */
function fetchedSoon(): Promise<void> {
  return new Promise((resolve) => {
    const observer = new PerformanceObserver(() => {
      if (!fetched()) return;
      observer.disconnect();
      resolve();
    });
    observer.observe({ type: 'resource', buffered: true });
  });
}

describe('metrics report loads only for metrics: server', () => {
  // In this order: the first expects nothing fetched.
  it('a session without it, or with metrics off, fetches none', () => {
    new CallSession({ endpoint: '/api/voice-call' });
    const session = new CallSession({ endpoint: '/api/voice-call', metrics: 'off' });
    session.configure({ metrics: 'off', debug: false });
    expect(fetched()).to.equal(false);
  });

  it("configure({ metrics: 'server' }) fetches it", async () => {
    const session = new CallSession({ endpoint: '/api/voice-call' });
    session.configure({ metrics: 'server' });
    await fetchedSoon();
    expect(fetched()).to.equal(true);
  });
});
