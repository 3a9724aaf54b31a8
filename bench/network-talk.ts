// Time to talk on a real network: the same calls as bench/time-to-talk.ts, but with delay on every
// TCP leg the browser uses (the page and chunks and the companion through one page server, the
// service's GraphQL (HTTP and WebSocket), the media server's signal WebSocket) and on the
// companion's calls to the service, by small delaying proxies (bench/lib/delay-proxy.ts), at 0, 25
// and 50 ms each way. Side by side in the same run: the widget on a desktop (the pointer rests on
// the call button, then clicks), the widget on a phone (touch emulation: the card in view, then a
// tap), a hand-written page (bench/pages/hand-written.js: the service's documented browser flow in
// the obvious order) and, with BENCH_COMPARE_REF, the widget and companion of that commit.
// Browser round trips on the critical path are counted: the proxies record every round trip on the
// browser's legs, and each call's chain of them from the click to the first agent audio is its
// count (bench/lib/delay-proxy.ts criticalPath). The older figure, inferred from the times (a run
// with the browser's legs delayed by d, against the run with none, is slower by round trips × 2d),
// stays beside it as a cross-check.
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright';
import { freshProfile, instrumentedContext, launchChromium } from './lib/browser.js';
import {
  criticalPath,
  fromBrowser,
  startDelayProxy,
  targetOf,
  type DelayProxy,
  type Exchange,
} from './lib/delay-proxy.js';
import type { RefTree } from './lib/git-ref.js';
import {
  buildCdn,
  companionEnv,
  startChild,
  startStaticServer,
  stopChild,
  type Child,
  type EmulatorReady,
} from './lib/services.js';
import { byRound, fixed, iqr, median, percentile, table, withSpread, type BenchSection } from './lib/stats.js';

/** How long the visitor dwells before the click or tap (the pointer on the button; the card in view). */
const DWELL_MS = 250;
/** Issue 42's targets at 50 ms each way: widget ÷ hand-written page (issue 31's were 0.7 and 0.5). */
const TARGET_AUDIO = 0.65;
const TARGET_TRIPS = 0.5;

export type Kind = 'hand' | 'desktop' | 'phone' | 'before-desktop' | 'before-phone';
const KIND_LABEL: Record<Kind, string> = {
  hand: 'hand-written page',
  desktop: 'widget, desktop (pointer rests, click)',
  phone: 'widget, phone (touch emulation: card in view, tap)',
  'before-desktop': 'widget before, desktop',
  'before-phone': 'widget before, phone',
};

/**
 * `share`: the part of the calls (BENCH_NET_CALLS) this network gets: the targets are read at 50 ms
 * each way, which gets them all (and the phone); the others are context and the inferred cross-check.
 */
interface Network {
  label: string;
  browserMs: number;
  serviceMs: number;
  share: number;
  phone: boolean;
}
const NETWORKS: Network[] = [
  { label: '0 ms', browserMs: 0, serviceMs: 0, share: 1 / 3, phone: false },
  { label: '25 ms each way', browserMs: 25, serviceMs: 25, share: 1 / 3, phone: false },
  { label: '50 ms each way', browserMs: 50, serviceMs: 50, share: 1, phone: true },
  { label: '50 ms each way, browser legs only', browserMs: 50, serviceMs: 0, share: 1 / 3, phone: false },
];

const PHONE = { hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 }, deviceScaleFactor: 3 };

/** One call as the bench saw it: click → first audio (ms), and both moments on the wall clock (epoch ms). */
interface CallTimes {
  audio: number;
  click: number;
  firstAudio: number;
}

/** Waits for the first agent audio (or an early end); returns its times. */
async function untilFirstAudio(page: Page): Promise<CallTimes> {
  await page.waitForFunction('"firstAudio" in window.__bench.marks || "ended" in window.__bench.marks', null, {
    timeout: 60000,
  });
  const times = (await page.evaluate(`(() => {
    const m = window.__bench.marks;
    return { audio: m.firstAudio - m.click, click: performance.timeOrigin + m.click,
      firstAudio: performance.timeOrigin + m.firstAudio, ended: window.__bench.endReason ?? null };
  })()`)) as CallTimes & { ended: string | null };
  if (times.ended || !Number.isFinite(times.audio))
    throw new Error(`the call ended before first audio: ${times.ended ?? 'no audio'}`);
  return { audio: times.audio, click: times.click, firstAudio: times.firstAudio };
}

/**
 * The order of one round's calls. A call through a companion that served the call just before finds
 * its upstream connections to the (delayed) service warm, so every widget kind must follow a call
 * through its own companion in as many rounds as it follows one through the other's. Alternating an
 * order with its reverse does that for three kinds. With the phone's two (five kinds, two companions),
 * it left desktop and before-phone always warm and phone and before-desktop cold in every other
 * round: the faster row of each pair was always the warm one, whichever tree was newer. These two
 * orders give each of the four widget kinds one round of each.
 */
export function roundOrder(here: Kind[], round: number): Kind[] {
  const even = round % 2 === 0;
  if (!here.some((kind) => kind.endsWith('phone'))) return even ? here : [...here].reverse();
  const order: Kind[] = even
    ? ['hand', 'desktop', 'phone', 'before-desktop', 'before-phone']
    : ['desktop', 'hand', 'before-phone', 'before-desktop', 'phone'];
  return order.filter((kind) => here.includes(kind));
}

async function widgetCall(
  page: Page,
  phone: boolean,
  src: string,
  endpoint: string,
  beforeClick: () => void,
): Promise<CallTimes> {
  await page.goto(
    `/bench/pages/widget-at.html?src=${encodeURIComponent(src)}&endpoint=${encodeURIComponent(endpoint)}`,
  );
  await page.waitForFunction('customElements.get("voice-agent-call") !== undefined');
  await page.evaluate(`document.querySelector('voice-agent-call').addEventListener('call-ended', (event) => {
    window.__bench.mark('ended'); window.__bench.endReason = event.detail.reason; })`);
  const button = 'voice-agent-call [part~="call-button"]';
  if (!phone) await page.hover(button);
  await page.waitForTimeout(DWELL_MS);
  await page.evaluate('window.__bench.reset()');
  beforeClick();
  if (phone) await page.tap(button);
  else await page.click(button);
  const times = await untilFirstAudio(page);
  await page.evaluate('document.querySelector("voice-agent-call").hangup()');
  await page.waitForFunction('"ended" in window.__bench.marks', null, { timeout: 30000 });
  return times;
}

async function handCall(page: Page, beforeClick: () => void): Promise<CallTimes> {
  await page.goto('/bench/pages/hand-written.html');
  await page.waitForFunction('window.handReady === true');
  await page.waitForTimeout(DWELL_MS);
  await page.evaluate('window.__bench.reset()');
  beforeClick();
  await page.click('#call');
  const times = await untilFirstAudio(page);
  await page.evaluate('window.handHangup()');
  return times;
}

/** BENCH_NET_PROFILE=normal: each call in a new normal profile, where `<link rel="preconnect">` works. */
const NORMAL_PROFILE = process.env.BENCH_NET_PROFILE === 'normal';

async function incognito(
  browser: Browser,
  origin: string,
  extra: BrowserContextOptions,
): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const context = await instrumentedContext(browser, origin, extra);
  return { context, close: () => context.close() };
}

/** One measured call: its time, and the browser round trips counted on its critical path (delayed networks). */
interface Sample {
  round: number;
  audio: number;
  path: Exchange[] | null;
}

export async function networkTalk(options: { calls?: number; before?: RefTree } = {}): Promise<BenchSection> {
  const calls = options.calls ?? 10;
  const { before } = options;
  if (before) buildCdn(before);
  const kinds: Kind[] = ['hand', 'desktop', 'phone', ...(before ? (['before-desktop', 'before-phone'] as const) : [])];

  const closers: Array<() => Promise<void>> = [];
  // Each call's browser: a context of one Chromium (incognito, the default), or with
  // BENCH_NET_PROFILE=normal a Chromium of its own with a new profile (bench/lib/browser.ts).
  const browser: Browser | null = NORMAL_PROFILE ? null : await launchChromium();
  if (browser) closers.push(() => browser.close());
  const samples = new Map<string, Sample[]>();
  const failures: string[] = [];
  try {
    const emulator = await startChild<EmulatorReady & { graphqlUrl: string }>('src/emulator/cli.ts', ['--port', '0']);
    closers.push(() => stopChild(emulator.child));
    // The service, at one origin as the real one is (its REST API and, at /query, its GraphQL API,
    // over HTTP and WebSocket), and the media server's signal. The browser's GraphQL requests and
    // sockets and the companion's calls (the REST dial calls, browserDialToken) share the service's
    // leg as on a real network, where the companion's GraphQL call may reuse its REST connection:
    // the companion's connections, known by their first request, get the service's delay
    // (`serviceDelay`) and are not the browser's round trips.
    let serviceDelay = 0;
    const service = await startDelayProxy(targetOf(emulator.ready.apiUrl), 0, 'GraphQL', {
      from: fromBrowser,
      delayMs: () => serviceDelay,
    });
    const media = await startDelayProxy(targetOf(emulator.ready.mediaUrl), 0, 'signal');
    closers.push(
      () => service.close(),
      () => media.close(),
    );
    let companionUrl = '';
    let beforeUrl = '';
    const pages = await startStaticServer(
      () => companionUrl,
      before ? { root: before.root, companion: () => beforeUrl } : undefined,
    );
    closers.push(() => pages.close());
    // The page, its chunks and the companion (same origin, as a site serves them) through one delayed leg.
    const site = await startDelayProxy(targetOf(pages.origin), 0, 'page server');
    closers.push(() => site.close());
    const origin = `http://${site.host}`;
    const env = {
      ...companionEnv(emulator.ready, origin),
      VOICE_AGENT_BASE_URL: `http://${service.host}`,
      VOICE_AGENT_GRAPHQL_URL: `http://${service.host}/query`,
      VOICE_AGENT_MEDIA_URL: `ws://${media.host}`,
    };
    const companion: Child<{ url: string }> = await startChild('src/server/cli.ts', [], env);
    closers.push(() => stopChild(companion.child));
    companionUrl = companion.ready.url;
    if (before) {
      const old: Child<{ url: string }> = await startChild(join(before.root, 'src/server/cli.ts'), [], env);
      closers.push(() => stopChild(old.child));
      beforeUrl = old.ready.url;
    }
    const browserLegs: DelayProxy[] = [site, service, media];

    for (const network of NETWORKS) {
      for (const proxy of browserLegs) proxy.delayMs = network.browserMs;
      serviceDelay = network.serviceMs;
      const rounds = Math.max(2, Math.round(calls * network.share));
      const here = kinds.filter((kind) => network.phone || !kind.endsWith('phone'));
      for (let i = network === NETWORKS[0] ? -1 : 0; i < rounds; i++) {
        for (const kind of roundOrder(here, i)) {
          const phone = kind.endsWith('phone');
          // BENCH_NET_PROFILE=normal: a first visit in a normal window, a new profile each call (an
          // incognito context, the default, ignores the widget's `<link rel="preconnect">`).
          const { context, close } = browser
            ? await incognito(browser, origin, phone ? PHONE : {})
            : await freshProfile(origin, phone ? PHONE : {});
          const page = await context.newPage();
          // The browser's round trips from the click on (those the hover started before it are not counted).
          const record = () => {
            for (const proxy of browserLegs) {
              proxy.exchanges = [];
              proxy.recording = network.browserMs > 0;
            }
          };
          try {
            const times =
              kind === 'hand'
                ? await handCall(page, record)
                : kind.startsWith('before')
                  ? await widgetCall(
                      page,
                      phone,
                      '/before/dist/cdn/voice-agent-call.js',
                      '/api/voice-call-before',
                      record,
                    )
                  : await widgetCall(page, phone, '/dist/cdn/voice-agent-call.js', '/api/voice-call', record);
            const path =
              network.browserMs > 0
                ? // The agent's audio comes over WebRTC, which the bench does not delay: on a real network it
                  // would arrive one delay later, as the answer the server sent with it does here.
                  criticalPath(
                    browserLegs.flatMap((proxy) => proxy.exchanges),
                    times.click,
                    times.firstAudio + network.browserMs,
                  )
                : null;
            if (i >= 0) {
              const key = `${network.label}|${kind}`;
              samples.set(key, [...(samples.get(key) ?? []), { round: i, audio: times.audio, path }]);
            }
          } catch (error) {
            failures.push(
              `${network.label} ${kind} #${i + 1}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
            );
          } finally {
            for (const proxy of browserLegs) proxy.recording = false;
            await close();
          }
        }
        process.stderr.write(`network time to talk: ${network.label} ${i + 1}/${rounds}\r`);
      }
    }
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
  }
  process.stderr.write('\n');

  const of = (network: Network, kind: Kind) => samples.get(`${network.label}|${kind}`) ?? [];
  const audios = (network: Network, kind: Kind) => of(network, kind).map((sample) => sample.audio);
  const med = (network: Network, kind: Kind) => median(audios(network, kind));
  const [zero, , fifty, browserOnly] = NETWORKS as [Network, Network, Network, Network];
  /** Counted: the browser's round trips on each call's critical path (an integer per call). */
  const counts = (network: Network, kind: Kind) =>
    of(network, kind).flatMap((sample) => (sample.path ? [sample.path.length] : []));
  /** Inferred (the cross-check): the time the delay added, over one round trip of it. */
  const inferred = (network: Network, kind: Kind) =>
    (med(network, kind) - med(zero, kind)) / (2 * Math.max(network.browserMs, network.serviceMs));
  /** Each call's time over the hand-written page's call of the same round (run next to it, under the same load). */
  const paired = (network: Network, kind: Kind) =>
    byRound(
      of(network, kind),
      (sample) => sample.audio,
      of(network, 'hand'),
      (sample) => sample.audio,
      (audio, hand) => audio / hand,
    );
  /** The critical path of the call whose count is nearest the median, as `leg: what` steps. */
  const typicalPath = (network: Network, kind: Kind) => {
    const middle = median(counts(network, kind));
    const paths = of(network, kind).flatMap((sample) => (sample.path ? [sample.path] : []));
    const path = [...paths].sort((x, y) => Math.abs(x.length - middle) - Math.abs(y.length - middle))[0];
    return path ? path.map((step) => `${step.leg}: ${step.what}`).join(' → ') : '—';
  };

  const rows = NETWORKS.flatMap((network) =>
    kinds.flatMap((kind) => {
      if (!network.phone && kind.endsWith('phone')) return [];
      const values = audios(network, kind);
      return [
        [
          network.label,
          KIND_LABEL[kind],
          withSpread(values, 0),
          fixed(percentile(values, 95), 0),
          String(values.length),
          network.browserMs > 0 ? withSpread(counts(network, kind), 1) : '—',
          network === zero ? '—' : fixed(inferred(network, kind), 1),
          kind === 'hand' ? '—' : withSpread(paired(network, kind), 2),
        ],
      ];
    }),
  );
  const pathRows = [fifty, browserOnly].flatMap((network) =>
    kinds
      .filter((kind) => network.phone || !kind.endsWith('phone'))
      .map((kind) => [
        network.label,
        KIND_LABEL[kind],
        fixed(median(counts(network, kind)), 1),
        typicalPath(network, kind),
      ]),
  );
  const audioRatios = paired(fifty, 'desktop');
  const audioRatio = median(audioRatios);
  const phoneRatio = median(paired(fifty, 'phone'));
  const widgetTrips = median(counts(fifty, 'desktop'));
  const handTrips = median(counts(fifty, 'hand'));
  const tripRatio = widgetTrips / handTrips;
  const was = (kind: Kind, value: (k: Kind) => string) =>
    before && kind !== 'hand' ? `; before: ${value(`before-${kind}` as Kind)}` : '';
  const verdict = (ratio: number, limit: number) => (ratio <= limit ? 'met' : `missed by ${fixed(ratio - limit, 2)}`);
  const iqrText = (values: number[], digits = 2) => {
    const [low, high] = iqr(values);
    return `IQR ${fixed(low, digits)}–${fixed(high, digits)}`;
  };

  const markdown = [
    `${calls} calls of each kind at 50 ms each way (the targets' network) and ${Math.max(2, Math.round(calls / 3))} on each other network (the phone only at 50 ms each way), on \`emu-quick\`, in two alternating orders (each widget kind follows a call through its own companion, whose upstream connections are then warm, in half the rounds), ${NORMAL_PROFILE ? 'each in a Chromium of its own with a new, empty profile (`BENCH_NET_PROFILE=normal`: a first visit in a normal window, cold HTTP cache, where `<link rel="preconnect">` works; measured once the new profile has settled, 1 s)' : 'each in a fresh Chromium context (cold HTTP cache: the page, the CDN entry, the chunks and livekit-client are fetched through the delayed leg; an incognito context, where Chromium ignores `<link rel="preconnect">`, so the connections the widget warms that way are opened when first used, as in a visitor\'s incognito window; `BENCH_NET_PROFILE=normal` runs each call in a new normal profile instead)'}, after one unmeasured round. Delay is added by small TCP proxies (\`bench/lib/delay-proxy.ts\`: each chunk waits the delay each way, and a new connection one round trip before its first byte) on every TCP leg the browser uses: the page server (the page, its scripts and chunks, and the companion at \`/api/voice-call\`, same origin), the service (one origin, as the real service's: the browser's GraphQL requests and WebSocket, and the companion's calls, its REST dial calls and \`browserDialToken\`, whose connections, told apart by their first request's \`User-Agent\`, get the service's delay and are not the browser's round trips) and the media server's signal WebSocket; the WebRTC media itself (UDP, loopback) is not delayed. Times are click (or tap) → first agent audio, ms. *Desktop*: the default \`preload="intent"\`, the pointer rests on the call button ${DWELL_MS} ms, then clicks. *Phone*: touch emulation (Playwright \`hasTouch\`, \`isMobile\`, 390 × 844): the card is in view for ${DWELL_MS} ms, then a tap. *Hand-written page*: \`bench/pages/hand-written.js\`, livekit-client loaded with the page, the service's documented browser flow in the obvious order: microphone (in the click), create, token, GraphQL session (\`connection_init\`, \`ConnectSession\`), room join and microphone published, \`startDialSession\` on \`GLOBAL_CALL_CONNECT\`. ${before ? `*Before*: the widget (CDN build) and companion of commit ${before.commit}, same network, same run. ` : ''}Each figure is the median with its interquartile range (the middle half of the calls) in brackets. "÷ hand-written" is each call's time over the hand-written page's call of the same round (run next to it, under the same load): the median of those ratios and their IQR. *Round trips, counted*: the delaying proxies on the browser's legs (page server, GraphQL, signal) record every round trip the browser makes after the click: each new connection (its handshake) and each turn on a connection (a request, or a WebSocket message the protocol answers, to the first answer after it: on the signal socket each binary frame is decoded as a LiveKit \`SignalRequest\`, and only \`offer\`, \`addTrack\`, \`ping\`, \`pingReq\` and \`updateMetadata\` are answered, so an ICE candidate sent one way is no round trip), with its start and end as the browser sees them; the critical path to the first agent audio is the chain walked back from the first audio, each step the round trip that ended last before the next one started (so each started after the previous ended), and its length is the call's count (an integer; the median and IQR over the calls). The companion's own service calls are inside the browser's request that waits for them and are not counted. Round trips started before the click (the hover's prefetch, the page load) are not counted. *Inferred (cross-check)*: the older figure, the time the delay added over the undelayed run divided by one round trip of the delay; it moves with the load and can go negative, the count does not.` +
      (failures.length ? ` Failed calls (left out): ${failures.join('; ')}.` : ''),
    '',
    table(
      [
        'network',
        'page',
        'ms: median (IQR)',
        'p95',
        'n',
        'round trips, counted: median (IQR)',
        'inferred (cross-check)',
        '÷ hand-written: median (IQR)',
      ],
      rows,
      2,
    ),
    '',
    "What lies on the critical path (the call whose count is nearest the median), in order; each step one round trip the browser waited for, `leg: what` (the page server's leg carries the page, the chunks and the companion):",
    '',
    table(['network', 'page', 'count', 'critical path, click → first agent audio'], pathRows, 4),
  ].join('\n');

  const show = (ratio: number) => fixed(ratio, 2);
  return {
    title: 'Time to talk on a real network',
    markdown,
    headline: [
      {
        id: 'net-audio',
        metric: `widget (desktop) ÷ hand-written page, click → first agent audio, 50 ms each way (paired ratios)`,
        measured: `${show(audioRatio)}, ${iqrText(audioRatios)} (${fixed(med(fifty, 'desktop'))} / ${fixed(med(fifty, 'hand'))} ms)${was('desktop', (k) => `${show(median(paired(fifty, k)))}, ${iqrText(paired(fifty, k))}`)}`,
        target: `≤ ${TARGET_AUDIO}`,
        verdict: verdict(audioRatio, TARGET_AUDIO),
      },
      {
        id: 'net-phone',
        metric: `widget (phone, touch emulation) ÷ hand-written page, tap → first agent audio, 50 ms each way`,
        measured: `${show(phoneRatio)}, ${iqrText(paired(fifty, 'phone'))} (${fixed(med(fifty, 'phone'))} ms)${was('phone', (k) => `${show(median(paired(fifty, k)))}, ${fixed(med(fifty, k))} ms`)}`,
        target: '—',
        verdict: '—',
      },
      {
        id: 'net-trips',
        metric:
          'browser round trips on the critical path (counted), widget (desktop) ÷ hand-written page, 50 ms each way',
        measured: `${show(tripRatio)} (${fixed(widgetTrips, 1)} / ${fixed(handTrips, 1)}; widget ${iqrText(counts(fifty, 'desktop'), 1)}, page ${iqrText(counts(fifty, 'hand'), 1)})${was('desktop', (k) => `${fixed(median(counts(fifty, k)), 1)}`)}`,
        target: `≤ ${TARGET_TRIPS}`,
        verdict: verdict(tripRatio, TARGET_TRIPS),
      },
    ],
  };
}
