// "Weak connection" without flicker: a grade that flaps never shows the line, a poor grade that
// lasts shows it after WEAK_AFTER_MS, a good one that lasts hides it after RECOVERED_AFTER_MS, and
// only the first showing in a call is announced. Real timers, the real event classes.
import { expect } from '@open-wc/testing';
import { CallQualityEvent, CallStateEvent } from '../../src/call/events.js';
import type { ConnectionQualityLevel } from '../../src/call/types.js';
import { RECOVERED_AFTER_MS, WEAK_AFTER_MS, WeakConnection } from '../../src/features/quality/weak-connection.js';
import { until } from '../support/until.js';

describe('WeakConnection', function () {
  this.timeout(30000);

  function view() {
    let renders = 0;
    const weak = new WeakConnection(() => renders++);
    const grade = (quality: ConnectionQualityLevel) =>
      weak.onSessionEvent('call-quality', new CallQualityEvent({ quality }));
    weak.onSessionEvent('call-state', new CallStateEvent({ state: 'starting', previous: 'idle' }));
    return { weak, grade, renders: () => renders };
  }
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('a flapping grade never shows the line; a lasting poor one does, after WEAK_AFTER_MS, announced once', async () => {
    const { weak, grade, renders } = view();
    grade('excellent');
    for (let i = 0; i < 4; i++) {
      grade('poor');
      await wait(WEAK_AFTER_MS / 3);
      grade('good');
      await wait(WEAK_AFTER_MS / 3);
    }
    expect(weak.shown).to.equal(false);
    expect(renders()).to.equal(0);

    const since = Date.now();
    grade('lost');
    await until(() => weak.shown, WEAK_AFTER_MS + 1000, 'shown');
    expect(Date.now() - since).to.be.at.least(WEAK_AFTER_MS - 20);
    expect(weak.announcing).to.equal(true);
    grade('poor'); // still weak: nothing changes
    expect(renders()).to.equal(1);

    // A short recovery does not hide it; a lasting one does.
    grade('good');
    await wait(RECOVERED_AFTER_MS / 2);
    grade('poor');
    await wait(200);
    expect(weak.shown).to.equal(true);
    grade('excellent');
    await until(() => !weak.shown, RECOVERED_AFTER_MS + 1000, 'hidden');
    expect(weak.announcing).to.equal(false);

    // Shown again in the same call: on the card, not announced a second time.
    grade('poor');
    await until(() => weak.shown, WEAK_AFTER_MS + 1000, 'shown again');
    expect(weak.announcing).to.equal(false);
    expect(renders()).to.equal(3);
  });

  it('a call that ends takes the line away; the next call announces again', async () => {
    const { weak, grade } = view();
    grade('poor');
    await until(() => weak.shown, WEAK_AFTER_MS + 1000, 'shown');
    weak.onSessionEvent('call-state', new CallStateEvent({ state: 'ending', previous: 'in-call' }));
    expect(weak.shown).to.equal(false);
    weak.onSessionEvent('call-state', new CallStateEvent({ state: 'starting', previous: 'ended' }));
    grade('poor');
    await until(() => weak.shown, WEAK_AFTER_MS + 1000, 'shown in the next call');
    expect(weak.announcing).to.equal(true);
  });
});
