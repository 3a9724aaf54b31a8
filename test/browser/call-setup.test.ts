// CallSession's setup paths against a fake companion (a fetch-level fake in the page) and a
// faked microphone refusal; the same paths through the real companion are in call-e2e.test.ts.
import { expect } from '@open-wc/testing';
import { Room } from 'livekit-client';
import { CallSession } from '../../src/call/call-session.js';
import type { CallEndedEvent } from '../../src/call/events.js';
import type { CallResult, CallSessionOptions, CallState } from '../../src/call/types.js';
import { countMade } from '../support/made.js';
import { present } from '../support/present.js';
import { until } from '../support/until.js';

interface Seen {
  url: string;
  method: string;
  headers: Headers;
  body: string;
}

type Route = (request: Seen) => Response | Promise<Response>;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const realFetch = window.fetch;
const realGetUserMedia = navigator.mediaDevices.getUserMedia;
const realBeacon = navigator.sendBeacon;
let requests: Seen[] = [];
let micTracks: MediaStreamTrack[] = [];

/** Routes `/fake/...` requests to `routes` (keyed `METHOD /path`); everything else goes out for real. */
function fakeCompanion(routes: Record<string, Route>): void {
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url, location.href);
    if (!url.pathname.startsWith('/fake/')) return realFetch(input, init);
    const seen: Seen = {
      url: url.pathname,
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? init.body : '',
    };
    // The page's one `GET /service` (the GraphQL URL, asked once per page: call/media/early-socket.test.ts)
    // is answered (404, as by a companion without it) but not counted among a call's requests.
    if (seen.url !== '/fake/service') requests.push(seen);
    const route = routes[`${seen.method} ${url.pathname.slice('/fake'.length)}`];
    if (init?.signal?.aborted) throw new DOMException('aborted', 'AbortError');
    return route ? route(seen) : json(404, { error: { code: 'not_found', message: 'no such route' } });
  };
}

function record(session: CallSession) {
  const states: CallState[] = [];
  const ended: CallResult[] = [];
  const errors: Array<{ code: string; recoverable: boolean }> = [];
  session.addEventListener('call-state', (event) => states.push(event.detail.state));
  session.addEventListener('call-ended', (event: CallEndedEvent) => ended.push(event.detail));
  session.addEventListener('call-error', (event) =>
    errors.push({ code: event.detail.code, recoverable: event.detail.recoverable }),
  );
  return { states, ended, errors };
}

function newSession(options: Partial<CallSessionOptions> = {}): CallSession {
  return new CallSession({
    endpoint: '/fake',
    agent: 'emu-quick',
    requestTimeoutMs: 2000,
    resultTimeoutMs: 800,
    ...options,
  });
}

function liveMicTracks(): number {
  return micTracks.filter((track) => track.readyState === 'live').length;
}

const DIAL = { dialId: 'dial-1', handle: 'h.secret', expiresAt: '2099-01-01T00:00:00Z' };

describe('CallSession setup (fake companion)', () => {
  beforeEach(() => {
    requests = [];
    micTracks = [];
    navigator.mediaDevices.getUserMedia = async (constraints?: MediaStreamConstraints) => {
      const stream = await realGetUserMedia.call(navigator.mediaDevices, constraints);
      micTracks.push(...stream.getTracks());
      return stream;
    };
  });

  afterEach(() => {
    window.fetch = realFetch;
    navigator.mediaDevices.getUserMedia = realGetUserMedia;
    navigator.sendBeacon = realBeacon;
    expect(document.querySelectorAll('audio[data-voice-agent-audio]').length, 'audio elements left').to.equal(0);
  });

  /** A call whose microphone request the browser refuses with `name`. */
  async function refusedMicrophone(message: string, name: string) {
    fakeCompanion({ 'POST /dials': () => json(200, DIAL) });
    navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException(message, name));
    const session = newSession();
    const seen = record(session);
    await session.start();
    return { session, seen };
  }

  it('microphone denied: ends microphone-denied and creates no dial', async () => {
    const { session, seen } = await refusedMicrophone('Permission denied', 'NotAllowedError');
    expect(seen.states).to.deep.equal(['starting', 'ending', 'ended']);
    expect(seen.ended).to.have.length(1);
    expect(seen.ended[0]).to.include({ reason: 'microphone-denied', dialId: null });
    expect(seen.errors).to.deep.equal([{ code: 'microphone_denied', recoverable: false }]);
    expect(requests).to.deep.equal([]);
    expect(session.state).to.equal('ended');
  });

  it('no microphone device: ends microphone-unavailable and creates no dial', async () => {
    const { seen } = await refusedMicrophone('Requested device not found', 'NotFoundError');
    expect(seen.ended.map((r) => r.reason)).to.deep.equal(['microphone-unavailable']);
    expect(requests).to.deep.equal([]);
  });

  it('asks for the microphone synchronously inside start(), with voice processing on', async () => {
    fakeCompanion({ 'POST /dials': () => json(400, { error: { code: 'invalid_request', message: 'nope' } }) });
    let asked: MediaStreamConstraints | undefined;
    navigator.mediaDevices.getUserMedia = (constraints?: MediaStreamConstraints) => {
      asked = constraints;
      return Promise.reject(new DOMException('denied', 'NotAllowedError'));
    };
    const session = newSession();
    const started = session.start();
    expect(asked, 'getUserMedia called before start() returned').to.deep.equal({
      audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
    });
    await started;
  });

  it('companion error: setup-failed with the companion code, one retry with the same Idempotency-Key, mic released', async () => {
    fakeCompanion({
      'POST /dials': () => json(502, { error: { code: 'upstream_error', message: 'the service failed' } }),
    });
    const session = newSession({ inputs: { name: 'Ada' } });
    const seen = record(session);
    await session.start();
    expect(seen.ended).to.have.length(1);
    expect(seen.ended[0]?.reason).to.equal('setup-failed');
    expect(seen.ended[0]?.error).to.deep.equal({ code: 'upstream_error', message: 'the service failed' });
    expect(seen.errors).to.deep.equal([{ code: 'upstream_error', recoverable: true }]);
    expect(requests.map((r) => `${r.method} ${r.url}`)).to.deep.equal(['POST /fake/dials', 'POST /fake/dials']);
    const keys = requests.map((r) => r.headers.get('idempotency-key'));
    expect(keys[0])
      .to.match(/^[0-9a-f-]{36}$/)
      .and.equal(keys[1]);
    expect(JSON.parse(present(requests[0], 'the first dial request').body)).to.deep.equal({
      agent: 'emu-quick',
      inputs: { name: 'Ada' },
    });
    expect(micTracks.length).to.equal(1);
    expect(liveMicTracks()).to.equal(0);

    // A new call gets a fresh key.
    await session.start();
    expect(present(requests[2], "the new call's dial request").headers.get('idempotency-key')).to.not.equal(keys[0]);
    expect(seen.states.slice(-3)).to.deep.equal(['starting', 'ending', 'ended']);
  });

  it('hangup while the microphone prompt is open: no dial, the late microphone is released', async () => {
    fakeCompanion({ 'POST /dials': () => json(200, DIAL) });
    let grant!: () => void;
    const granted = new Promise<void>((resolve) => (grant = resolve));
    const wrapped = navigator.mediaDevices.getUserMedia;
    navigator.mediaDevices.getUserMedia = async (constraints?: MediaStreamConstraints) => {
      await granted;
      return wrapped.call(navigator.mediaDevices, constraints);
    };
    const session = newSession();
    const seen = record(session);
    const started = session.start();
    expect(session.start(), 'a second start() joins the first').to.equal(started);
    await session.hangup();
    expect(seen.ended.map((r) => [r.reason, r.dialId])).to.deep.equal([['user-hangup', null]]);
    grant();
    await started;
    await until(() => micTracks.length === 1);
    await until(() => liveMicTracks() === 0);
    expect(requests).to.deep.equal([]);
    expect(seen.ended).to.have.length(1);
  });

  it('companion rate limit (429): ends busy', async () => {
    fakeCompanion({
      'POST /dials': () =>
        json(429, { error: { code: 'rate_limited', message: 'too many calls' } }, { 'retry-after': '30' }),
    });
    const session = newSession();
    const seen = record(session);
    await session.start();
    expect(seen.ended.map((r) => r.reason)).to.deep.equal(['busy']);
    expect(requests).to.have.length(1);
  });

  it('a dial the service ended at once (token refused, record RATE_LIMITED): ends busy', async () => {
    fakeCompanion({
      'POST /dials': () => json(200, DIAL),
      'POST /dials/dial-1/token': () => json(409, { error: { code: 'dial_ended', message: 'the dial is over' } }),
      'GET /dials/dial-1': (r) => {
        expect(r.headers.get('authorization')).to.equal('Bearer h.secret');
        return json(200, { dialId: 'dial-1', status: 'failed', systemResultType: 'RATE_LIMITED', transcript: [] });
      },
    });
    const session = newSession();
    const seen = record(session);
    await session.start();
    expect(seen.ended).to.have.length(1);
    expect(seen.ended[0]).to.include({
      reason: 'busy',
      dialId: 'dial-1',
      status: 'failed',
      systemResultType: 'RATE_LIMITED',
    });
    expect(seen.errors).to.deep.equal([]);
    expect(requests.some((r) => r.url.endsWith('/hangup'))).to.equal(false);
  });

  it('companion unreachable (nothing listening): setup-failed network_error', async () => {
    const session = new CallSession({
      endpoint: 'http://127.0.0.1:9/api/voice-call',
      requestTimeoutMs: 2000,
      resultTimeoutMs: 500,
    });
    const seen = record(session);
    await session.start();
    expect(seen.ended).to.have.length(1);
    expect(seen.ended[0]?.reason).to.equal('setup-failed');
    expect(seen.ended[0]?.error?.code).to.equal('network_error');
  });

  it('hangup while the dial is being created: the dial is hung up once it is known, one call-ended', async () => {
    let answerDial!: () => void;
    const dialAnswered = new Promise<void>((resolve) => (answerDial = resolve));
    let hangups = 0;
    fakeCompanion({
      'POST /dials': async () => {
        await dialAnswered;
        return json(200, DIAL);
      },
      'POST /dials/dial-1/hangup': () => {
        hangups++;
        return json(200, { success: true });
      },
      'GET /dials/dial-1': () =>
        json(200, { dialId: 'dial-1', status: 'canceled', systemResultType: 'CANCELLED', transcript: [] }),
    });
    const session = newSession();
    const seen = record(session);
    void session.start();
    await until(() => requests.length === 1);
    const hungUp = session.hangup();
    const again = session.hangup();
    expect(session.state).to.equal('ending');
    answerDial();
    await Promise.all([hungUp, again]);
    expect(seen.ended).to.have.length(1);
    expect(seen.ended[0]).to.include({ reason: 'user-hangup', dialId: 'dial-1', status: 'canceled' });
    expect(hangups).to.equal(1);
    expect(requests.some((r) => r.url.endsWith('/token'))).to.equal(false);
    expect(liveMicTracks()).to.equal(0);
  });

  /**
   * The livekit-client Rooms the page makes (each makes its engine in its constructor, through
   * `maybeCreateEngine`, and again finds it there when it connects), the signal each one's
   * `devicechange` listener is registered with (the widget ties it to the room's release), and the
   * WebSockets the page opens (a join's signal connection).
   */
  function watchRooms() {
    const sockets = countMade('WebSocket');
    sockets.start();
    const rooms = new Set<Room>();
    const releases: AbortSignal[] = [];
    const proto = Room.prototype as unknown as { maybeCreateEngine(this: Room): void };
    const makeEngine = proto.maybeCreateEngine;
    proto.maybeCreateEngine = function (this: Room) {
      rooms.add(this);
      makeEngine.call(this);
    };
    const devices = navigator.mediaDevices;
    const add = devices.addEventListener;
    devices.addEventListener = function (this: MediaDevices, ...args: Parameters<MediaDevices['addEventListener']>) {
      const [type, , options] = args;
      if (type === 'devicechange' && typeof options === 'object' && options.signal) releases.push(options.signal);
      add.apply(this, args);
    };
    return {
      rooms,
      releases,
      sockets: sockets.made,
      restore() {
        sockets.restore();
        proto.maybeCreateEngine = makeEngine;
        devices.addEventListener = add;
      },
    };
  }

  /** A `POST /dials` route that answers `body` only once `answer()` is called. */
  function heldDial(body: unknown) {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    return {
      answer: () => answer(),
      route: async () => {
        await answered;
        return json(200, body);
      },
    };
  }

  it('the room is made while the dial is being created; a call that ends before the answer lets it go unjoined', async () => {
    const watched = watchRooms();
    try {
      const dial = heldDial(DIAL);
      fakeCompanion({
        'POST /dials': dial.route,
        'POST /dials/dial-1/hangup': () => json(200, { success: true }),
        'GET /dials/dial-1': () =>
          json(200, { dialId: 'dial-1', status: 'canceled', systemResultType: 'CANCELLED', transcript: [] }),
      });
      const session = newSession();
      const seen = record(session);
      void session.start();
      // Made while the dial's request is out: its answer then finds the room ready to join.
      await until(() => watched.rooms.size === 1, 15000, 'the room made before the dial answered');
      expect(requests.map((r) => r.url)).to.deep.equal(['/fake/dials']);
      expect(watched.releases).to.have.length(1);
      expect(watched.releases[0]?.aborted, 'released while the call goes on').to.equal(false);
      const hungUp = session.hangup();
      dial.answer();
      await hungUp;
      expect(seen.ended.map((r) => r.reason)).to.deep.equal(['user-hangup']);
      expect(watched.releases[0]?.aborted, 'the room let go of when the call ended').to.equal(true);
      expect(watched.sockets, 'no join: no signal connection').to.have.length(0);
      expect(watched.rooms.size).to.equal(1);
      expect(liveMicTracks()).to.equal(0);
    } finally {
      watched.restore();
    }
  });

  it('the dial answers: the room made before it is the one that joins', async () => {
    const watched = watchRooms();
    try {
      // Nothing listens on port 9: the join fails, as a media server that cannot be reached would.
      const dial = heldDial({ ...DIAL, media: { serverUrl: 'ws://127.0.0.1:9', participantToken: 't' } });
      fakeCompanion({
        'POST /dials': dial.route,
        'POST /dials/dial-1/hangup': () => json(200, { success: true }),
        'GET /dials/dial-1': () =>
          json(200, { dialId: 'dial-1', status: 'in-progress', systemResultType: null, transcript: [] }),
      });
      const session = newSession({ mediaConnectTimeoutMs: 2000 });
      const seen = record(session);
      void session.start();
      await until(() => watched.rooms.size === 1, 15000, 'the room made before the dial answered');
      dial.answer();
      await until(() => seen.ended.length === 1, 15000, 'call-ended');
      expect(seen.ended[0]?.reason).to.equal('setup-failed');
      expect(seen.errors.map((e) => e.code)).to.include('media_failed');
      expect(watched.rooms.size, 'one room: the prepared one joined').to.equal(1);
      expect(watched.sockets.map((socket) => new URL(socket.url).host)).to.include('127.0.0.1:9');
      expect(watched.releases[0]?.aborted, 'the room let go of when the call ended').to.equal(true);
      expect(liveMicTracks()).to.equal(0);
    } finally {
      watched.restore();
    }
  });

  it('abandon("page-unload") during setup: beacon with the handle, call-ended at once', async () => {
    let answerToken!: () => void;
    const tokenAnswered = new Promise<void>((resolve) => (answerToken = resolve));
    const beacons: Array<{ url: string; body: string }> = [];
    navigator.sendBeacon = (url: string | URL, data?: BodyInit | null) => {
      void (data as Blob).text().then((body) => beacons.push({ url: String(url), body }));
      return true;
    };
    fakeCompanion({
      'POST /dials': () => json(200, DIAL),
      'POST /dials/dial-1/token': async () => {
        await tokenAnswered;
        return json(200, { serverUrl: 'ws://127.0.0.1:9', participantToken: 't' });
      },
    });
    const session = newSession();
    const seen = record(session);
    void session.start();
    await until(() => requests.some((r) => r.url.endsWith('/token')));
    session.abandon('page-unload');
    expect(seen.ended.map((r) => [r.reason, r.dialId])).to.deep.equal([['page-unload', 'dial-1']]);
    expect(session.state).to.equal('ended');
    answerToken();
    await until(() => beacons.length === 1);
    expect(beacons[0]?.url).to.equal('/fake/dials/dial-1/hangup');
    expect(JSON.parse(present(beacons[0], 'the hang-up beacon').body)).to.deep.equal({ handle: 'h.secret' });
    session.abandon('page-unload');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen.ended).to.have.length(1);
    expect(liveMicTracks()).to.equal(0);
  });

  it('mute: only real changes fire call-mute; the raw microphone follows before media exists', async () => {
    let answerDial!: () => void;
    const dialAnswered = new Promise<void>((resolve) => (answerDial = resolve));
    fakeCompanion({
      'POST /dials': async () => {
        await dialAnswered;
        return json(500, { error: { code: 'internal', message: 'x' } });
      },
    });
    const session = newSession();
    const mutes: boolean[] = [];
    session.addEventListener('call-mute', (event) => mutes.push(event.detail.muted));
    session.setMuted(false);
    session.setMuted(true);
    session.setMuted(true);
    const started = session.start();
    // The microphone, and the dial (held): with the permission granted already (this browser grants
    // it after the file's first call) the dial goes out beside getUserMedia, so wait for both.
    await until(() => requests.length === 1 && micTracks.length === 1);
    expect(micTracks[0]?.enabled).to.equal(false);
    session.setMuted(false);
    expect(micTracks[0]?.enabled).to.equal(true);
    answerDial();
    await started;
    expect(mutes).to.deep.equal([true, false]);
    expect(session.muted).to.equal(false);
  });
});

describe('CallSession microphone refusal (real browser permission)', () => {
  it('a frame whose permissions policy refuses the microphone ends microphone-denied without a dial', async () => {
    const frame = document.createElement('iframe');
    frame.setAttribute('allow', "microphone 'none'");
    frame.srcdoc = `<script type="module">
      import { CallSession } from '/src/call/call-session.ts';
      const requests = [];
      const realFetch = window.fetch;
      window.fetch = (input, init) => { requests.push(String(input)); return realFetch(input, init); };
      const session = new CallSession({ endpoint: '/fake', agent: 'emu-quick' });
      session.addEventListener('call-ended', (event) => parent.postMessage({ reason: event.detail.reason, requests }, '*'));
      session.start();
    </script>`;
    const answer = new Promise<{ reason: string; requests: string[] }>((resolve) =>
      window.addEventListener('message', (event) => resolve(event.data), { once: true }),
    );
    document.body.append(frame);
    const { reason, requests: sent } = await answer;
    frame.remove();
    expect(reason).to.equal('microphone-denied');
    expect(sent).to.deep.equal([]);
  });
});
