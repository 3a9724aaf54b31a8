// Page weight: what a script-tag page loads while idle (the CDN entry and anything it imports
// statically), each lazy chunk (the call chunk and the media chunk on intent or the first call,
// other languages when asked for) with what fills it, gzip -9 and brotli -11, beside
// livekit-client's own ESM bundle from node_modules, all measured in one run.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { cdnSizes, unhashed, type FileSize } from '../scripts/build-sizes.js';
import { esbuildMinified } from './lib/esbuild.js';
import type { RefTree } from './lib/git-ref.js';
import { ROOT, buildCdn } from './lib/services.js';
import { kb, table, type BenchSection } from './lib/stats.js';

const EXTRA_BUDGET_GZIP = 25 * 1024;
/** Issue 35's target for the call's own code with the defaults: the call chunk and the error classes. */
const CALL_CODE_BUDGET_GZIP = 18 * 1024;
/** The chunks every call loads; the others are optional features' (or languages). */
const DEFAULT_CALL_CHUNK = /^chunks\/(in-call|livekit-media|errors)-/;
/** The idle entry's target (the package test's budget allows a little more: scripts/build-sizes.ts). */
const IDLE_ENTRY_BUDGET_GZIP = 12 * 1024;

function measureFile(path: string, label: string): FileSize {
  const content = readFileSync(path);
  return {
    file: label,
    bytes: content.length,
    gzip: gzipSync(content, { level: 9 }).length,
    brotli: brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

const sum = (files: FileSize[]): FileSize =>
  files.reduce(
    (total, file) => ({
      file: total.file,
      bytes: total.bytes + file.bytes,
      gzip: total.gzip + file.gzip,
      brotli: total.brotli + file.brotli,
    }),
    {
      file: '',
      bytes: 0,
      gzip: 0,
      brotli: 0,
    },
  );

/** `before`: an older commit (checked out with CDN_BUILD_PATHS) whose CDN build is measured beside this one. */
export async function pageWeight({ before }: { before?: RefTree } = {}): Promise<BenchSection> {
  const entry = join(ROOT, 'dist/cdn/voice-agent-call.js');
  let source =
    'the existing `dist/cdn` build (`npm run build:cdn`: Vite; the call logic, livekit-client and other languages as lazy chunks)';
  if (!existsSync(entry)) {
    execFileSync(
      process.execPath,
      [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'vite.cdn.config.ts'],
      { cwd: ROOT, stdio: 'inherit' },
    );
    source = '`dist/cdn`, built by the benchmark with `vite build --config vite.cdn.config.ts` (no build was present)';
  }
  const sizes = cdnSizes();
  const files = [...sizes.initial, ...sizes.lazy];
  const languages = sizes.lazy.filter((file) => /^chunks\/strings-/.test(file.file));
  const lazyCode = sizes.lazy.filter((file) => !languages.includes(file));
  // What every call loads (the defaults: `controls="mute devices"`, no consent, rating or persist);
  // each optional feature's chunk is listed on its own and counts only where its attribute asks.
  const call = lazyCode.filter((file) => DEFAULT_CALL_CHUNK.test(file.file));
  const optional = lazyCode.filter((file) => !call.includes(file));
  const initial = { ...sum(sizes.initial), file: 'idle: before any interaction (entry + static imports)' };
  const firstCall = {
    ...sum(call),
    file: 'added on intent or the first call, the defaults (call chunk + media chunk + errors)',
  };
  const everything = {
    ...sum([...sizes.initial, ...call]),
    file: 'widget total for an English call with the defaults (idle + call + media)',
  };
  const callCode = sum(call.filter((file) => !/^chunks\/livekit-media-/.test(file.file))).gzip;
  const allFeatures = {
    ...sum(optional),
    file: 'every optional feature chunk at once (all `controls`, `consent`, `feedback`, `persist`)',
  };
  const livekit = measureFile(
    join(ROOT, 'node_modules/livekit-client/dist/livekit-client.esm.mjs'),
    'livekit-client.esm.mjs (node_modules, unminified ESM)',
  );
  const livekitVersion = (
    JSON.parse(readFileSync(join(ROOT, 'node_modules/livekit-client/package.json'), 'utf8')) as { version: string }
  ).version;
  const livekitMin = minified(join(ROOT, 'node_modules/livekit-client/dist/livekit-client.esm.mjs'));
  // The older build's gzip bytes by unhashed file name, and its three totals, for the "before" column.
  let earlier: {
    files: Map<string, number>;
    initial: number;
    firstCall: number;
    everything: number;
    callCode: number;
    allFeatures: number;
  } | null = null;
  if (before) {
    buildCdn(before);
    const old = cdnSizes(join(before.root, 'dist/cdn/'));
    const oldCall = old.lazy.filter((file) => !/^chunks\/strings-/.test(file.file));
    const oldDefault = oldCall.filter((file) => DEFAULT_CALL_CHUNK.test(file.file));
    earlier = {
      files: new Map([...old.initial, ...old.lazy].map((file) => [unhashed(file.file), file.gzip])),
      initial: sum(old.initial).gzip,
      firstCall: sum(oldDefault).gzip,
      everything: sum([...old.initial, ...oldDefault]).gzip,
      callCode: sum(oldDefault.filter((file) => !/^chunks\/livekit-media-/.test(file.file))).gzip,
      allFeatures: sum(oldCall.filter((file) => !oldDefault.includes(file))).gzip,
    };
  }
  const beforeOf = (bytes: number | undefined): string[] => (earlier ? [bytes === undefined ? '—' : kb(bytes)] : []);

  const rows = [
    ...files.map((file) => [
      `\`${unhashed(file.file)}\``,
      file.loads ?? '',
      kb(file.bytes),
      kb(file.gzip),
      ...beforeOf(earlier?.files.get(unhashed(file.file))),
      kb(file.brotli),
    ]),
    ...(
      [
        [initial, earlier?.initial],
        [firstCall, earlier?.firstCall],
        [everything, earlier?.everything],
        [allFeatures, earlier?.allFeatures],
        [livekit, livekit.gzip],
        ...(livekitMin ? [[livekitMin, livekitMin.gzip]] : []),
      ] as Array<[FileSize, number | undefined]>
    ).map(([file, old]) => [file.file, '', kb(file.bytes), kb(file.gzip), ...beforeOf(old), kb(file.brotli)]),
  ];
  const extra = everything.gzip - (livekitMin ?? livekit).gzip;
  const initialOk = initial.gzip <= IDLE_ENTRY_BUDGET_GZIP;
  const extraOk = extra <= EXTRA_BUDGET_GZIP;
  const callCodeOk = callCode <= CALL_CODE_BUDGET_GZIP;
  const reference = livekitMin ? 'livekit-client minified by esbuild in this run' : 'livekit-client.esm.mjs as shipped';
  const markdown = [
    `Measured: ${source}. livekit-client ${livekitVersion}. gzip level 9, brotli quality 11, sizes in KiB (1 KB = 1024 bytes).${before ? ` "gzip before": the CDN build of commit ${before.commit}, built in this run (— where that build has no such file).` : ''}`,
    '',
    table(['file', 'loaded', 'raw', 'gzip', ...(before ? ['gzip before'] : []), 'brotli'], rows, 2),
    '',
    `- Idle, before any interaction: **${kb(initial.gzip)} gzip** (${kb(initial.brotli)} brotli); target ≤ 12 KB gzip — ${initialOk ? `met, ${kb(IDLE_ENTRY_BUDGET_GZIP - initial.gzip)} to spare` : `**missed by ${kb(initial.gzip - IDLE_ENTRY_BUDGET_GZIP)}**`}.`,
    `- The call's own code for the defaults (the call chunk and the error classes, not livekit-client and the media code beside it): **${kb(callCode)} gzip**; target ≤ 18 KB (issue 35) — ${callCodeOk ? 'met' : `**missed by ${kb(callCode - CALL_CODE_BUDGET_GZIP)}**`}. Each optional feature's chunk is in the table, loaded only where its attribute asks for it.`,
    `- Everything for an English call with the defaults: ${kb(everything.gzip)} gzip = ${reference} (${kb((livekitMin ?? livekit).gzip)}) + **${kb(extra)}**; target ≤ livekit-client + 25 KB — ${extraOk ? `met, ${kb(EXTRA_BUDGET_GZIP - extra)} to spare` : `**missed by ${kb(extra - EXTRA_BUDGET_GZIP)}**`}.`,
    '',
    'What each file holds (its source map: minified bytes per module, the largest first; a dependency counts as its package):',
    '',
    table(
      ['file', 'largest modules'],
      files.map((file) => [
        `\`${unhashed(file.file)}\``,
        (file.modules ?? []).map((share) => `\`${share.module}\` ${kb(share.bytes)}`).join(', '),
      ]),
      2,
    ),
  ].join('\n');
  return {
    title: 'Page weight',
    markdown,
    headline: [
      {
        id: 'initial',
        metric: 'idle entry, before any interaction (gzip)',
        measured: withBefore(initial.gzip, earlier?.initial),
        target: '≤ 12 KB',
        verdict: initialOk ? 'met' : `missed by ${kb(initial.gzip - IDLE_ENTRY_BUDGET_GZIP)}`,
      },
      {
        id: 'call-code',
        metric: 'call code for the defaults, besides livekit-client (call chunk + errors, gzip)',
        measured: withBefore(callCode, earlier?.callCode),
        target: '≤ 18 KB',
        verdict: callCodeOk ? 'met' : `missed by ${kb(callCode - CALL_CODE_BUDGET_GZIP)}`,
      },
      ...lazyCode.map((file) => ({
        id: `chunk-${unhashed(file.file)}`,
        metric: `lazy \`${unhashed(file.file)}\` (gzip)`,
        measured: withBefore(file.gzip, earlier ? (earlier.files.get(unhashed(file.file)) ?? null) : undefined),
        target: '—',
        verdict: '—',
      })),
      {
        id: 'total',
        metric: 'everything for a call with the defaults − livekit-client (gzip)',
        measured: `+${kb(extra)}${earlier ? ` (before: +${kb(earlier.everything - (livekitMin ?? livekit).gzip)})` : ''}`,
        target: '≤ +25 KB',
        verdict: extraOk ? 'met' : `missed by ${kb(extra - EXTRA_BUDGET_GZIP)}`,
      },
    ],
  };
}

/** `now`, and what the older build had: `(before: …)`, `(before: none)` for a file it lacked, nothing without a side-by-side build. */
function withBefore(now: number, old: number | null | undefined): string {
  if (old === undefined) return kb(now);
  return `${kb(now)} (before: ${old === null ? 'none' : kb(old)})`;
}

/** livekit-client's ESM bundle minified with esbuild, the fair comparison for a minified widget (null without esbuild). */
function minified(path: string): FileSize | null {
  try {
    const output = esbuildMinified([path]);
    if (!output) return null;
    return {
      file: 'livekit-client.esm.mjs minified (esbuild --minify, this run)',
      bytes: output.length,
      gzip: gzipSync(output, { level: 9 }).length,
      brotli: brotliCompressSync(output, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    };
  } catch {
    return null;
  }
}
