// Time to talk: real Chromium against the emulator through the companion, N rounds on `emu-quick`,
// each call in a fresh browser context (cold cache: the CDN file and the lazy call and media chunks
// are fetched, as on a first visit). Every round makes each kind of widget call and the baseline (a
// bare livekit-client page: the microphone request, the two companion round trips, Room.connect),
// alternating in order, so each ratio is taken per round, between calls made under the same load;
// with BENCH_COMPARE_REF, that commit's widget and companion make the same calls in the same rounds.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Page } from 'playwright';
import { instrumentedContext, launchChromium } from './lib/browser.js';
import { esbuildMinified } from './lib/esbuild.js';
import { BENCH_CACHE, ROOT, type Services } from './lib/services.js';
import { byRound, fixed, iqr, median, table, withSpread, type BenchSection } from './lib/stats.js';

const WIDGET_STEPS = [
  'callChunkLoaded',
  'micGranted',
  'dialCreated',
  'token',
  'chunkLoaded',
  'signalOpened',
  'roomConnected',
  'agentPresent',
  'firstAudio',
  'firstTranscript',
] as const;
type WidgetStep = (typeof WIDGET_STEPS)[number];
type WidgetSample = Record<WidgetStep, number | null> & { chunkStart: number | null; callChunkStart: number | null };

interface BaselineSample {
  micMs: number;
  dialMs: number;
  tokenMs: number;
  connectMs: number;
  /** The signal WebSocket made, after the token: livekit-client's steps before the join reaches the network. */
  signalMs: number | null;
  agentMs: number | null;
  firstAudioMs: number | null;
  /** From the microphone request to the first agent audio: what the widget's click → first audio compares with. */
  totalMs: number | null;
}

const STEP_LABEL: Record<WidgetStep, string> = {
  callChunkLoaded: 'call chunk loaded (call logic, in-call UI)',
  micGranted: 'microphone granted',
  dialCreated: 'dial created',
  token: 'token route (asked only when the create answered no media credentials)',
  chunkLoaded: 'media chunk loaded',
  signalOpened: "signal socket opened (the room's join reaches the media server)",
  roomConnected: 'room connected (transport)',
  agentPresent: 'agent present (call-connected)',
  firstAudio: 'first agent audio',
  firstTranscript: 'first transcript entry',
};

/** How long the pointer rests on the call button before the click in the "hover" variant (a visitor's dwell). */
const HOVER_MS = 250;
/**
 * How long every page waits, once it is ready, before its clock starts: the hover's dwell, so no
 * page is measured while it is still busy with its own load. A page's first ~0.5 s after load is
 * slower on this machine (a call started at once took about a quarter longer, on both pages); a dwell
 * for the hover alone compared a settled widget page with a baseline still loading.
 */
const SETTLE_MS = HOVER_MS;

/** How often a call's page is checked for its first audio: the baseline page's own loop (bench/pages/baseline.js) checks every 5 ms too. */
const WATCH_MS = 5;
/** A first visit's microphone prompt: the time a person needs to read it and click Allow (both pages alike). */
const PROMPT_MS = 1500;

/** Issue 42's targets, against the baseline whose clock includes its microphone request. */
const TARGET_FIRST = 1.25;
const TARGET_HOVER = 1.0;
const TARGET_PROMPT = 1.05;
const TARGET_PREFETCHED = 1.3;
const TARGET_AGAIN = 0.8;

/** The widget's kinds of call in a round, and the baseline's; "before-…" are BENCH_COMPARE_REF's widget. */
type WidgetKind = 'first' | 'again' | 'prefetched' | 'hover' | 'prompt';
type BeforeKind = 'before-first' | 'before-hover' | 'before-prompt';
/** `baseline-lazy`: the same bare page, loading livekit-client on the click (`lazyLivekit`). */
type BaselineKind = 'baseline' | 'baseline-prompt' | 'baseline-lazy';

/** One widget call's steps (ms after the click) and the round it was made in. */
type RoundSample<T> = T & { round: number };

/** Where a widget build lives on the page server: this tree's, or BENCH_COMPARE_REF's. */
interface Build {
  src: string;
  endpoint: string;
}
const THIS_BUILD: Build = { src: '/dist/cdn/voice-agent-call.js', endpoint: '/api/voice-call' };

/**
 * `preload` "none" keeps the widget from loading the call and media chunks before the click: Playwright's
 * click moves the pointer onto the button first, which would start the intent prefetch a few ms early.
 */
async function openWidget(page: Page, agent: string, preload: 'none' | 'intent', build: Build): Promise<void> {
  await page.goto(
    `/bench/pages/widget-at.html?agent=${encodeURIComponent(agent)}&src=${encodeURIComponent(build.src)}&endpoint=${encodeURIComponent(build.endpoint)}`,
  );
  await page.waitForFunction('customElements.get("voice-agent-call") !== undefined');
  await page.evaluate(`(() => {
    const element = document.querySelector('voice-agent-call');
    element.setAttribute('preload', ${JSON.stringify(preload)});
    const bench = window.__bench;
    element.addEventListener('call-connected', () => bench.mark('agentPresent'));
    element.addEventListener('call-transcript', () => bench.mark('firstTranscript'));
    element.addEventListener('call-ended', (event) => { bench.mark('ended'); bench.endReason = event.detail.reason; });
  })()`);
}

/**
 * One call from a click on the call button to the first agent audio, transcript and call-connected;
 * then hangs up. `hoverMs`: the pointer rests on the button first; `promptMs`: the microphone prompt.
 */
async function widgetCall(page: Page, options: { hoverMs?: number; promptMs?: number } = {}): Promise<WidgetSample> {
  // The hover's dwell is this page's settle; every other page waits the same.
  if (options.hoverMs !== undefined) await page.hover('voice-agent-call [part~="call-button"]');
  await page.waitForTimeout(options.hoverMs ?? SETTLE_MS);
  await page.evaluate(`(window.__bench.reset(), window.__bench.promptMs = ${options.promptMs ?? 0})`);
  await page.click('voice-agent-call [part~="call-button"]');
  // Watched as the baseline page watches its own call: a check every 5 ms on a timer (baseline.js).
  // Playwright's default polls on every animation frame, which keeps a headless page producing
  // frames through the call: that work, on this 2-core machine, came out of the widget's time only.
  await page.waitForFunction(
    '(() => { const m = window.__bench.marks; return ("firstAudio" in m && "firstTranscript" in m && "agentPresent" in m) || "ended" in m; })()',
    null,
    { timeout: 30000, polling: WATCH_MS },
  );
  const sample = (await page.evaluate(`(() => {
    const m = window.__bench.marks;
    const after = (part) => performance.getEntriesByType('resource').find((entry) => entry.name.includes(part) && entry.startTime >= m.click);
    const chunk = after('/chunks/livekit-media-');
    const callChunk = after('/chunks/in-call-');
    const at = (value) => (value === undefined ? null : value - m.click);
    return {
      callChunkStart: callChunk ? callChunk.startTime - m.click : null, callChunkLoaded: callChunk ? callChunk.responseEnd - m.click : null,
      micGranted: at(m.micGranted), dialCreated: at(m.dialCreated), token: at(m.token),
      chunkStart: chunk ? chunk.startTime - m.click : null, chunkLoaded: chunk ? chunk.responseEnd - m.click : null,
      signalOpened: at(m.signalOpened), roomConnected: at(m.roomConnected), agentPresent: at(m.agentPresent), firstAudio: at(m.firstAudio), firstTranscript: at(m.firstTranscript),
      endedEarly: 'ended' in m ? window.__bench.endReason : null,
    };
  })()`)) as WidgetSample & { endedEarly: string | null };
  if (sample.endedEarly) throw new Error(`widget call ended before first audio + transcript: ${sample.endedEarly}`);
  await page.evaluate('(window.__bench.promptMs = 0, document.querySelector("voice-agent-call").hangup())');
  await page.waitForFunction('"ended" in window.__bench.marks', null, { timeout: 20000 });
  return sample;
}

/**
 * livekit-client as a site that loads it only on the click would ship it: what the bare page uses
 * (`Room`, `RoomEvent`) bundled and minified by esbuild into BENCH_CACHE, which the page server
 * serves. Its URL and size, or null without esbuild (the row is then left out).
 */
function lazyLivekit(): { url: string; bytes: number } | null {
  const bundle = esbuildMinified(['--bundle'], "export { Room, RoomEvent } from 'livekit-client';\n");
  if (!bundle) return null;
  mkdirSync(BENCH_CACHE, { recursive: true });
  const file = join(BENCH_CACHE, 'livekit-client.min.mjs');
  writeFileSync(file, bundle);
  return { url: `/${relative(ROOT, file)}`, bytes: bundle.length };
}

async function baselineCall(
  page: Page,
  agent: string,
  promptMs: number,
  lazyUrl: string | null = null,
): Promise<BaselineSample> {
  await page.goto(`/bench/pages/baseline.html${lazyUrl ? `?livekit=${encodeURIComponent(lazyUrl)}` : ''}`);
  await page.waitForFunction('window.baselineReady === true');
  await page.waitForTimeout(SETTLE_MS);
  await page.evaluate(`window.__bench.promptMs = ${promptMs}`);
  const sample = (await page.evaluate(`window.baselineCall(${JSON.stringify(agent)})`)) as BaselineSample;
  if (sample.firstAudioMs === null) throw new Error('baseline call: no agent audio within 20 s');
  return sample;
}

/** The one chunk of dist/cdn/chunks whose name starts with `prefix`, as the page server serves it. */
function chunkUrl(prefix: string): string {
  const chunks = readdirSync(join(ROOT, 'dist/cdn/chunks')).filter(
    (file) => file.startsWith(prefix) && file.endsWith('.js'),
  );
  if (chunks.length !== 1) throw new Error(`expected one ${prefix} chunk in dist/cdn/chunks, found ${chunks.length}`);
  return `/dist/cdn/chunks/${chunks[0]}`;
}

export async function timeToTalk(
  services: Services,
  options: { calls?: number; agent?: string } = {},
): Promise<BenchSection> {
  const calls = options.calls ?? 20;
  const agent = options.agent ?? 'emu-quick';
  const before = services.before;
  const beforeBuild: Build | null = before ? { src: before.src, endpoint: before.endpoint } : null;
  const browser = await launchChromium();
  const widget = new Map<WidgetKind | BeforeKind, Array<RoundSample<WidgetSample>>>();
  const baseline = new Map<BaselineKind, Array<RoundSample<BaselineSample>>>();
  const add = <K, T>(map: Map<K, Array<RoundSample<T>>>, kind: K, round: number, sample: T) => {
    if (round >= 0) map.set(kind, [...(map.get(kind) ?? []), { ...sample, round }]);
  };
  // What a finished prefetch gives (`preload="idle"`, or intent long enough before the click): the
  // page imports the call and media chunks (the same URLs the widget imports, so the same modules)
  // before the click.
  const prefetchUrls = [chunkUrl('in-call-'), chunkUrl('livekit-media-')];
  const lazy = lazyLivekit();
  const kinds = [
    'first',
    'prefetched',
    'hover',
    'prompt',
    'baseline',
    'baseline-prompt',
    ...(lazy ? (['baseline-lazy'] as const) : []),
    ...(beforeBuild ? (['before-first', 'before-hover', 'before-prompt'] as const) : []),
  ] as const;
  const failures: string[] = [];
  try {
    // One unmeasured round warms the emulator's voice cache and Chromium's process pool.
    for (let i = -1; i < calls; i++) {
      // "Chunks prefetched" (no target of its own) runs every other round, to keep the whole bench short.
      const here = kinds.filter((kind) => kind !== 'prefetched' || i % 2 === 0);
      for (const kind of i % 2 === 0 ? here : [...here].reverse()) {
        const context = await instrumentedContext(browser, services.origin);
        const page = await context.newPage();
        const build = kind.startsWith('before-') && beforeBuild ? beforeBuild : THIS_BUILD;
        try {
          if (kind === 'first' || kind === 'before-first') {
            await openWidget(page, agent, 'none', build);
            add(widget, kind, i, await widgetCall(page));
            // "Call again" in the same page: livekit-client is loaded, the HTTP connections warm.
            if (kind === 'first') add(widget, 'again', i, await widgetCall(page));
          } else if (kind === 'prefetched') {
            await openWidget(page, agent, 'none', build);
            await page.evaluate(
              `Promise.all(${JSON.stringify(prefetchUrls)}.map((url) => import(url))).then(() => undefined)`,
            );
            add(widget, kind, i, await widgetCall(page));
          } else if (kind === 'hover' || kind === 'before-hover') {
            // The widget's own prefetch (preload="intent", the default): the pointer rests on the call button, then clicks.
            await openWidget(page, agent, 'intent', build);
            add(widget, kind, i, await widgetCall(page, { hoverMs: HOVER_MS }));
          } else if (kind === 'prompt' || kind === 'before-prompt') {
            // A first visit: nothing prefetched (preload="none"), and the microphone prompt answered after PROMPT_MS.
            await openWidget(page, agent, 'none', build);
            add(widget, kind, i, await widgetCall(page, { promptMs: PROMPT_MS }));
          } else {
            const promptMs = kind === 'baseline-prompt' ? PROMPT_MS : 0;
            add(
              baseline,
              kind,
              i,
              await baselineCall(page, agent, promptMs, kind === 'baseline-lazy' ? lazy?.url : null),
            );
          }
        } catch (error) {
          failures.push(`${kind} #${i + 1}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
        } finally {
          await context.close();
        }
      }
      process.stderr.write(`time to talk: ${i + 1}/${calls}\r`);
    }
  } finally {
    await browser.close();
  }
  process.stderr.write('\n');

  const column = (values: Array<number | null>) => values.filter((value): value is number => value !== null);
  const samplesOf = (kind: WidgetKind | BeforeKind) => widget.get(kind) ?? [];
  const stepColumns = (kind: WidgetKind, step: WidgetStep | 'chunkStart' | 'callChunkStart') => {
    const values = column(samplesOf(kind).map((sample) => sample[step]));
    return [withSpread(values, 0), `${values.length}/${samplesOf(kind).length}`];
  };
  const stepKinds: WidgetKind[] = ['first', 'prefetched', 'hover', 'prompt', 'again'];
  const stepRow = (label: string, step: WidgetStep | 'chunkStart' | 'callChunkStart') => [
    label,
    ...stepKinds.flatMap((kind) => stepColumns(kind, step)),
  ];
  const rows: string[][] = WIDGET_STEPS.map((step) => stepRow(STEP_LABEL[step], step));
  rows.splice(4, 0, stepRow('media chunk request starts', 'chunkStart'));
  rows.unshift(stepRow('call chunk request starts', 'callChunkStart'));

  const baseOf = (kind: BaselineKind) => baseline.get(kind) ?? [];
  const baseStep = (kind: BaselineKind, step: keyof BaselineSample) =>
    column(baseOf(kind).map((sample) => sample[step]));
  const baseRows = [
    ['microphone request (getUserMedia)', 'micMs'],
    ['companion round trip 1: POST /dials', 'dialMs'],
    ['companion round trip 2: POST /dials/:id/token', 'tokenMs'],
    ['signal socket opened (after the token)', 'signalMs'],
    ['Room.connect (after the token)', 'connectMs'],
    ['agent present (after the token)', 'agentMs'],
    ['first agent audio (after the token)', 'firstAudioMs'],
    ['microphone request → first agent audio (the clock the ratios use)', 'totalMs'],
  ].map(([label, step]) => [
    label ?? '',
    withSpread(baseStep('baseline', step as keyof BaselineSample), 0),
    withSpread(baseStep('baseline-prompt', step as keyof BaselineSample), 0),
    ...(lazy ? [withSpread(baseStep('baseline-lazy', step as keyof BaselineSample), 0)] : []),
  ]);
  /** A baseline call's clock (microphone request → first audio); a zero total is no reference to divide by. */
  const totalOf = (sample: BaselineSample) => sample.totalMs || null;
  /** The bare page loading livekit-client on the click over the same page with it loaded, round by round. */
  const lazyCost = byRound(
    baseOf('baseline-lazy'),
    totalOf,
    baseOf('baseline'),
    totalOf,
    (late, loaded) => late / loaded,
  );

  /** Each call's click → first audio over its round's baseline (microphone request → first audio). */
  const paired = (kind: WidgetKind | BeforeKind, reference: BaselineKind) =>
    byRound(
      samplesOf(kind),
      (sample) => sample.firstAudio,
      baseOf(reference),
      totalOf,
      (firstAudio, total) => firstAudio / total,
    );
  const audio = (kind: WidgetKind | BeforeKind) => column(samplesOf(kind).map((sample) => sample.firstAudio));
  const iqrText = (values: number[]) => {
    const [low, high] = iqr(values);
    return `IQR ${fixed(low, 2)}–${fixed(high, 2)}`;
  };
  const verdict = (ratio: number, limit: number) => (ratio <= limit ? 'met' : `missed by ${fixed(ratio - limit, 2)}`);

  interface RatioLine {
    id: string;
    label: string;
    kind: WidgetKind;
    before: BeforeKind | null;
    reference: BaselineKind;
    /** Its target; null for a row shown without one. */
    limit: number | null;
  }
  const lines: RatioLine[] = [
    {
      id: 'ratio-audio',
      label: 'first call without prefetch (`preload="none"`)',
      kind: 'first',
      before: 'before-first',
      reference: 'baseline',
      limit: TARGET_FIRST,
    },
    {
      id: 'ratio-hover',
      label: `the widget's own prefetch (pointer on the button ${HOVER_MS} ms before the click)`,
      kind: 'hover',
      before: 'before-hover',
      reference: 'baseline',
      limit: TARGET_HOVER,
    },
    {
      id: 'ratio-prompt',
      label: `first visit, microphone prompt answered after ${fixed(PROMPT_MS / 1000, 1)} s (both pages), no prefetch`,
      kind: 'prompt',
      before: 'before-prompt',
      reference: 'baseline-prompt',
      limit: TARGET_PROMPT,
    },
    {
      id: 'ratio-prefetched',
      label: 'call and media chunks imported before the click',
      kind: 'prefetched',
      before: null,
      reference: 'baseline',
      limit: TARGET_PREFETCHED,
    },
    {
      id: 'ratio-again',
      label: 'call again in the same page (chunks loaded)',
      kind: 'again',
      before: null,
      reference: 'baseline',
      limit: TARGET_AGAIN,
    },
    // Like for like with `preload="none"`: the widget's first call over the bare page that also
    // loads livekit-client on the click. No target: it shows how much of the first call's ratio any
    // page pays for loading livekit-client late (lazyCost) and how much is the widget's own.
    ...(lazy
      ? [
          {
            id: 'ratio-audio-lazy',
            label: 'first call without prefetch, against the bare page that imports livekit-client on the click',
            kind: 'first',
            before: null,
            reference: 'baseline-lazy',
            limit: null,
          } as const,
        ]
      : []),
  ];
  const targetText = (line: RatioLine) => (line.limit === null ? '—' : `≤ ${line.limit}`);
  const verdictText = (line: RatioLine, ratios: number[]) =>
    line.limit === null ? '—' : verdict(median(ratios), line.limit);
  const ratioRows = lines.flatMap((line) => {
    const ratios = paired(line.kind, line.reference);
    const row = [
      line.label,
      withSpread(audio(line.kind), 0),
      withSpread(column(baseOf(line.reference).map((sample) => sample.totalMs)), 0),
      withSpread(ratios, 2),
      targetText(line),
      verdictText(line, ratios),
    ];
    if (!before || !line.before) return [row];
    const was = paired(line.before, line.reference);
    return [
      row,
      [
        `before (${before.commit}): same`,
        withSpread(audio(line.before), 0),
        '',
        withSpread(was, 2),
        '',
        `${fixed(median(ratios) - median(was), 2)} vs before`,
      ],
    ];
  });
  const lazyKb = lazy ? `${fixed(lazy.bytes / 1024, 1)} KiB` : '';
  const lazyLine = lazy
    ? `**Loading livekit-client on the click**: the same bare page, as a site that loads livekit-client only when the visitor calls would write it: \`Room\` and \`RoomEvent\` bundled and minified by esbuild in this run (${lazyKb}, the widget's media chunk is its own build of the same library), imported when its clock starts, beside the microphone request, and awaited after the token. Round by round it takes ${withSpread(lazyCost, 2)} times as long as the page that had livekit-client loaded (the last column above): that is what loading livekit-client late costs any page here, before the widget's own code. The last row of the ratio table holds the widget's first call (\`preload="none"\`) against this page.`
    : '**Loading livekit-client on the click**: not measured (esbuild is not installed).';
  const first = audio('first');
  // From the credentials (the create's answer, or the token route's) to the signal socket: what the
  // widget's own code and livekit-client do before the room's join reaches the network.
  const toJoin = (sample: WidgetSample) => {
    const answered = sample.token ?? sample.dialCreated;
    return answered !== null && sample.signalOpened !== null ? sample.signalOpened - answered : null;
  };
  const joinGaps = (kind: WidgetKind | BeforeKind) => column(samplesOf(kind).map(toJoin));
  const joinChange = (kind: WidgetKind, was: BeforeKind) =>
    byRound(samplesOf(kind), toJoin, samplesOf(was), toJoin, (now, then) => now - then);
  const joinText = (kind: WidgetKind, was: BeforeKind) =>
    `${withSpread(joinGaps(kind), 0)} ms${before ? `, before ${withSpread(joinGaps(was), 0)} ms, change round by round ${withSpread(joinChange(kind, was), 0)} ms` : ''}`;
  const joinLine = `**From the answer to the join**: the dial's answer (or the token route's) → the signal socket opened, i.e. what the widget's own code and livekit-client do (the room, its peer connection, the offer sent with the join) before the join reaches the media server, ms, median (IQR). Hover, then click: ${joinText('hover', 'before-hover')}. First call: ${joinText('first', 'before-first')}. The baseline (the token's answer → its signal socket): ${withSpread(column(baseOf('baseline').map((sample) => sample.signalMs)), 0)} ms.`;

  const markdown = [
    `${calls} rounds, each in alternating order: a fresh widget page with two calls (*first call*, *call again*), a fresh widget page for each of *hover, then click*, *microphone prompt* and (every other round) *chunks prefetched*, and a fresh baseline page without and with the prompt${lazy ? ' and loading livekit-client on the click' : ''}${before ? `, and the widget and companion of commit ${before.commit} (*before*: first call, hover, prompt)` : ''}, each in a fresh Chromium context (cold HTTP cache), on \`${agent}\`, after one unmeasured round. Every page waits ${SETTLE_MS} ms once it is ready before its clock starts (the hover's dwell, and the same on every other page, the baseline's too), so no call is measured while its page is still busy with its own load. Every call is watched the same way until its first agent audio: a check every ${WATCH_MS} ms on a timer in its page (the baseline's own loop; not on each animation frame, which keeps a headless page drawing frames through the call, about 20 ms of the widget's time on this machine). Each figure is the median with its interquartile range (the middle half of the calls) in brackets; n is calls with that step / calls.` +
      (failures.length ? ` Failed calls (left out): ${failures.join('; ')}.` : ''),
    '',
    `**The widget** (CDN build, script tag), ms after the click. *First call*: a fresh page with \`preload="none"\`, so the click also fetches and runs the lazy call chunk (call logic, in-call UI) and media chunk (livekit-client), side by side, while the microphone request made inside the click is pending; without it, the pointer moving onto the button for the click would start the widget's own prefetch a few ms early and blur what this column measures. *Chunks prefetched*: a fresh page (\`preload="none"\`) that imports both chunks before the click (what the widget's prefetch gives once it has finished), then waits as every page does. *Hover, then click*: a fresh page with the default \`preload="intent"\`: the pointer rests on the call button ${HOVER_MS} ms (a visitor's dwell) before the click, so the widget itself starts loading both chunks on pointerenter. *Microphone prompt*: a first visit's real path: a fresh page with \`preload="none"\` where the microphone permission prompt takes ${PROMPT_MS} ms (a person reading it and clicking Allow; \`bench/pages/instrument.js\` holds getUserMedia that long and the Permissions API answers \`prompt\` meanwhile), so it shows how much of the lazy load hides behind the prompt. *Call again*: a second call in the first page, the chunks already loaded.`,
    '',
    table(
      [
        'step',
        'first call: median (IQR)',
        'n',
        'chunks prefetched',
        'n',
        'hover, then click',
        'n',
        'microphone prompt',
        'n',
        'call again',
        'n',
      ],
      rows,
    ),
    '',
    `**The baseline**: a bare livekit-client page (livekit-client loaded with the page) whose clock starts, like the widget's click, before its microphone request: getUserMedia, the two companion round trips, \`Room.connect\`, publishing the microphone, \`startDialSession\`; without and with the same ${PROMPT_MS} ms prompt. ms:`,
    '',
    table(
      [
        'step',
        'median (IQR)',
        `with the ${PROMPT_MS} ms prompt`,
        ...(lazy ? ['livekit-client imported on the click'] : []),
      ],
      baseRows,
    ),
    '',
    lazyLine,
    '',
    joinLine,
    '',
    `**Ratios**: each widget call's click → first agent audio over the baseline call of the same round (microphone request → first agent audio; with the prompt row, the baseline with the prompt): the median of those per-round ratios and their IQR. Rounds alternate the order, and both calls of a ratio run within seconds of each other, so the machine's load moves both alike.${before ? " The *before* row under a ratio is the same ratio for the widget of the compared commit, in the same rounds, against the same baseline calls; its last column is this tree's ratio less that one." : ''}`,
    '',
    table(
      ['ratio, click → first agent audio', 'widget ms', 'baseline ms', 'ratio: median (IQR)', 'target', 'verdict'],
      ratioRows,
    ),
  ].join('\n');
  return {
    title: 'Time to talk',
    markdown,
    headline: [
      {
        id: 'first-audio',
        metric: 'click → first agent audio, first call without prefetch (median, IQR)',
        measured: `${fixed(median(first))} ms, IQR ${fixed(iqr(first)[0])}–${fixed(iqr(first)[1])} ms`,
        target: '—',
        verdict: '—',
      },
      {
        id: 'answer-to-join',
        metric:
          "the dial's answer → the room's join on the network (signal socket opened), hover then click (median, IQR)",
        measured: joinText('hover', 'before-hover'),
        target: '—',
        verdict: '—',
      },
      ...lines.map((line) => {
        const ratios = paired(line.kind, line.reference);
        const was = before && line.before ? paired(line.before, line.reference) : null;
        return {
          id: line.id,
          metric: `widget ÷ bare livekit-client (both clocks with the microphone request), ${line.label}`,
          measured: `${fixed(median(ratios), 2)}, ${iqrText(ratios)}${was ? `; before (${before?.commit ?? ''}): ${fixed(median(was), 2)}, ${iqrText(was)}` : ''}`,
          target: targetText(line),
          verdict: verdictText(line, ratios),
        };
      }),
      ...(lazy
        ? [
            {
              id: 'lazy-cost',
              metric:
                'bare livekit-client page: livekit-client imported on the click ÷ loaded with the page (what loading it late costs any page)',
              measured: `${fixed(median(lazyCost), 2)}, ${iqrText(lazyCost)}`,
              target: '—',
              verdict: '—',
            },
          ]
        : []),
    ],
  };
}
