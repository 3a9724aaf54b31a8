// The persist feature's session side alone (`persist`: calls that survive the page), against a
// real ActiveCall and the tab's sessionStorage, with the companion's leave beacon recorded: what
// the page keeps when it goes away mid-call, what the next page takes up, what the end removes,
// and the microphone asked again by a tap. The two-page end-to-end tests are element-persist-e2e.
import { expect } from '@open-wc/testing';
import type { CallHost } from '../../../../src/call/call-host.js';
import type { CallErrorInfo } from '../../../../src/call/types.js';
import { PersistFeature } from '../../../../src/features/persist/persist-feature.js';
import { RESUME_KEY, type ResumeRecord } from '../../../../src/features/persist/resume-record.js';
import { details, featureHarness, type FeatureHarness } from '../../../support/feature-context.js';

const DIAL = { dialId: 'dial-7', handle: 'h.secret' };

/** A page's session with `persist` on: its call up since `connectedAt`, held as `held()` says. */
function persisting(options: { connectedAt?: number | null; held?: boolean; endpoint?: string } = {}) {
  const harness = featureHarness({ options: { endpoint: options.endpoint ?? '/api/voice-call', agent: 'support' } });
  let recovered: () => void = () => undefined;
  /** The feature's first recoverable `call-error`. */
  const firstRecoverable = new Promise<void>((resolve) => (recovered = resolve));
  const host = Object.create(harness.context, {
    connectedAt: { value: options.connectedAt === undefined ? 1_000 : options.connectedAt },
    recoverable: {
      value: (code: CallErrorInfo['code'], message: string) => {
        harness.context.recoverable(code, message);
        recovered();
      },
    },
  }) as CallHost;
  const beacons: { dialId: string; leftAt: number }[] = [];
  harness.call.dial = { ...DIAL };
  harness.call.companion.leaveBeacon = (dial, leftAt) => void beacons.push({ dialId: dial.dialId, leftAt });
  const feature = new PersistFeature(host, () => options.held ?? false);
  return { harness, feature, beacons, firstRecoverable };
}

function stored(): ResumeRecord | null {
  const text = sessionStorage.getItem(RESUME_KEY);
  return text === null ? null : (JSON.parse(text) as ResumeRecord);
}

function say(harness: FeatureHarness, id: string, text: string): void {
  harness.call.transcript.applySegment({ segmentId: id, speaker: 'AI', text, final: true });
}

describe('persist feature (session side)', () => {
  afterEach(() => sessionStorage.removeItem(RESUME_KEY));

  it('a page going away mid-call keeps the call for the next page: the record, the leave beacon, no hang-up', () => {
    const { harness, feature, beacons } = persisting({ held: true });
    harness.setMuted(true);
    say(harness, 's1', 'Hello, how can I help?');
    say(harness, 's2', '');
    expect(feature.leave(harness.call)).to.equal(true);
    const record = stored();
    expect(record?.dialId).to.equal('dial-7');
    expect(record?.handle).to.equal('h.secret');
    expect(record?.endpoint).to.equal(new URL('/api/voice-call', location.href).href);
    expect(record?.agent).to.equal('support');
    expect(record?.startedAt).to.equal(1_000, 'the timer counts from when the call first connected');
    expect(record?.transcript.map((entry) => entry.text)).to.deep.equal(['Hello, how can I help?']);
    expect([record?.muted, record?.held]).to.deep.equal([true, true]);
    expect(beacons).to.deep.equal([{ dialId: 'dial-7', leftAt: record?.leftAt }]);
    expect(harness.call.dialOver, 'nothing on this page hangs the dial up any more').to.equal(true);
  });

  it('keeps nothing for a call with nothing to keep: no dial, a dial already over, or not up yet', () => {
    const noDial = persisting();
    noDial.harness.call.dial = null;
    expect(noDial.feature.leave(noDial.harness.call)).to.equal(false);

    const over = persisting();
    over.harness.call.dialOver = true;
    expect(over.feature.leave(over.harness.call)).to.equal(false);

    const connecting = persisting({ connectedAt: null });
    connecting.harness.call.phase = 'connecting';
    expect(connecting.feature.leave(connecting.harness.call)).to.equal(false);

    expect(stored()).to.equal(null);
    expect([...noDial.beacons, ...over.beacons, ...connecting.beacons]).to.deep.equal([]);
  });

  it('the next page of the same endpoint takes the call up: its dial, its start and hold, its transcript', () => {
    const first = persisting({ held: true });
    say(first.harness, 's1', 'Hello again');
    first.feature.leave(first.harness.call);

    const next = persisting();
    const record = next.feature.take();
    expect(record?.dialId).to.equal('dial-7');
    const call = next.harness.nextCall('starting');
    next.feature.adopt(call, record as ResumeRecord);
    expect(call.dial).to.deep.equal(DIAL);
    expect(call.resumed).to.deep.include({ startedAt: 1_000, held: true });
    expect(call.transcript.entries.map((entry) => entry.text)).to.deep.equal(['Hello again']);
  });

  it('a page for another endpoint takes nothing up', () => {
    const first = persisting();
    first.feature.leave(first.harness.call);
    expect(persisting({ endpoint: '/another/endpoint' }).feature.take()).to.equal(null);
  });

  it("the call's end removes the record, whichever page ends it", () => {
    const { harness, feature } = persisting();
    feature.leave(harness.call);
    expect(stored()).to.not.equal(null);
    feature.ended(harness.call);
    expect(stored()).to.equal(null);
  });

  it('a microphone the browser refuses without a click: a recoverable microphone_denied, and a tap asks again', async () => {
    const { harness, feature, firstRecoverable } = persisting();
    const realGetUserMedia = navigator.mediaDevices.getUserMedia;
    let asked = 0;
    const granted = new MediaStream();
    navigator.mediaDevices.getUserMedia = async () => {
      asked += 1;
      if (asked === 1) throw new DOMException('needs a gesture', 'NotAllowedError');
      return granted;
    };
    try {
      const microphone = feature.microphone(() => harness.call.controller.signal);
      await firstRecoverable;
      expect(feature.needsTap).to.equal(true);
      const errors = details<CallErrorInfo & { recoverable: boolean }>(harness.events, 'call-error');
      expect(errors.map(({ code, recoverable }) => ({ code, recoverable }))).to.deep.equal([
        { code: 'microphone_denied', recoverable: true },
      ]);
      feature.continue();
      expect(await microphone).to.equal(granted);
      expect(asked).to.equal(2);
      expect(feature.needsTap).to.equal(false);
    } finally {
      navigator.mediaDevices.getUserMedia = realGetUserMedia;
    }
  });
});
