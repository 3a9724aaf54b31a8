// Time to talk on a real network: the same calls as bench/time-to-talk.ts, but with delay on every
// TCP leg the browser uses (the page and chunks and the companion through one page server, the
// service's GraphQL (HTTP and WebSocket), the media server's signal WebSocket) and on the
// companion's calls to the service, by small delaying proxies (bench/lib/delay-proxy.ts), at 0, 25
// and 50 ms each way. Side by side in the same run: the widget on a desktop (the pointer rests on
// the call button, then clicks), the widget on a phone (touch emulation: the card in view, then a
// tap), a hand-written page (bench/pages/hand-written.js: the service's documented browser flow in
// the obvious order) and, with BENCH_COMPARE_REF, the widget and companion of that commit.
// Browser round trips on the critical path are read from the times themselves: a run with only
// the browser's legs delayed by d, against the run with none, is slower by (round trips × 2d).
import { join } from 'node:path';
import type { Browser, Page } from 'playwright';
import { instrumentedContext, launchChromium } from './lib/browser.js';
import { startDelayProxy, targetOf, type DelayProxy } from './lib/delay-proxy.js';
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
import { fixed, median, percentile, table, type BenchSection } from './lib/stats.js';

/** How long the visitor dwells before the click or tap (the pointer on the button; the card in view). */
const DWELL_MS = 250;
/** Issue 31's targets at 50 ms each way: widget ÷ hand-written page. */
const TARGET_AUDIO = 0.7;
const TARGET_TRIPS = 0.5;

type Kind = 'hand' | 'desktop' | 'phone' | 'before-desktop' | 'before-phone';
const KIND_LABEL: Record<Kind, string> = {
  hand: 'hand-written page',
  desktop: 'widget, desktop (pointer rests, click)',
  phone: 'widget, phone (touch emulation: card in view, tap)',
  'before-desktop': 'widget before, desktop',
  'before-phone': 'widget before, phone',
};

interface Network {
  label: string;
  browserMs: number;
  serviceMs: number;
}
const NETWORKS: Network[] = [
  { label: '0 ms', browserMs: 0, serviceMs: 0 },
  { label: '25 ms each way', browserMs: 25, serviceMs: 25 },
  { label: '50 ms each way', browserMs: 50, serviceMs: 50 },
  { label: '50 ms each way, browser legs only', browserMs: 50, serviceMs: 0 },
];

const PHONE = { hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 }, deviceScaleFactor: 3 };

/** Waits for the first agent audio (or an early end); returns click → first audio in ms. */
async function untilFirstAudio(page: Page): Promise<number> {
  await page.waitForFunction('"firstAudio" in window.__bench.marks || "ended" in window.__bench.marks', null, {
    timeout: 60000,
  });
  const { audio, ended } = (await page.evaluate(
    '({ audio: window.__bench.marks.firstAudio - window.__bench.marks.click, ended: window.__bench.endReason ?? null })',
  )) as { audio: number; ended: string | null };
  if (ended || !Number.isFinite(audio)) throw new Error(`the call ended before first audio: ${ended ?? 'no audio'}`);
  return audio;
}

async function widgetCall(page: Page, phone: boolean, src: string, endpoint: string): Promise<number> {
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
  if (phone) await page.tap(button);
  else await page.click(button);
  const audio = await untilFirstAudio(page);
  await page.evaluate('document.querySelector("voice-agent-call").hangup()');
  await page.waitForFunction('"ended" in window.__bench.marks', null, { timeout: 30000 });
  return audio;
}

async function handCall(page: Page): Promise<number> {
  await page.goto('/bench/pages/hand-written.html');
  await page.waitForFunction('window.handReady === true');
  await page.waitForTimeout(DWELL_MS);
  await page.evaluate('window.__bench.reset()');
  await page.click('#call');
  const audio = await untilFirstAudio(page);
  await page.evaluate('window.handHangup()');
  return audio;
}

export async function networkTalk(options: { calls?: number; before?: RefTree } = {}): Promise<BenchSection> {
  const calls = options.calls ?? 5;
  const { before } = options;
  if (before) buildCdn(before);
  const kinds: Kind[] = ['hand', 'desktop', 'phone', ...(before ? (['before-desktop', 'before-phone'] as const) : [])];

  const closers: Array<() => Promise<void>> = [];
  const samples = new Map<string, number[]>();
  const failures: string[] = [];
  let browser: Browser | null = null;
  try {
    const emulator = await startChild<EmulatorReady & { graphqlUrl: string }>('src/emulator/cli.ts', ['--port', '0']);
    closers.push(() => stopChild(emulator.child));
    // The service's REST API as the companion reaches it; its GraphQL API (HTTP and WebSocket), which the
    // browser uses and the companion too (one browserDialToken per call); the media server's signal.
    const service = await startDelayProxy(targetOf(emulator.ready.apiUrl));
    const graphql = await startDelayProxy(targetOf(emulator.ready.apiUrl));
    const media = await startDelayProxy(targetOf(emulator.ready.mediaUrl));
    closers.push(
      () => service.close(),
      () => graphql.close(),
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
    const site = await startDelayProxy(targetOf(pages.origin));
    closers.push(() => site.close());
    const origin = `http://${site.host}`;
    const env = {
      ...companionEnv(emulator.ready, origin),
      VOICE_AGENT_BASE_URL: `http://${service.host}`,
      VOICE_AGENT_GRAPHQL_URL: `http://${graphql.host}/query`,
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
    const browserLegs: DelayProxy[] = [site, graphql, media];

    browser = await launchChromium();
    for (const network of NETWORKS) {
      for (const proxy of browserLegs) proxy.delayMs = network.browserMs;
      service.delayMs = network.serviceMs;
      for (let i = network === NETWORKS[0] ? -1 : 0; i < calls; i++) {
        for (const kind of i % 2 === 0 ? kinds : [...kinds].reverse()) {
          const phone = kind.endsWith('phone');
          const context = await instrumentedContext(browser, origin, phone ? PHONE : {});
          const page = await context.newPage();
          try {
            const audio =
              kind === 'hand'
                ? await handCall(page)
                : kind.startsWith('before')
                  ? await widgetCall(page, phone, '/before/dist/cdn/voice-agent-call.js', '/api/voice-call-before')
                  : await widgetCall(page, phone, '/dist/cdn/voice-agent-call.js', '/api/voice-call');
            if (i >= 0)
              samples.set(`${network.label}|${kind}`, [...(samples.get(`${network.label}|${kind}`) ?? []), audio]);
          } catch (error) {
            failures.push(
              `${network.label} ${kind} #${i + 1}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
            );
          } finally {
            await context.close();
          }
        }
        process.stderr.write(`network time to talk: ${network.label} ${i + 1}/${calls}\r`);
      }
    }
  } finally {
    await browser?.close();
    for (const close of closers.reverse()) await close().catch(() => undefined);
  }
  process.stderr.write('\n');

  const of = (network: Network, kind: Kind) => samples.get(`${network.label}|${kind}`) ?? [];
  const med = (network: Network, kind: Kind) => median(of(network, kind));
  const [zero, , fifty, browserOnly] = NETWORKS as [Network, Network, Network, Network];
  /**
   * Round trips on the critical path: the time the delay added, over one round trip of it. With the
   * browser's legs only, less the one the companion's browserDialToken makes on the GraphQL leg
   * (every page waits for exactly one: the widget in the create, the others in the token route).
   */
  const trips = (network: Network, kind: Kind) =>
    (med(network, kind) - med(zero, kind)) / (2 * Math.max(network.browserMs, network.serviceMs)) -
    (network.serviceMs === 0 ? 1 : 0);

  const rows = NETWORKS.flatMap((network) =>
    kinds.map((kind) => {
      const values = of(network, kind);
      return [
        network.label,
        KIND_LABEL[kind],
        fixed(median(values)),
        fixed(percentile(values, 95)),
        String(values.length),
        network === zero ? '—' : fixed(trips(network, kind), 1),
        kind === 'hand' ? '—' : fixed(median(values) / med(network, 'hand'), 2),
      ];
    }),
  );
  const audioRatio = med(fifty, 'desktop') / med(fifty, 'hand');
  const phoneRatio = med(fifty, 'phone') / med(fifty, 'hand');
  const tripRatio = trips(browserOnly, 'desktop') / trips(browserOnly, 'hand');
  const was = (kind: Kind, value: (k: Kind) => string) =>
    before && kind !== 'hand' ? ` (before: ${value(`before-${kind}` as Kind)})` : '';
  const verdict = (ratio: number, limit: number) => (ratio <= limit ? 'met' : `missed by ${fixed(ratio - limit, 2)}`);

  const markdown = [
    `${calls} calls of each kind per network on \`emu-quick\`, alternating in order, each in a fresh Chromium context (cold HTTP cache: the page, the CDN entry, the chunks and livekit-client are fetched through the delayed leg), after one unmeasured round. Delay is added by small TCP proxies (\`bench/lib/delay-proxy.ts\`: each chunk waits the delay each way, and a new connection one round trip before its first byte) on every TCP leg the browser uses: the page server (the page, its scripts and chunks, and the companion at \`/api/voice-call\`, same origin), the service's GraphQL API (the browser's, over HTTP and WebSocket, and the companion's \`browserDialToken\`), the service's REST API (the companion's calls) and the media server's signal WebSocket; the WebRTC media itself (UDP, loopback) is not delayed. Times are click (or tap) → first agent audio, ms. *Desktop*: the default \`preload="intent"\`, the pointer rests on the call button ${DWELL_MS} ms, then clicks. *Phone*: touch emulation (Playwright \`hasTouch\`, \`isMobile\`, 390 × 844): the card is in view for ${DWELL_MS} ms, then a tap. *Hand-written page*: \`bench/pages/hand-written.js\`, livekit-client loaded with the page, the service's documented browser flow in the obvious order: microphone (in the click), create, token, GraphQL session (\`connection_init\`, \`ConnectSession\`), room join and microphone published, \`startDialSession\` on \`GLOBAL_CALL_CONNECT\`. ${before ? `*Before*: the widget (CDN build) and companion of commit ${before.commit}, same network, same run. ` : ''}"Round trips" is the time the delay added over the undelayed run, divided by one round trip of the delay: on the browser-legs-only row, the browser's round trips on the critical path (the companion's REST calls undelayed, and the one \`browserDialToken\` call it makes on the shared GraphQL leg taken off); on the others, those plus the companion's.` +
      (failures.length ? ` Failed calls (left out): ${failures.join('; ')}.` : ''),
    '',
    table(['network', 'page', 'median', 'p95', 'n', 'round trips', '÷ hand-written'], rows, 2),
  ].join('\n');

  const show = (ratio: number) => fixed(ratio, 2);
  return {
    title: 'Time to talk on a real network',
    markdown,
    headline: [
      {
        id: 'net-audio',
        metric: `widget (desktop) ÷ hand-written page, click → first agent audio, 50 ms each way`,
        measured: `${show(audioRatio)} (${fixed(med(fifty, 'desktop'))} / ${fixed(med(fifty, 'hand'))} ms)${was('desktop', (k) => show(med(fifty, k) / med(fifty, 'hand')))}`,
        target: `≤ ${TARGET_AUDIO}`,
        verdict: verdict(audioRatio, TARGET_AUDIO),
      },
      {
        id: 'net-phone',
        metric: `widget (phone, touch emulation) ÷ hand-written page, tap → first agent audio, 50 ms each way`,
        measured: `${show(phoneRatio)} (${fixed(med(fifty, 'phone'))} ms)${was('phone', (k) => `${show(med(fifty, k) / med(fifty, 'hand'))}, ${fixed(med(fifty, k))} ms`)}`,
        target: '—',
        verdict: '—',
      },
      {
        id: 'net-trips',
        metric: 'browser round trips on the critical path, widget (desktop) ÷ hand-written page, 50 ms',
        measured: `${show(tripRatio)} (${fixed(trips(browserOnly, 'desktop'), 1)} / ${fixed(trips(browserOnly, 'hand'), 1)})${was('desktop', (k) => fixed(trips(browserOnly, k), 1))}`,
        target: `≤ ${TARGET_TRIPS}`,
        verdict: verdict(tripRatio, TARGET_TRIPS),
      },
    ],
  };
}
