// Screen wake's session side alone: the lock from `connecting` to the call's release, once each.
import { expect } from '@open-wc/testing';
import { ScreenWakeFeature } from '../../../../src/features/screen-wake/screen-wake-feature.js';
import { until } from '../../../support/until.js';

class Sentinel extends EventTarget {
  released = false;
  async release(): Promise<void> {
    this.released = true;
  }
}

describe('screen wake feature (session side)', () => {
  let sentinels: Sentinel[] = [];
  beforeEach(() => {
    sentinels = [];
    const lock = {
      request: async (type: string) => {
        expect(type).to.equal('screen');
        const sentinel = new Sentinel();
        sentinels.push(sentinel);
        return sentinel;
      },
    };
    Object.defineProperty(navigator, 'wakeLock', { value: lock, configurable: true });
  });
  afterEach(() => {
    delete (navigator as { wakeLock?: unknown }).wakeLock;
  });

  it('takes the lock at connecting and lets it go at release; both idempotent', async () => {
    const feature = new ScreenWakeFeature();
    feature.connecting();
    feature.connecting();
    await until(() => sentinels.length === 1, 2000, 'the lock');
    feature.released();
    feature.released();
    expect(sentinels.map((sentinel) => sentinel.released)).to.deep.equal([true]);
    // Let go of: the page becoming visible again takes nothing.
    document.dispatchEvent(new Event('visibilitychange'));
    await Promise.resolve();
    expect(sentinels).to.have.length(1);
  });
});
