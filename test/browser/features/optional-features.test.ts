// The optional features' session sides are chunks of their own (src/call/optional-features.ts): a
// CallSession fetches none of them until its options ask (`features`, `persist`) or a method of
// one is used; until then their getters read as not in use, and a method used first loads the
// feature and then behaves as it always did (the same errors for a session with no call).
import { expect } from '@open-wc/testing';
import { CallSession } from '../../../src/call/call-session.js';
import { CallError } from '../../../src/call/errors.js';

const MODULES = {
  hold: '/src/features/hold/hold-feature.',
  keypad: '/src/features/keypad/keypad-feature.',
  transfer: '/src/features/transfer/transfer-feature.',
  persist: '/src/features/persist/persist-feature.',
} as const;
type Name = keyof typeof MODULES;

/** The features whose session module this page has fetched so far. */
function fetched(): Name[] {
  const names = performance.getEntriesByType('resource').map((entry) => entry.name);
  return (Object.keys(MODULES) as Name[]).filter((name) => names.some((url) => url.includes(MODULES[name])));
}

/** Resolves once the page has fetched the feature's module (at once when it has). */
function fetchedSoon(name: Name): Promise<void> {
  if (fetched().includes(name)) return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new PerformanceObserver(() => {
      if (!fetched().includes(name)) return;
      observer.disconnect();
      resolve();
    });
    observer.observe({ type: 'resource', buffered: true });
  });
}

const rejection = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('resolved');
    },
    (error: unknown) => error,
  );

describe('optional features load on intent', () => {
  // In this order: each test expects what the ones before it fetched, and no more.
  it('a session that asks for none fetches none, and reads them as not in use', () => {
    const session = new CallSession({ endpoint: '/api/voice-call' });
    expect(fetched()).to.deep.equal([]);
    expect(session.held).to.equal(false);
    expect(session.canHold).to.equal(false);
    expect(session.transferState).to.equal('none');
    expect(session.canTransfer).to.equal(false);
    expect(session.personFromEntry).to.equal(null);
    expect(session.resumeNeedsTap).to.equal(false);
    session.continueResume();
    expect(fetched()).to.deep.equal([]);
  });

  it('the first setHeld, sendDigits and requestTransfer load their feature, then reject as before without a call', async () => {
    const session = new CallSession({ endpoint: '/api/voice-call' });
    const hold = await rejection(session.setHeld(true));
    expect(hold).to.be.instanceOf(CallError);
    expect((hold as CallError).code).to.equal('hold_failed');
    expect(fetched()).to.deep.equal(['hold']);

    const digits = await rejection(session.sendDigits('12a'));
    expect(digits).to.be.instanceOf(RangeError);
    const noCall = await rejection(session.sendDigits('12'));
    expect((noCall as CallError).code).to.equal('media_failed');

    const transfer = await rejection(session.requestTransfer());
    expect((transfer as CallError).code).to.equal('transfer_failed');
    expect(fetched()).to.deep.equal(['hold', 'keypad', 'transfer']);
    expect(session.held).to.equal(false);
    expect(session.transferState).to.equal('none');
  });

  it('a name that is no optional feature throws a RangeError, in the constructor and in configure()', () => {
    const unknown = ['video'] as unknown as ['hold'];
    expect(() => new CallSession({ endpoint: '/api/voice-call', features: unknown })).to.throw(RangeError, /"video"/);
    const session = new CallSession({ endpoint: '/api/voice-call' });
    expect(() => session.configure({ features: unknown })).to.throw(RangeError, /hold, keypad, transfer/);
  });

  it('`persist` loads its chunk with the session (the leave runs inside pagehide); resume() with nothing stored resolves false', async () => {
    const session = new CallSession({ endpoint: '/api/voice-call', persist: true });
    await fetchedSoon('persist');
    expect(await session.resume()).to.equal(false);
    expect(session.state).to.equal('idle');
  });
});
