// Endurance. (1) N call cycles in one page (start, agent connected, hang up, ended) on `emu-demo`
// through the real companion and media room: JS heap after a forced GC before and after, live
// MediaStreamTracks, open RTCPeerConnections, <audio> elements and listeners on window/document.
// (2) A long call's transcript (default 1,000 entries over an emulated 10 minutes, fed by a scripted
// session in fast-forward, no media): long tasks over 50 ms and frame times while the transcript
// follows new entries and while the visitor scrolls it with the mouse wheel.
import type { CDPSession, Page } from 'playwright';
import { instrumentedContext, launchChromium } from './lib/browser.js';
import type { Services } from './lib/services.js';
import { fixed, median, percentile, table, type BenchSection } from './lib/stats.js';

interface Leftovers {
  liveTracks: number;
  openPeerConnections: number;
  audioElements: number;
  windowListeners: number;
  documentListeners: number;
}

async function heapAfterGc(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const usage = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  return usage.usedSize;
}

/**
 * The bytes of a heap snapshot by node type: V8's compiled code and feedback ("code": machine code
 * the JIT makes for functions that run hot, and their type feedback) against the page's objects.
 * Growth in "code" that levels off is the engine warming up, not something the page keeps.
 */
async function heapByType(cdp: CDPSession): Promise<Map<string, number>> {
  let json = '';
  const onChunk = (event: { chunk: string }) => {
    json += event.chunk;
  };
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  try {
    await cdp.send('HeapProfiler.takeHeapSnapshot');
  } finally {
    cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  }
  const snapshot = JSON.parse(json) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
  };
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const typeAt = fields.indexOf('type');
  const sizeAt = fields.indexOf('self_size');
  const bytes = new Map<string, number>();
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    const type = types[snapshot.nodes[i + typeAt] ?? 0] ?? '?';
    bytes.set(type, (bytes.get(type) ?? 0) + (snapshot.nodes[i + sizeAt] ?? 0));
  }
  return bytes;
}

/** Main-thread work per second of a call (Chromium's Performance metrics over a window). */
interface CallLoad {
  taskMs: number;
  styleMs: number;
  scriptMs: number;
}

const LOAD_WINDOW_MS = 2000;
const LOAD_CALLS = 5;

/**
 * What a call costs the page's main thread while it is up: `LOAD_CALLS` calls on `emu-demo` (the
 * agent greets and answers the fake microphone's tone, so both meters move), each measured over
 * `LOAD_WINDOW_MS` from half a second after `call-connected`; the median per second.
 */
async function callLoad(page: Page, cdp: CDPSession): Promise<CallLoad> {
  await cdp.send('Performance.enable');
  const read = async () => {
    const { metrics } = (await cdp.send('Performance.getMetrics')) as {
      metrics: Array<{ name: string; value: number }>;
    };
    return new Map(metrics.map((metric) => [metric.name, metric.value]));
  };
  const samples: CallLoad[] = [];
  for (let i = 0; i < LOAD_CALLS; i++) {
    await cycle(page, async () => {
      await page.waitForTimeout(500);
      const start = await read();
      await page.waitForTimeout(LOAD_WINDOW_MS);
      const end = await read();
      const perSecond = (name: string) =>
        (((end.get(name) ?? 0) - (start.get(name) ?? 0)) * 1000 * 1000) / LOAD_WINDOW_MS;
      samples.push({
        taskMs: perSecond('TaskDuration'),
        styleMs: perSecond('RecalcStyleDuration'),
        scriptMs: perSecond('ScriptDuration'),
      });
    });
  }
  await cdp.send('Performance.disable');
  return {
    taskMs: median(samples.map((sample) => sample.taskMs)),
    styleMs: median(samples.map((sample) => sample.styleMs)),
    scriptMs: median(samples.map((sample) => sample.scriptMs)),
  };
}

async function listenerCount(cdp: CDPSession, expression: string): Promise<number> {
  const { result } = (await cdp.send('Runtime.evaluate', { expression })) as { result: { objectId?: string } };
  if (!result.objectId) return Number.NaN;
  const { listeners } = (await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId })) as {
    listeners: unknown[];
  };
  return listeners.length;
}

async function leftovers(page: Page, cdp: CDPSession): Promise<Leftovers> {
  const counts = (await page.evaluate(`(() => {
    const bench = window.__bench;
    const deepAudio = (root) => {
      let n = root.querySelectorAll('audio').length;
      for (const element of root.querySelectorAll('*')) if (element.shadowRoot) n += deepAudio(element.shadowRoot);
      return n;
    };
    return {
      liveTracks: bench.tracks.filter((track) => track.readyState === 'live').length,
      openPeerConnections: bench.pcs.filter((pc) => pc.connectionState !== 'closed').length,
      audioElements: deepAudio(document),
    };
  })()`)) as Omit<Leftovers, 'windowListeners' | 'documentListeners'>;
  return {
    ...counts,
    windowListeners: await listenerCount(cdp, 'window'),
    documentListeners: await listenerCount(cdp, 'document'),
  };
}

/** One call: click call, wait for `call-connected`, run `whileUp` (if any), click hang up, wait for `call-ended`. */
async function cycle(page: Page, whileUp?: () => Promise<void>): Promise<void> {
  await page.evaluate('window.__cycle = { connected: false, ended: false }');
  await page.click('voice-agent-call [part~="call-button"]');
  await page.waitForFunction('window.__cycle.connected || window.__cycle.ended', null, { timeout: 20000 });
  const failed = await page.evaluate('window.__cycle.ended ? window.__cycle.reason : null');
  if (failed) throw new Error(`call ended before it connected: ${String(failed)}`);
  await whileUp?.();
  await page.click('voice-agent-call [part~="hangup-button"]');
  await page.waitForFunction('window.__cycle.ended', null, { timeout: 20000 });
}

/** Issue 31's target for the heap growth over the cycles. */
const HEAP_TARGET = 1.5 * 1048576;

/** `build`: another commit's widget and companion (services.before) instead of this tree's. */
export async function callCycles(
  services: Services,
  cycles = 50,
  build?: { src: string; endpoint: string },
): Promise<{ markdown: string; headline: BenchSection['headline']; growth: number; load: CallLoad }> {
  const browser = await launchChromium();
  try {
    const context = await instrumentedContext(browser, services.origin);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await page.goto(
      build
        ? `/bench/pages/widget-at.html?agent=emu-demo&src=${encodeURIComponent(build.src)}&endpoint=${encodeURIComponent(build.endpoint)}`
        : '/bench/pages/widget.html',
    );
    await page.waitForFunction('customElements.get("voice-agent-call") !== undefined');
    await page.evaluate(`(() => {
      const element = document.querySelector('voice-agent-call');
      element.setAttribute('agent', 'emu-demo');
      element.addEventListener('call-connected', () => (window.__cycle.connected = true));
      element.addEventListener('call-ended', (event) => { window.__cycle.ended = true; window.__cycle.reason = event.detail.reason; });
    })()`);
    const atLoad = { heap: await heapAfterGc(cdp), ...(await leftovers(page, cdp)) };
    // One unmeasured cycle loads the media chunk and makes the one-time allocations.
    const started = performance.now();
    await cycle(page);
    const before = { heap: await heapAfterGc(cdp), ...(await leftovers(page, cdp)) };
    const typesBefore = await heapByType(cdp);
    const cycleMs: number[] = [];
    let half: { heap: number } | null = null;
    for (let i = 0; i < cycles; i++) {
      if (i === Math.floor(cycles / 2)) half = { heap: await heapAfterGc(cdp) };
      const t = performance.now();
      await cycle(page);
      cycleMs.push(performance.now() - t);
      process.stderr.write(`call cycles: ${i + 1}/${cycles}\r`);
    }
    process.stderr.write('\n');
    const after = { heap: await heapAfterGc(cdp), ...(await leftovers(page, cdp)) };
    const typesAfter = await heapByType(cdp);
    const totalS = (performance.now() - started) / 1000;
    const load = await callLoad(page, cdp);
    await context.close();
    const growth = after.heap - before.heap;
    const mb = (bytes: number) => `${(bytes / 1048576).toFixed(2)} MB`;
    const grew = (type: string) => (typesAfter.get(type) ?? 0) - (typesBefore.get(type) ?? 0);
    const codeGrowth = grew('code');
    const left =
      after.liveTracks +
      after.openPeerConnections +
      after.audioElements +
      (after.windowListeners - before.windowListeners) +
      (after.documentListeners - before.documentListeners);
    const rows = [
      ['JS heap used (after forced GC)', mb(atLoad.heap), mb(before.heap), half ? mb(half.heap) : '—', mb(after.heap)],
      ['live MediaStreamTracks', String(atLoad.liveTracks), String(before.liveTracks), '', String(after.liveTracks)],
      [
        'RTCPeerConnections not closed',
        String(atLoad.openPeerConnections),
        String(before.openPeerConnections),
        '',
        String(after.openPeerConnections),
      ],
      [
        '<audio> elements (incl. shadow roots)',
        String(atLoad.audioElements),
        String(before.audioElements),
        '',
        String(after.audioElements),
      ],
      [
        'listeners on window',
        String(atLoad.windowListeners),
        String(before.windowListeners),
        '',
        String(after.windowListeners),
      ],
      [
        'listeners on document',
        String(atLoad.documentListeners),
        String(before.documentListeners),
        '',
        String(after.documentListeners),
      ],
    ];
    const markdown = [
      `${cycles} call cycles in one page on \`emu-demo\` (click call, wait for \`call-connected\`, click hang up, wait for \`call-ended\`), real companion and media room; ${fixed(totalS)} s in all, cycle median ${fixed(median(cycleMs), 0)} ms, p95 ${fixed(percentile(cycleMs, 95), 0)} ms. "Before" is after one unmeasured cycle (the media chunk loaded). Listener counts include the page's own benchmark listeners (constant).`,
      '',
      table(
        [
          'measure',
          'page loaded',
          `before (after 1 cycle)`,
          `after ${Math.floor(cycles / 2)} more`,
          `after ${cycles} more cycles`,
        ],
        rows,
      ),
      '',
      `Heap growth over ${cycles} cycles: **${mb(growth)}**${half ? ` (first half ${mb(half.heap - before.heap)}, second half ${mb(after.heap - half.heap)}: growth that slows is warm-up, growth that keeps pace is a leak)` : ''} (target ≤ 1.5 MB: ${growth <= HEAP_TARGET ? 'met' : `missed by ${mb(growth - HEAP_TARGET)}`}). Leftovers after the last call: **${left}** (target 0).`,
      '',
      `Of the growth, by heap snapshots before and after the cycles: V8's compiled code and type feedback (node type "code": machine code the JIT makes for functions that ran hot, which levels off once the calls' code is optimised) ${mb(codeGrowth)}; JavaScript objects, arrays, closures and strings ${mb(['object', 'array', 'closure', 'string', 'concatenated string', 'sliced string', 'number', 'regexp'].reduce((sum, type) => sum + grew(type), 0))}; native (the browser's own objects: DOM, styles, its performance timeline's entries) ${mb(grew('native'))}.`,
      '',
      `Main thread while a call is up (${LOAD_CALLS} more calls in the same page, each measured over ${LOAD_WINDOW_MS / 1000} s from half a second after \`call-connected\`, the agent and the fake microphone both heard; Chromium's Performance metrics; median, ms per second): task time ${fixed(load.taskMs)}, of which style recalculation ${fixed(load.styleMs)} and script ${fixed(load.scriptMs)}.`,
    ].join('\n');
    return {
      markdown,
      growth,
      load,
      headline: [
        {
          id: 'heap',
          metric: `heap growth over ${cycles} call cycles`,
          measured: mb(growth),
          target: '≤ 1.5 MB',
          verdict: growth <= HEAP_TARGET ? 'met' : `missed by ${mb(growth - HEAP_TARGET)}`,
        },
        {
          id: 'call-load',
          metric: 'main thread while a call is up: task time; style recalculation (ms per second, median)',
          measured: `${fixed(load.taskMs)}; ${fixed(load.styleMs)}`,
          target: '—',
          verdict: '—',
        },
        {
          id: 'leftovers',
          metric: 'leftover tracks, connections, audio elements, listeners',
          measured: String(left),
          target: '0',
          verdict: left === 0 ? 'met' : 'missed',
        },
      ],
    };
  } finally {
    await browser.close();
  }
}

const PACED_ENTRIES = 20;
/** How many times slower the throttled long-transcript run has Chromium run the page. */
const THROTTLE = 4;

/** `build`: another commit's widget (services.before) instead of this tree's. */
export async function longTranscript(
  services: Services,
  options: { entries?: number; minutes?: number; stepMs?: number; cpuThrottle?: number } = {},
  build?: { src: string },
): Promise<{ markdown: string; headline: BenchSection['headline'] }> {
  const entries = options.entries ?? 1000;
  // A slower machine, or one other work loads, made reproducible: Chromium runs the page's main
  // thread this many times slower (DevTools' CPU throttling), the same for both builds.
  const throttle = options.cpuThrottle ?? 1;
  const minutes = options.minutes ?? 10;
  const stepMs = options.stepMs ?? 5;
  const browser = await launchChromium();
  try {
    const context = await instrumentedContext(browser, services.origin);
    const page = await context.newPage();
    if (throttle > 1)
      await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: throttle });
    await page.goto(`/bench/pages/transcript.html${build ? `?src=${encodeURIComponent(build.src)}` : ''}`);
    await page.waitForFunction('window.scriptedReady === true');
    await page.evaluate(`(() => {
      window.__perf = { longTasks: [], frames: [], renders: [], recording: false, phases: [] };
      // A phase's start in page time: a long task counts in the phase it started in (the observer reports it later).
      window.__phase = (name) => { window.__perf.phase = name; window.__perf.phases.push({ name, at: performance.now() }); };
      // The element's own work per render (willUpdate, render, commit, updated with its scroll), whatever schedules it.
      const element = document.querySelector('voice-agent-call');
      const perform = element.performUpdate;
      element.performUpdate = function () {
        const started = performance.now();
        try { return perform.call(this); } finally { if (window.__perf.recording) window.__perf.renders.push({ phase: window.__perf.phase, ms: performance.now() - started }); }
      };
      new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__perf.longTasks.push({ start: entry.startTime, duration: entry.duration }); }).observe({ type: 'longtask' });
      let last = 0;
      const frame = (now) => { if (window.__perf.recording && last) window.__perf.frames.push({ phase: window.__perf.phase, ms: now - last }); last = now; requestAnimationFrame(frame); };
      requestAnimationFrame(frame);
    })()`);
    // The call's start, a phase of its own: the click, the call chunk and (loaded on the pointer's
    // intent) the media chunk evaluated, the first in-call render. Its long tasks are the start's,
    // not the updates'.
    const callChunks = `performance.getEntriesByType('resource').filter((entry) => /\\/chunks\\/(in-call|livekit-media)-/.test(entry.name))`;
    await page.evaluate('(window.__phase("start"), window.__perf.recording = true)');
    await page.click('voice-agent-call [part~="call-button"]');
    await page.waitForFunction(
      `${callChunks}.length === 2 &&
        document.querySelector('voice-agent-call').shadowRoot.querySelector('[part~="hangup-button"]') !== null`,
    );
    await page.evaluate(
      `Promise.all(${callChunks}.map((entry) => import(entry.name)))
        .then(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))`,
    );
    await page.evaluate('window.__phase("streaming")');
    const t = performance.now();
    await page.evaluate(`window.streamTranscript(${entries}, ${minutes}, ${stepMs})`);
    const streamS = (performance.now() - t) / 1000;
    const rendered = (await page.evaluate(
      `document.querySelector('voice-agent-call').shadowRoot.querySelectorAll('[part~="entry"]').length`,
    )) as number;
    // Then at a real call's pace: 10 minutes / 1,000 entries is one update (interim or final) every 300 ms.
    await page.evaluate('window.__phase("paced")');
    const paced = (await page.evaluate(`window.pacedUpdates(${PACED_ENTRIES}, 300)`)) as number[];
    // The visitor scrolls back through the whole log with the wheel, then down again.
    await page.evaluate('window.__phase("wheel")');
    const box = await page.locator('voice-agent-call [part~="transcript"]').boundingBox();
    if (!box) throw new Error('no transcript on the page');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let i = 0; i < 60; i++) await page.mouse.wheel(0, -1500);
    for (let i = 0; i < 60; i++) await page.mouse.wheel(0, 1500);
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    await page.evaluate('window.__perf.recording = false');
    const perf = (await page.evaluate('window.__perf')) as {
      longTasks: Array<{ start: number; duration: number; phase?: string }>;
      frames: Array<{ phase: string; ms: number }>;
      renders: Array<{ phase: string; ms: number }>;
      phases: Array<{ name: string; at: number }>;
    };
    for (const task of perf.longTasks) task.phase = perf.phases.findLast((phase) => phase.at <= task.start)?.name;
    await page.click('voice-agent-call [part~="hangup-button"]');
    await context.close();
    const rows = (['start', 'streaming', 'paced', 'wheel'] as const).map((phase) => {
      const frames = perf.frames.filter((frame) => frame.phase === phase).map((frame) => frame.ms);
      const longTasks = perf.longTasks.filter((task) => task.phase === phase);
      const renders = perf.renders.filter((render) => render.phase === phase).map((render) => render.ms);
      return [
        phase === 'start'
          ? "the call's start: the click, the call and media chunks run, the first in-call render"
          : phase === 'streaming'
            ? `fast-forward: ${entries * 2} updates, 5 ms apart`
            : phase === 'paced'
              ? `real pace: ${PACED_ENTRIES * 2} more updates, 300 ms apart`
              : 'wheel scrolling through the log',
        String(frames.length),
        fixed(median(frames)),
        fixed(percentile(frames, 95)),
        fixed(Math.max(...frames)),
        String(frames.filter((ms) => ms > 50).length),
        String(longTasks.length),
        longTasks.length ? fixed(Math.max(...longTasks.map((task) => task.duration))) : '—',
        String(renders.length),
        renders.length ? fixed(median(renders)) : '—',
        renders.length ? fixed(Math.max(...renders)) : '—',
      ];
    });
    const tasksIn = (...phases: string[]) => perf.longTasks.filter((task) => phases.includes(task.phase ?? ''));
    // Fast-forward: the updates 5 ms apart and the wheel scrolling that follows them, not the call's start.
    const fastLong = tasksIn('streaming', 'wheel').length;
    const pacedLong = tasksIn('paced').length;
    const startTasks = tasksIn('start');
    const throttled = throttle > 1 ? `, CPU throttled ${throttle}×` : '';
    const pacedWork = perf.renders.filter((render) => render.phase === 'paced').map((render) => render.ms);
    const markdown = [
      `A scripted session (no media) feeds the element ${entries} entries spread over an emulated ${minutes}-minute call, each first interim then final (${entries * 2} transcript updates), ${stepMs} ms of real time apart: ${fixed(streamS)} s, i.e. fast-forward, harsher than a real call. ${rendered} entry bubbles in the DOM at the end (the element keeps the newest ${rendered} of ${entries} lines there; "Show earlier lines" reveals more). Then, with the log full, ${PACED_ENTRIES} more entries at a real call's pace (an update every 300 ms: 1,000 entries in 10 minutes). Two times per update: the element's own work per render (its \`performUpdate\`: willUpdate, render, commit and \`updated\` with the scroll that follows the end; timed in the page around the method), median ${fixed(median(pacedWork))} ms, p95 ${fixed(percentile(pacedWork, 95))} ms, max ${fixed(Math.max(...pacedWork))} ms; and the latency from the session event to the finished render, median ${fixed(median(paced))} ms, p95 ${fixed(percentile(paced, 95))} ms, max ${fixed(Math.max(...paced))} ms, which includes waiting for the next frame (the element renders transcript-only updates once per frame). Then 120 mouse-wheel steps up and down the log. Frame times from requestAnimationFrame; long tasks from the Long Tasks API (the page runs nothing but the widget). "Renders" counts the element's renders in each phase: fewer than the updates means updates were coalesced.`,
      '',
      table(
        [
          'phase',
          'frames',
          'frame median ms',
          'p95 ms',
          'max ms',
          'frames > 50 ms',
          'long tasks > 50 ms',
          'longest task ms',
          'renders',
          'render median ms',
          'render max ms',
        ],
        rows,
      ),
    ].join('\n');
    return {
      markdown,
      headline: [
        {
          id: throttle > 1 ? 'long-tasks-throttled' : 'long-tasks-fast',
          metric: `long tasks (> 50 ms), ${entries}-entry transcript in fast-forward (5 ms apart)${throttled}`,
          measured: String(fastLong),
          target: '0',
          verdict: fastLong === 0 ? 'met' : `missed by ${fastLong}`,
        },
        ...(throttle > 1
          ? []
          : [
              {
                id: 'long-tasks-paced',
                metric: `long tasks at a real call's pace with the log full; render work per update (median)`,
                measured: `${pacedLong}; ${fixed(median(pacedWork))} ms`,
                target: '0',
                verdict: pacedLong === 0 ? 'met' : `missed by ${pacedLong}`,
              },
            ]),
        {
          id: throttle > 1 ? 'long-tasks-start-throttled' : 'long-tasks-start',
          metric: `long tasks (> 50 ms) as the call starts (chunks run, first render)${throttled}; the longest`,
          measured: `${startTasks.length}; ${startTasks.length ? `${fixed(Math.max(...startTasks.map((task) => task.duration)))} ms` : '—'}`,
          target: '—',
          verdict: '—',
        },
      ],
    };
  } finally {
    await browser.close();
  }
}

export async function endurance(
  services: Services,
  options: { cycles?: number; entries?: number } = {},
): Promise<BenchSection> {
  const cycles = await callCycles(services, options.cycles ?? 50);
  const old = services.before ? await callCycles(services, options.cycles ?? 50, services.before) : null;
  const transcript = await longTranscript(services, { entries: options.entries ?? 1000 });
  const oldTranscript = services.before
    ? await longTranscript(services, { entries: options.entries ?? 1000 }, services.before)
    : null;
  // The same with the CPU throttled: a slower or loaded machine, reproducibly (issue 42's long tasks "under load").
  const slow = await longTranscript(services, { entries: options.entries ?? 1000, cpuThrottle: THROTTLE });
  const oldSlow = services.before
    ? await longTranscript(services, { entries: options.entries ?? 1000, cpuThrottle: THROTTLE }, services.before)
    : null;
  const heapRow = cycles.headline.find((row) => row.id === 'heap');
  if (heapRow && old) heapRow.measured += ` (before: ${(old.growth / 1048576).toFixed(2)} MB)`;
  const loadRow = cycles.headline.find((row) => row.id === 'call-load');
  if (loadRow && old) loadRow.measured += ` (before: ${fixed(old.load.taskMs)}; ${fixed(old.load.styleMs)})`;
  for (const [now, was] of [
    [transcript, oldTranscript],
    [slow, oldSlow],
  ] as const) {
    for (const row of now.headline) {
      const before = was?.headline.find((other) => other.id === row.id);
      if (before) row.measured += ` (before: ${before.measured})`;
    }
  }
  return {
    title: 'Endurance',
    markdown: [
      '**Call cycles**',
      '',
      cycles.markdown,
      '',
      ...(old && services.before
        ? [
            `**Call cycles, before** (the widget and companion of commit ${services.before.commit}, same run)`,
            '',
            old.markdown,
            '',
          ]
        : []),
      '**A long call’s transcript**',
      '',
      transcript.markdown,
      ...(oldTranscript && services.before
        ? [
            '',
            `**A long call’s transcript, before** (the widget of commit ${services.before.commit}, same run, right after)`,
            '',
            oldTranscript.markdown,
          ]
        : []),
      '',
      `**A long call’s transcript, CPU throttled ${THROTTLE}×** (the same, with Chromium running the page ${THROTTLE} times slower: a slow phone, or a machine other work loads, made reproducible)`,
      '',
      slow.markdown,
      ...(oldSlow && services.before
        ? [
            '',
            `**A long call’s transcript, CPU throttled ${THROTTLE}×, before** (the widget of commit ${services.before.commit})`,
            '',
            oldSlow.markdown,
          ]
        : []),
    ].join('\n'),
    headline: [...cycles.headline, ...transcript.headline, ...slow.headline],
  };
}
