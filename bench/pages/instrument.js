// Injected before any page script (playwright addInitScript): timestamps the steps of a call as a
// user would notice them, without touching the widget: the click, the microphone grant, the
// companion answers, the media transport, the first agent audio that is not silence. It also keeps
// a weak reference to every MediaStreamTrack and RTCPeerConnection the page makes, to count
// leftovers without keeping them alive (strong references would show up as heap growth).
(() => {
  const marks = {};
  const trackRefs = [];
  const pcRefs = [];
  const alive = (refs) => refs.map((ref) => ref.deref()).filter((value) => value !== undefined);
  const mark = (name) => {
    if (!(name in marks)) marks[name] = performance.now();
  };
  window.__bench = {
    marks,
    get tracks() {
      return alive(trackRefs);
    },
    get pcs() {
      return alive(pcRefs);
    },
    mark,
    reset() {
      for (const key of Object.keys(marks)) delete marks[key];
    },
  };
  window.addEventListener('click', () => mark('click'), true);

  // A first visit's permission prompt: with `window.__bench.promptMs` set, getUserMedia resolves that
  // long after it was asked (the time a person needs to read the prompt and click Allow), and until
  // then the Permissions API answers `prompt` for the microphone, as it does before the first grant.
  const devices = navigator.mediaDevices;
  const getUserMedia = devices.getUserMedia.bind(devices);
  let prompting = false;
  const permissions = navigator.permissions;
  const query = permissions.query.bind(permissions);
  permissions.query = async (descriptor) => {
    const status = await query(descriptor);
    if (descriptor?.name !== 'microphone' || !(window.__bench.promptMs > 0) || !prompting) return status;
    return Object.assign(Object.create(status), { state: 'prompt' });
  };
  devices.getUserMedia = async (constraints) => {
    if (window.__bench.promptMs > 0) {
      prompting = true;
      await new Promise((resolve) => setTimeout(resolve, window.__bench.promptMs));
      prompting = false;
    }
    const stream = await getUserMedia(constraints);
    mark('micGranted');
    for (const track of stream.getTracks()) trackRefs.push(new WeakRef(track));
    return stream;
  };

  const realFetch = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const response = await realFetch(input, init);
    if (/\/dials$/.test(url)) mark('dialCreated');
    else if (/\/token$/.test(url)) mark('token');
    return response;
  };

  let polling = 0;
  const pollAudio = () => {
    if (polling) return;
    polling = setInterval(async () => {
      for (const pc of window.__bench.pcs) {
        if (pc.connectionState === 'closed') continue;
        const stats = await pc.getStats().catch(() => null);
        if (!stats) continue;
        for (const report of stats.values()) {
          if (report.type === 'inbound-rtp' && report.kind === 'audio' && report.totalAudioEnergy > 0)
            mark('firstAudio');
        }
      }
      if ('firstAudio' in marks) {
        clearInterval(polling);
        polling = 0;
      }
    }, 10);
  };
  window.__bench.pollAudio = pollAudio;

  const RealPC = window.RTCPeerConnection;
  class BenchPeerConnection extends RealPC {
    constructor(...args) {
      super(...args);
      pcRefs.push(new WeakRef(this));
      this.addEventListener('connectionstatechange', () => {
        if (this.connectionState === 'connected') mark('roomConnected');
      });
      this.addEventListener('track', (event) => trackRefs.push(new WeakRef(event.track)));
      pollAudio();
    }
  }
  window.RTCPeerConnection = BenchPeerConnection;

  // The room's join reaching the network: the media server's signal WebSocket (`/rtc`) is made,
  // after livekit-client's own steps before it (its peer connection, the offer sent with the join).
  const RealWebSocket = window.WebSocket;
  window.WebSocket = class BenchWebSocket extends RealWebSocket {
    constructor(url, protocols) {
      super(url, protocols);
      if (new URL(String(url), location.href).pathname.includes('/rtc')) mark('signalOpened');
    }
  };
})();
