// The fault matrix, setup half: every fault before the media connects (state `starting` before
// and after the dial), injected by test/support/fault-proxy.mjs in front of the real companion
// or behind a second real companion (its service answers errors or hangs). Real Chromium, the
// real CallSession, the emulator; each cell makes the shared assertion in fault-matrix.ts.
import { expect } from '@open-wc/testing';
import type { EndReason } from '../../src/call/types.js';
import { expectCleanEnd, faultLog, front, newSession, record, useHarness } from '../support/fault-matrix.js';
import { until } from '../support/until.js';

interface Cell {
  fault: string;
  state: 'starting (before dial)' | 'starting (after dial)';
  endpoint: string;
  agent: string;
  reason: EndReason;
  code: string | null;
  /** POST /dials attempts the widget makes (all with one Idempotency-Key). */
  attempts?: number;
  dials: number;
}

const before = 'starting (before dial)' as const;
const after = 'starting (after dial)' as const;

const CELLS: Cell[] = [
  // The companion, as the page sees it.
  {
    fault: 'companion unreachable (nothing listening)',
    state: before,
    endpoint: 'http://127.0.0.1:9/api/voice-call',
    agent: 'emu-demo',
    reason: 'setup-failed',
    code: 'network_error',
    dials: 0,
  },
  // Chromium itself re-sends a request whose connection was reset, so only the key is counted.
  {
    fault: 'companion connection reset',
    state: before,
    endpoint: front('dials-reset'),
    agent: 'emu-demo',
    reason: 'setup-failed',
    code: 'network_error',
    dials: 0,
  },
  // Retried once (a timed-out create may have made the dial), with the same key.
  {
    fault: 'companion slow past the request timeout',
    state: before,
    endpoint: front('dials-hang'),
    agent: 'emu-demo',
    reason: 'setup-failed',
    code: 'request_timeout',
    attempts: 2,
    dials: 0,
  },
  {
    fault: 'companion 429',
    state: before,
    endpoint: front('dials-429'),
    agent: 'emu-demo',
    reason: 'busy',
    code: 'rate_limited',
    attempts: 1,
    dials: 0,
  },
  {
    fault: 'companion 500 (not JSON)',
    state: before,
    endpoint: front('dials-500'),
    agent: 'emu-demo',
    reason: 'setup-failed',
    code: 'http_500',
    attempts: 1,
    dials: 0,
  },
  {
    fault: 'companion 502',
    state: before,
    endpoint: front('dials-502'),
    agent: 'emu-demo',
    reason: 'setup-failed',
    code: 'upstream_error',
    attempts: 2,
    dials: 0,
  },
  {
    fault: 'companion 504',
    state: before,
    endpoint: front('dials-504'),
    agent: 'emu-demo',
    reason: 'setup-failed',
    code: 'upstream_timeout',
    attempts: 2,
    dials: 0,
  },
  {
    fault: 'companion malformed JSON',
    state: before,
    endpoint: front('dials-malformed'),
    agent: 'emu-demo',
    reason: 'setup-failed',
    code: 'invalid_response',
    attempts: 1,
    dials: 0,
  },
  {
    fault: 'companion connection reset',
    state: after,
    endpoint: front('token-reset'),
    agent: 'emu-demo',
    reason: 'setup-failed',
    code: 'network_error',
    dials: 1,
  },
  {
    fault: 'companion slow past the request timeout',
    state: after,
    endpoint: front('token-hang'),
    agent: 'emu-demo',
    reason: 'setup-failed',
    code: 'request_timeout',
    dials: 1,
  },
  {
    fault: 'companion 429',
    state: after,
    endpoint: front('token-429'),
    agent: 'emu-demo',
    reason: 'busy',
    code: 'rate_limited',
    dials: 1,
  },
  {
    fault: 'companion 500 (not JSON)',
    state: after,
    endpoint: front('token-500'),
    agent: 'emu-demo',
    reason: 'setup-failed',
    code: 'http_500',
    dials: 1,
  },
  {
    fault: 'companion 502',
    state: after,
    endpoint: front('token-502'),
    agent: 'emu-demo',
    reason: 'setup-failed',
    code: 'upstream_error',
    dials: 1,
  },
  {
    fault: 'companion 504',
    state: after,
    endpoint: front('token-504'),
    agent: 'emu-demo',
    reason: 'setup-failed',
    code: 'upstream_timeout',
    dials: 1,
  },
  {
    fault: 'companion malformed JSON',
    state: after,
    endpoint: front('token-malformed'),
    agent: 'emu-demo',
    reason: 'setup-failed',
    code: 'invalid_response',
    dials: 1,
  },
  // The service, behind the real companion (which turns its answers into the companion's error codes).
  {
    fault: 'service 401',
    state: before,
    endpoint: '/__fault-svc',
    agent: 'svc-create-401',
    reason: 'setup-failed',
    code: 'upstream_error',
    attempts: 2,
    dials: 0,
  },
  {
    fault: 'service 409',
    state: before,
    endpoint: '/__fault-svc',
    agent: 'svc-create-409',
    reason: 'setup-failed',
    code: 'duplicate_request',
    attempts: 1,
    dials: 0,
  },
  {
    fault: 'service 422',
    state: before,
    endpoint: '/__fault-svc',
    agent: 'svc-create-422',
    reason: 'setup-failed',
    code: 'upstream_error',
    attempts: 2,
    dials: 0,
  },
  {
    fault: 'service 500',
    state: before,
    endpoint: '/__fault-svc',
    agent: 'svc-create-500',
    reason: 'setup-failed',
    code: 'upstream_error',
    attempts: 2,
    dials: 0,
  },
  {
    fault: 'service hangs (companion upstream timeout)',
    state: before,
    endpoint: '/__fault-svc',
    agent: 'svc-create-hang',
    reason: 'setup-failed',
    code: 'upstream_timeout',
    attempts: 2,
    dials: 0,
  },
  {
    fault: 'service 401',
    state: after,
    endpoint: '/__fault-svc',
    agent: 'svc-token-401',
    reason: 'setup-failed',
    code: 'upstream_error',
    dials: 1,
  },
  {
    fault: 'service 409',
    state: after,
    endpoint: '/__fault-svc',
    agent: 'svc-token-409',
    reason: 'setup-failed',
    code: 'duplicate_request',
    dials: 1,
  },
  {
    fault: 'service 422',
    state: after,
    endpoint: '/__fault-svc',
    agent: 'svc-token-422',
    reason: 'setup-failed',
    code: 'upstream_error',
    dials: 1,
  },
  {
    fault: 'service 500',
    state: after,
    endpoint: '/__fault-svc',
    agent: 'svc-token-500',
    reason: 'setup-failed',
    code: 'upstream_error',
    dials: 1,
  },
  {
    fault: 'service hangs (companion upstream timeout)',
    state: after,
    endpoint: '/__fault-svc',
    agent: 'svc-token-hang',
    reason: 'setup-failed',
    code: 'upstream_timeout',
    dials: 1,
  },
];

const realGetUserMedia = navigator.mediaDevices.getUserMedia;
const realQuery = navigator.permissions.query;

/** The Permissions API's answer for the microphone, as the page sees it (the test browser grants it). */
function microphonePermission(state: PermissionState): void {
  navigator.permissions.query = (descriptor: PermissionDescriptor) =>
    descriptor.name === ('microphone' as PermissionName)
      ? Promise.resolve({ state } as PermissionStatus)
      : realQuery.call(navigator.permissions, descriptor);
}

describe('fault matrix: the microphone, through the real companion', function () {
  this.timeout(20000);
  const harness = useHarness();
  afterEach(() => {
    navigator.mediaDevices.getUserMedia = realGetUserMedia;
    navigator.permissions.query = realQuery;
  });

  for (const permission of ['prompt', 'denied'] as const) {
    for (const [fault, name, reason] of [
      ['microphone denied', 'NotAllowedError', 'microphone-denied'],
      ['no microphone', 'NotFoundError', 'microphone-unavailable'],
      ['microphone in use elsewhere', 'NotReadableError', 'microphone-unavailable'],
    ] as const) {
      it(`${fault} in starting (before dial), permission ${permission}: ${reason}, no dial`, async () => {
        microphonePermission(permission);
        navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException(fault, name));
        const session = newSession(harness, front('none'), 'emu-demo');
        const seen = record(session);
        await session.start();
        await expectCleanEnd(harness, session, seen, { reason, code: reason.replace(/-/g, '_'), dials: 0 });
        expect((await faultLog()).slice(harness.logStart), 'no POST /dials').to.deep.equal([]);
        expect(seen.states).to.deep.equal(['starting', 'ending', 'ended']);
      });
    }
  }

  it('permission prompt: the dial waits for the microphone', async () => {
    let asked: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (asked = resolve));
    navigator.permissions.query = () => {
      asked();
      return Promise.resolve({ state: 'prompt' } as PermissionStatus);
    };
    const requests: string[] = [];
    const realFetch = window.fetch;
    window.fetch = (input, init) => {
      requests.push(String(input instanceof Request ? input.url : input));
      return realFetch(input, init);
    };
    let grant: () => void = () => undefined;
    navigator.mediaDevices.getUserMedia = (constraints) =>
      new Promise((resolve) => (grant = () => resolve(realGetUserMedia.call(navigator.mediaDevices, constraints))));
    try {
      const session = newSession(harness, front('none'), 'emu-demo');
      const seen = record(session);
      const started = session.start();
      // The session decides as soon as the Permissions API answers: give it that task, then look.
      await answered;
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(
        requests.filter((url) => url.endsWith('/dials')),
        'no POST /dials before the microphone',
      ).to.deep.equal([]);
      grant();
      await started;
      expect(seen.connected.length, 'connected').to.equal(1);
      await session.hangup();
      await expectCleanEnd(harness, session, seen, { reason: 'user-hangup', code: null, dials: 1 });
    } finally {
      window.fetch = realFetch;
    }
  });

  it('permission granted (a returning visitor): the dial is created while getUserMedia resolves', async () => {
    microphonePermission('granted');
    let grant: () => void = () => undefined;
    navigator.mediaDevices.getUserMedia = (constraints) =>
      new Promise((resolve) => (grant = () => resolve(realGetUserMedia.call(navigator.mediaDevices, constraints))));
    const session = newSession(harness, front('none'), 'emu-demo');
    const seen = record(session);
    const started = session.start();
    await until(
      async () => (await faultLog()).slice(harness.logStart).some((entry) => entry.status === 200),
      8000,
      'POST /dials answered before the microphone',
    );
    grant();
    await started;
    expect(seen.connected.length, 'connected').to.equal(1);
    await session.hangup();
    await expectCleanEnd(harness, session, seen, { reason: 'user-hangup', code: null, dials: 1 });
  });

  for (const [fault, name] of [
    ['no microphone', 'NotFoundError'],
    ['microphone in use elsewhere', 'NotReadableError'],
  ] as const) {
    it(`${fault} with the permission granted: microphone-unavailable, the dial made meanwhile is hung up`, async () => {
      microphonePermission('granted');
      let fail: () => void = () => undefined;
      navigator.mediaDevices.getUserMedia = () =>
        new Promise((_, reject) => (fail = () => reject(new DOMException(fault, name))));
      const session = newSession(harness, front('none'), 'emu-demo');
      const seen = record(session);
      void session.start();
      await until(
        async () => (await faultLog()).slice(harness.logStart).some((entry) => entry.status === 200),
        8000,
        'POST /dials answered',
      );
      fail();
      // Terminal on the emulator (expectCleanEnd): canceled, never left to run to its time cap.
      await expectCleanEnd(harness, session, seen, {
        reason: 'microphone-unavailable',
        code: 'microphone_unavailable',
        dials: 1,
      });
      expect(seen.connected).to.deep.equal([]);
    });
  }
});

describe('fault matrix: setup (companion and service faults)', function () {
  this.timeout(40000);
  const harness = useHarness();

  for (const cell of CELLS) {
    it(`${cell.fault} in ${cell.state}: ${cell.reason}${cell.code ? ` (${cell.code})` : ''}`, async () => {
      const session = newSession(harness, cell.endpoint, cell.agent);
      const seen = record(session);
      await session.start();
      await expectCleanEnd(harness, session, seen, { reason: cell.reason, code: cell.code, dials: cell.dials });
      expect(seen.connected).to.deep.equal([]);
      expect(seen.states).to.not.include('in-call');
      if (cell.state === before) expect(seen.states).to.not.include('connecting');
      const creates = (await faultLog()).slice(harness.logStart).filter((entry) => entry.path === '/dials');
      if (cell.endpoint.startsWith('/__fault')) {
        expect(creates.length, 'POST /dials seen').to.be.greaterThan(0);
        expect(
          new Set(creates.map((entry) => entry.key)).size,
          'every POST /dials attempt with one Idempotency-Key',
        ).to.equal(1);
      }
      if (cell.attempts !== undefined) expect(creates.length, 'POST /dials attempts').to.equal(cell.attempts);
    });
  }
});
