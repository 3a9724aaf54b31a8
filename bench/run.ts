// `npm run bench`: runs every benchmark and writes BENCHMARKS.md (machine, versions, date, tables).
// The browser and media-room benchmarks need a network namespace where only loopback exists; when
// not already in one, this script re-runs itself inside one (`unshare -n`, as root; `unshare -rn`
// otherwise). Pick benchmarks by name: `npm run bench -- weight companion talk endurance persist`.
// Knobs (environment): BENCH_CALLS (time-to-talk rounds, default 20), BENCH_CYCLES (call cycles,
// default 50), BENCH_ENTRIES (transcript entries, default 1000), BENCH_OUT (default BENCHMARKS.md),
// BENCH_NET_CALLS (network time-to-talk calls per page at 50 ms each way, a third of it on the other
// networks, default 10), BENCH_NET_PROFILE (`normal`: each network call in a new normal profile,
// where preconnects work, instead of an incognito context), BENCH_PERSIST_CALLS (calls that
// survive the page, default 5), BENCH_COMPARE_REF
// (a git ref whose companion, and for both time-to-talk sections, the call cycles and the long
// transcript its widget, run side by side with this tree's, and whose CDN build's sizes stand beside
// this one's in the page weight). The default counts
// give each time-to-talk ratio an interquartile range narrow enough to show a change of 0.1, and
// keep a whole run under 15 minutes on 2 shared cores (docs/development.md, Benchmarks).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem, type as osType } from 'node:os';
import { join, resolve } from 'node:path';
import { companionLimits } from './companion-limits.js';
import { companionLoad } from './companion-load.js';
import { endurance } from './endurance.js';
import { CHROMIUM } from './lib/browser.js';
import { CDN_BUILD_PATHS, checkoutRef } from './lib/git-ref.js';
import { LOG_FILE, ROOT, startServices } from './lib/services.js';
import { table, type BenchSection } from './lib/stats.js';
import { pageWeight } from './page-weight.js';
import { persistReturn } from './persist-return.js';
import { networkTalk } from './network-talk.js';
import { timeToTalk } from './time-to-talk.js';

const NAMESPACE_FLAG = 'VOICE_AGENT_BENCH_NETNS';

if (process.env[NAMESPACE_FLAG] !== '1') {
  const flag = process.getuid?.() === 0 ? '-n' : '-rn';
  const inner = `ip link set lo up && exec env ${NAMESPACE_FLAG}=1 "$0" --import tsx bench/run.ts "$@"`;
  const result = spawnSync('unshare', [flag, 'sh', '-c', inner, process.execPath, ...process.argv.slice(2)], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.error) {
    console.error(
      `bench: could not enter a loopback-only network namespace (${result.error.message}); needs util-linux unshare and iproute2 ip`,
    );
    process.exit(1);
  }
  process.exit(result.status ?? 1);
}

const ALL = ['weight', 'companion', 'talk', 'network', 'endurance', 'persist'] as const;
type Name = (typeof ALL)[number];
const picked = process.argv.slice(2).filter((arg): arg is Name => (ALL as readonly string[]).includes(arg));
const run: readonly Name[] = picked.length > 0 ? picked : ALL;
const envNumber = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);

function version(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}
const packageVersion = (name: string) =>
  (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

const started = new Date();
const sections: BenchSection[] = [];
const log = (message: string) => process.stderr.write(`bench: ${message}\n`);
/** Each section's wall time, in the order run (the header lists them beside the whole run's). */
const took: string[] = [];
async function measure(name: string, section: () => Promise<BenchSection>): Promise<void> {
  log(name);
  const start = Date.now();
  sections.push(await section());
  const seconds = (Date.now() - start) / 1000;
  took.push(`${name} ${seconds.toFixed(0)} s`);
  log(`${name}: ${seconds.toFixed(0)} s`);
}

if (run.includes('weight')) {
  // BENCH_COMPARE_REF=<git ref>: that version's CDN build is measured beside this one.
  const before = process.env.BENCH_COMPARE_REF
    ? checkoutRef(process.env.BENCH_COMPARE_REF, CDN_BUILD_PATHS)
    : undefined;
  try {
    await measure('page weight', () => pageWeight({ before }));
  } finally {
    before?.remove();
  }
}
if (run.includes('companion')) {
  // BENCH_COMPARE_REF=<git ref>: that version's companion and limiter run side by side with this tree's.
  const before = process.env.BENCH_COMPARE_REF ? checkoutRef(process.env.BENCH_COMPARE_REF) : undefined;
  try {
    await measure('companion overhead', () => companionLoad({ before }));
    await measure('rate limits', () => companionLimits({ before }));
  } finally {
    before?.remove();
  }
}
if (run.includes('network')) {
  // BENCH_COMPARE_REF=<git ref>: that version's widget (its CDN build) and companion run side by side.
  const before = process.env.BENCH_COMPARE_REF
    ? checkoutRef(process.env.BENCH_COMPARE_REF, CDN_BUILD_PATHS)
    : undefined;
  try {
    await measure('time to talk on a real network', () =>
      networkTalk({ calls: envNumber('BENCH_NET_CALLS', 10), before }),
    );
  } finally {
    before?.remove();
  }
}
if (run.includes('talk') || run.includes('endurance') || run.includes('persist')) {
  // BENCH_COMPARE_REF=<git ref>: that version's widget and companion run the loopback calls, the call cycles and the long transcript side by side too.
  const before = process.env.BENCH_COMPARE_REF
    ? checkoutRef(process.env.BENCH_COMPARE_REF, CDN_BUILD_PATHS)
    : undefined;
  const services = await startServices(before).catch((error: unknown) => {
    before?.remove();
    throw error;
  });
  try {
    if (run.includes('talk')) {
      await measure('time to talk', () => timeToTalk(services, { calls: envNumber('BENCH_CALLS', 20) }));
    }
    if (run.includes('persist')) {
      await measure('calls that survive the page', () =>
        persistReturn(services, { calls: envNumber('BENCH_PERSIST_CALLS', 5) }),
      );
    }
    if (run.includes('endurance')) {
      await measure('endurance', () =>
        endurance(services, { cycles: envNumber('BENCH_CYCLES', 50), entries: envNumber('BENCH_ENTRIES', 1000) }),
      );
    }
  } finally {
    await services.close();
    before?.remove();
  }
}
const seconds = (Date.now() - started.getTime()) / 1000;

const cpu = cpus();
const commit = version('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD']);
const machine = [
  `- Date: ${started.toISOString()} (whole run ${seconds.toFixed(0)} s: ${took.join(', ')})`,
  `- Machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${osType()} ${release()}`,
  `- Node ${process.version}, ${version(CHROMIUM, ['--version'])}, livekit-client ${packageVersion('livekit-client')}, lit ${packageVersion('lit')}, autocannon ${packageVersion('autocannon')}`,
  `- voice-agent-call ${(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version} at commit ${commit}`,
  '- Everything on loopback in a private network namespace; other processes were running on the machine, so timings are noisy: read the ratios and side-by-side columns, not absolute times.',
];
/** What each target's result means and, where missed, what would close it (the numbers are in the tables). */
/** The call's start, measured apart from the updates (no target: what it is, once per page). */
const START_NOTE = {
  met: '',
  missed:
    "What runs long as a call starts, once per page, apart from the updates: the call chunk's evaluation with the first in-call render, and livekit-client's, a single module whose top-level code the browser runs as one task (about 30 ms here unthrottled, 115 ms with the CPU throttled 4×, in a trace of issue 42); the pointer's intent loads it before the click, so on a real call it runs before the first transcript line.",
};
/** The in-call load row has no target: one note, whatever its verdict. */
const CALL_LOAD_NOTE =
  "What an up call costs the page's main thread each second, with both voices heard: the meters move every frame (the levels are written on `::part(voices)`, so only the meters restyle; written on the card's root before, they restyled the whole card every frame), and the status, timer and transcript render as they change, beside livekit-client's and the audio analysers' own work. No target; it is here so a change to the in-call view shows as before and after.";
const JOIN_NOTE =
  "What stands between the media credentials and the room's join reaching the network: the widget's own code, then livekit-client's (its peer connection, the offer it sends with the join, the join request), timed from the dial's answer to the signal WebSocket being made. The call's room (livekit-client's `Room` and its engine) is made while the dial's request is out, so only livekit-client's join is left here. No target: it shows a change to that path as before and after, which the end-to-end rows, moved as much by the emulator's and the companion's share of this 2-core machine, do not resolve.";
const LAZY_COST_NOTE =
  'What loading livekit-client after the click costs a page that does nothing else: the bare page with `Room` and `RoomEvent` bundled and minified by esbuild in the run, imported when its clock starts, beside its microphone request, over the same page with livekit-client loaded before its clock. No target: it is the part of the first call\'s ratio that any page loading livekit-client on the click pays on this machine (fetching, compiling and running about 550 KiB of JavaScript), which no page that also loads it only after the click escapes (the widget\'s own prefetch on intent, the default `preload="intent"`, moves it before the click).';
const LAZY_FIRST_NOTE =
  'The widget\'s first call with `preload="none"` against the bare page that also imports livekit-client on the click: like for like, since both load livekit-client after the click. What is over 1 here is the widget\'s own code, fetched, compiled and run on the same cores: its call chunk (which the dial\'s request waits for) and the code of its media chunk beside livekit-client; with both chunks loaded before the click the widget is faster than the bare page (the "chunks imported before the click" row). No target; it shows where the first call\'s time goes.';
/** The net-trips row's count, read one step more or less by timing alone. */
const NET_TRIPS_EDGE =
  "The count walks back from the first audio through whichever round trip ended last, so a step may be one that ran beside the one the call waited for: the widget's path ends on the microphone's `addTrack` and walks back through the warm query's chain (its connection, the CORS preflight, the query), which ends within a few ms of the signal socket's join and of `startDialSession` (sent on `GLOBAL_CALL_CONNECT`, once the browser is in the room). Compare the last steps in the critical-path table.";
const NOTES: Record<string, { met: string; missed: string }> = {
  initial: {
    met: 'A script-tag page loads only the idle entry until the visitor shows intent: Lit, the element shell, the idle styles and the idle card\'s English strings. The call logic, the in-call UI and styles, livekit-client and other languages are lazy chunks (see "What each file holds"), fetched on pointer/focus on the call button or launcher, in idle time with `preload="idle"`, or on the click.',
    missed:
      'The idle entry is over 12 KB gzip; see "What each file holds" for which modules grew. Only the idle card belongs in it (Lit, the element shell, idle styles, the idle card\'s English strings); anything a call needs belongs in the call chunk.',
  },
  'call-code': {
    met: "The call's own code for the defaults (the call chunk and the error classes) is within issue 35's 18 KB: the optional features (keypad, hold, transfer, rating, consent, persist) are chunks of their own, fetched only where an attribute asks for them.",
    missed:
      "The call's own code for the defaults is over issue 35's 18 KB gzip: see \"What each file holds\" for the call chunk's largest modules. Each optional feature that still sits in the call chunk (its session side, its strings) is a candidate to move into its own chunk.",
  },
  total: {
    met: 'Beaten easily: the widget adds only a few KB to livekit-client itself (measured against livekit-client minified by esbuild in the same run, the fair comparison for a minified bundle).',
    missed: 'The widget adds more than 25 KB to livekit-client; see the page-weight table for which file.',
  },
  'companion-token': {
    met: 'The token route adds at most 0.5 ms at p50 over a bare proxy making the same two service calls (REST dial token, GraphQL browserDialToken).',
    missed:
      "The token route adds more than 0.5 ms at p50. Per request the companion reads the Node request directly (no Web `Request` or `Response` on Node), checks origin and host, checks the handle (cached after its first HMAC check), counts two rate limits, makes both service calls through one undici Agent, parses and reshapes the service's JSON and logs a line (batched); the bare proxy does none of these but the calls. See the CPU column of the load table for what it costs per request.",
  },
  'companion-read': {
    met: 'The read route (polling and the final record) adds at most 0.5 ms at p50.',
    missed: 'The read route adds more than 0.5 ms at p50; see the token note for where the time goes.',
  },
  'companion-ratio-token': {
    met: 'On the token route the companion answers at least 0.8× the requests/s of a bare Node reverse proxy in front of the same emulator.',
    missed:
      "On the token route the companion answers fewer than 0.8× the requests/s of the bare proxy (Node http + an undici Pool, in the same run). Profiled with `node --cpu-prof` under this load, what was removed: fetch per upstream call (now undici on one keep-alive Agent, origin and path apart, no URL parsed per call), a blocking stderr write per request (now batched), a WebCrypto HMAC per request (now once per handle and minute), the Web `Request`/`Response` per request on Node (the Node adapter hands the handler's core the request's fields and writes its JSON text), an AbortController per request and an EventTarget, Event and closures per service call. What remains beyond the bare proxy: origin, handle and rate-limit checks, parsing and reshaping the service's JSON, a log line. Req/s here swings with the other work on the shared machine; the CPU-per-request ratio beside it is the steadier figure.",
  },
  'companion-ratio-read': {
    met: 'On the read route the companion answers at least 0.8× the requests/s of the bare proxy.',
    missed:
      'On the read route the companion answers fewer than 0.8× the requests/s of the bare proxy; see the token-route ratio note for what was removed and what remains.',
  },
  'ratio-audio': {
    met: 'Against a bare livekit-client page doing the same work on the same clock (the microphone request, both companion round trips, connect, publish, wait for the agent to speak) the widget is within the target on a first visit with `preload="none"`, where the click also fetches and runs the call chunk and livekit-client: the microphone request is made inside the click in the idle entry, and both chunks load side by side while it is pending.',
    missed:
      'On a first visit with `preload="none"` the widget is slower than the target against a bare livekit-client page: the click fetches the call chunk and livekit-client (both started at once, in parallel with the microphone request) but fetching, compiling and running them holds up the dial and the room\'s join (compare "dial created" and "room connected" between the first call and "chunks prefetched"). By default the widget prefetches both chunks when the pointer enters or focus reaches the call button (see the "hover, then click" row), and `preload="idle"` also loads them in idle time. The two rows against a bare page that also imports livekit-client on the click split this ratio into what loading livekit-client late costs any page and what is the widget\'s own.',
  },
  'lazy-cost': {
    met: LAZY_COST_NOTE,
    missed: LAZY_COST_NOTE,
  },
  'ratio-audio-lazy': {
    met: LAZY_FIRST_NOTE,
    missed: LAZY_FIRST_NOTE,
  },
  'ratio-prefetched': {
    met: "With the call and media chunks imported before the click (what the widget's own prefetch gives once it has finished) the widget is within the target.",
    missed:
      "Even with the chunks prefetched the widget is slower than 1.3× the baseline: the remaining difference is in the widget's own steps (see the step table).",
  },
  'long-tasks-fast': {
    met: 'Even in fast-forward (updates 5 ms apart, 60× a real call\'s rate) the widget makes no long task: it keeps the newest 100 lines in the DOM ("Show earlier lines" reveals older ones), renders transcript-only updates once per frame (compare "renders" with the updates), leaves unchanged lines untouched, reads the log\'s height to follow the end only when the log changed, slides in only the newest line, and restyles only the lines that changed (issue 42: profiles of this phase under load, with the CPU throttled 4×, found the entry animation on every line, then a sibling selector joining one side\'s bubbles that restyled all 100 lines on every frame; the view now marks joined lines itself).',
    missed:
      "In fast-forward (updates 5 ms apart, 60× a real call's rate) long tasks still appear although each frame's work is bounded: the newest 100 lines in the DOM, transcript-only updates rendered once per frame, only the newest line sliding in, only changed lines restyled (a sibling selector that joined one side's bubbles restyled all 100 on every frame; the view now marks joined lines itself). Profiles of this phase (issue 42; Chromium tracing, CPU throttled 4×) put each long frame in the browser's own pipeline (style, layout, pre-paint, paint, commit: about 2 ms of \"render\" per frame here on a quiet machine, and it barely changed with 30 lines kept instead of 100), stretched past 50 ms when other processes take the CPU: the count follows the machine's load (compare \"render max ms\" with a quiet run). `content-visibility: auto` on the lines cut the render median from 11 to 2 ms with the CPU throttled 4× but broke following the end (a new line is laid out at a placeholder height, and the log stopped thousands of pixels short of its end), so it is not used.",
  },
  'long-tasks-throttled': {
    met: "With Chromium running the page 4× slower (DevTools' CPU throttling: a slow phone, or a machine other work loads, made reproducible, the same for both builds) the updates in fast-forward still make no long task: each frame's work stays bounded (see the row above). What runs long under load is the call's start, once per page (the next row), which the fast-forward count leaves out since issue 42: before, it fell into that count whenever the pointer's intent had livekit-client run after the first update.",
    missed:
      'With Chromium running the page 4× slower (DevTools\' CPU throttling: a slow phone, or a machine other work loads, made reproducible) the updates in fast-forward make long tasks; the throttled table shows their phase and length, and "render max ms" how much of them is the element\'s own work.',
  },
  'long-tasks-start': START_NOTE,
  'long-tasks-start-throttled': START_NOTE,
  'long-tasks-paced': {
    met: "At a real call's pace with the log full the widget makes no long task, and its work per update no longer grows with the log.",
    missed:
      "At a real call's pace with the log full a long task still appears; see the table for its phase and length.",
  },
  'ratio-hover': {
    met: 'With the default `preload="intent"`, the pointer resting on the call button before the click (here a short dwell) lets the widget start loading the call and media chunks itself; the click then finds them loaded or loading, and the widget is within the target.',
    missed:
      "Even with the widget's own prefetch on pointerenter the widget is slower than the target against a baseline page given the same dwell: the chunks are in at the click (no chunk request after it), but after the click the widget runs more on the main thread than the bare page (its in-call renders, the service's GraphQL session, its setup); see the step table.",
  },
  'ratio-prompt': {
    met: 'On a first visit the microphone prompt (1.5 s here, both pages alike) hides the lazy load: the click fetches and runs both chunks while the visitor reads the prompt, so the widget reaches first audio about as soon as a page that had livekit-client loaded all along.',
    missed:
      'Even behind a 1.5 s microphone prompt the widget is slower than the target: what follows the grant (the dial, the join) is slower than the bare page\'s; see the "microphone prompt" column of the step table.',
  },
  'ratio-again': {
    met: 'A second call in the same page is about as fast as the bare baseline or faster (warm connections and JIT).',
    missed:
      'A second call in the same page is slower than 0.8× the baseline: it skips the chunks and the cold JIT, but still runs the service\'s GraphQL session and the in-call renders the bare page does not (see the "call again" column of the step table).',
  },
  heap: {
    met: "Heap growth stays within 1.5 MB over the call cycles. A heap-snapshot diff over call cycles (issue 31) found every call's livekit Room kept for the page's life, with its engine's AbortControllers and the MediaStreams its tracks joined (livekit-client 2.23.0's `devicechange` listener and FinalizationRegistry entry both held it), and `AbortSignal.timeout` signals alive until their timers fired; both are released now. What remains per call is the empty getUserMedia stream Chromium keeps with its promise.",
    missed:
      "Heap growth is over 1.5 MB. The heap figure is V8's used size, which includes optimised code (warm-up: compare the two halves in the table). A heap-snapshot diff over call cycles (issue 31) found every call's livekit Room kept for the page's life (livekit-client 2.23.0's `devicechange` listener and FinalizationRegistry entry both held it) and `AbortSignal.timeout` signals alive until their timers fired; both are released now, and the snapshot then shows no AbortSignal growth and one empty getUserMedia stream per call (Chromium keeps it with its promise). What is left of the growth is JIT code and feedback vectors, and livekit-client's log strings, which DevTools keeps because the benchmark attaches it: the section's heap snapshots, before and after the cycles, split it by kind (compiled code and feedback against the page's own JavaScript objects).",
  },
  'net-audio': {
    met: "At 50 ms each way the widget's click → first agent audio is within the target of the hand-written page's (the median of per-round ratios): one request to the companion before joining (the create answers the media credentials), the dial created while getUserMedia resolves when the microphone is already granted, the chunks loaded on intent, the GraphQL session and the room join at once.",
    missed:
      "At 50 ms each way the widget's click → first agent audio is over the target of the hand-written page's; the critical-path table shows which round trips it waited for.",
  },
  'net-trips': {
    met:
      "The widget's critical path has at most half the hand-written page's browser round trips (counted by the delaying proxies, per call; the table lists them)." +
      ' ' +
      NET_TRIPS_EDGE,
    missed:
      "The widget's critical path has more than half the hand-written page's browser round trips (counted by the delaying proxies, per call). The critical-path table lists what each call waited for: the create (one round trip; the companion's two service calls inside it), the media server's signal WebSocket (its connection, the upgrade, the join and the first negotiation), the GraphQL session (connection, upgrade, `connection_init`, `subscribe`) and whatever the agent's start waited for after it." +
      ' ' +
      NET_TRIPS_EDGE,
  },
  'call-load': { met: CALL_LOAD_NOTE, missed: CALL_LOAD_NOTE },
  'answer-to-join': { met: JOIN_NOTE, missed: JOIN_NOTE },
  leftovers: {
    met: 'Nothing is left behind after the call cycles: no live track, no open peer connection, no audio element, no extra listener on window or document.',
    missed: 'Something is left behind after the calls; the table shows what.',
  },
};
/** How the time-to-talk figures are made (docs/development.md, Benchmarks, says the same at more length). */
const METHOD =
  "- **Method (time to talk).** Ratios are per round: each widget call over the baseline call of the same round (their order alternates every round), the median of those ratios with their interquartile range (IQR); a verdict is on the median. On loopback both clocks include the microphone request (the widget's click makes it; the bare livekit-client page's clock starts before its own), and one row holds getUserMedia 1.5 s on both pages (a first visit's permission prompt). On the network the browser's round trips on the critical path are counted by the delaying proxies, per call (an integer; the tables list what each was); the figure inferred from the times stays beside it as a cross-check. With `BENCH_COMPARE_REF` the other commit's widget makes the same calls in the same rounds, so before and after are side by side on one machine under the same load.";
const notes = sections.flatMap((section) =>
  section.headline.flatMap((row) => {
    const note = NOTES[row.id];
    if (!note) return [];
    return [
      `- **${section.title}, ${row.metric}: ${row.measured}** (${row.target}, ${row.verdict}). ${row.verdict === 'met' ? note.met : note.missed}`,
    ];
  }),
);
const headline = sections.flatMap((section) =>
  section.headline.map((row) => [`${section.title}: ${row.metric}`, row.measured, row.target, row.verdict]),
);
const markdown = [
  '# Benchmarks',
  '',
  'Written by `npm run bench` (bench/run.ts); every number below is from the run described here. No benchmark asserts a time: each timing comparison is measured side by side in the same run.',
  '',
  ...machine,
  '',
  '## Headline',
  '',
  table(['metric', 'measured', 'target', 'verdict'], headline, 4),
  '',
  '## Notes',
  '',
  METHOD,
  '',
  ...notes,
  '',
  ...sections.flatMap((section) => [`## ${section.title}`, '', section.markdown, '']),
  `Reproduce: \`npm install\`, the system packages \`.ci/run\` installs (chromium, espeak-ng, sox, iproute2, util-linux, redis-server), then \`npm run bench\` (or \`npm run bench -- weight companion talk network endurance\` for a subset; \`BENCH_COMPARE_REF=<git ref>\` adds that version's companion and limiter, and its widget in both time-to-talk sections, the call cycles and the long transcript, side by side). Children's logs: \`${LOG_FILE}\`.`,
  '',
].join('\n');
const out = resolve(ROOT, process.env.BENCH_OUT ?? 'BENCHMARKS.md');
// The media soak is a run of its own (`npm run soak:media`, about 12 minutes of calls): its section,
// written from that run's report, is kept as it is when the benchmarks are written again.
const kept = existsSync(out)
  ? (/\n(## Media room soak\n[\s\S]*?)(?=\n## |$)/.exec(readFileSync(out, 'utf8'))?.[1] ?? '')
  : '';
writeFileSync(out, kept ? `${markdown}\n${kept.trimEnd()}\n` : markdown);
console.log(markdown);
log(`wrote ${out} in ${seconds.toFixed(0)} s`);
