// Page weight: what a script-tag page loads before the first click (the CDN entry and anything
// it imports statically) and what the first call adds (the lazy media chunk), gzip -9 and
// brotli -11, beside livekit-client's own ESM bundle from node_modules, all measured in one run.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { cdnSizes, type FileSize } from '../scripts/build-sizes.js';
import { ROOT } from './lib/services.js';
import { kb, table, type BenchSection } from './lib/stats.js';

const INITIAL_BUDGET_GZIP = 15 * 1024;
const EXTRA_BUDGET_GZIP = 25 * 1024;

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
  files.reduce((total, file) => ({ file: total.file, bytes: total.bytes + file.bytes, gzip: total.gzip + file.gzip, brotli: total.brotli + file.brotli }), {
    file: '',
    bytes: 0,
    gzip: 0,
    brotli: 0,
  });

export async function pageWeight(): Promise<BenchSection> {
  const entry = join(ROOT, 'dist/cdn/voice-agent-call.js');
  let source = 'the existing `dist/cdn` build (`npm run build:cdn`: Vite, livekit-client as a lazy chunk)';
  if (!existsSync(entry)) {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'vite.cdn.config.ts'], { cwd: ROOT, stdio: 'inherit' });
    source = '`dist/cdn`, built by the benchmark with `vite build --config vite.cdn.config.ts` (no build was present)';
  }
  const sizes = cdnSizes();
  const initial = { ...sum(sizes.initial), file: 'before the first click (entry + static imports)' };
  const lazy = { ...sum(sizes.lazy), file: 'lazy media chunk(s), on the first call' };
  const everything = { ...sum([...sizes.initial, ...sizes.lazy]), file: 'widget total' };
  const livekit = measureFile(join(ROOT, 'node_modules/livekit-client/dist/livekit-client.esm.mjs'), 'livekit-client.esm.mjs (node_modules, unminified ESM)');
  const livekitVersion = (JSON.parse(readFileSync(join(ROOT, 'node_modules/livekit-client/package.json'), 'utf8')) as { version: string }).version;
  const livekitMin = minified(join(ROOT, 'node_modules/livekit-client/dist/livekit-client.esm.mjs'));

  const rows = [...sizes.initial.map((file) => ({ ...file, file: `\`${file.file}\` (initial)` })), ...sizes.lazy.map((file) => ({ ...file, file: `\`${file.file}\` (lazy)` })), initial, lazy, everything, livekit, ...(livekitMin ? [livekitMin] : [])];
  const extra = everything.gzip - (livekitMin ?? livekit).gzip;
  const initialOk = initial.gzip <= INITIAL_BUDGET_GZIP;
  const extraOk = extra <= EXTRA_BUDGET_GZIP;
  const reference = livekitMin ? 'livekit-client minified by esbuild in this run' : 'livekit-client.esm.mjs as shipped';
  const breakdown = entryBreakdown(join(ROOT, 'dist/cdn/voice-agent-call.js.map'));
  const markdown = [
    `Measured: ${source}. livekit-client ${livekitVersion}. gzip level 9, brotli quality 11, sizes in KiB (1 KB = 1024 bytes).`,
    '',
    table(
      ['file', 'raw', 'gzip', 'brotli'],
      rows.map((row) => [row.file, kb(row.bytes), kb(row.gzip), kb(row.brotli)]),
    ),
    '',
    `- Before the first click: **${kb(initial.gzip)} gzip** (${kb(initial.brotli)} brotli); target ≤ 15 KB gzip — ${initialOk ? `met, ${kb(INITIAL_BUDGET_GZIP - initial.gzip)} to spare` : `**missed by ${kb(initial.gzip - INITIAL_BUDGET_GZIP)}**`}.`,
    ...(breakdown ? ['', 'What the entry holds (its source map: share of the original source text per module, before minification, comments included):', '', breakdown, ''] : []),
    `- Everything: ${kb(everything.gzip)} gzip = ${reference} (${kb((livekitMin ?? livekit).gzip)}) + **${kb(extra)}**; target ≤ livekit-client + 25 KB — ${extraOk ? `met, ${kb(EXTRA_BUDGET_GZIP - extra)} to spare` : `**missed by ${kb(extra - EXTRA_BUDGET_GZIP)}**`}.`,
  ].join('\n');
  return {
    title: 'Page weight',
    markdown,
    headline: [
      { id: 'initial', metric: 'before the first click (gzip)', measured: kb(initial.gzip), target: '≤ 15 KB', verdict: initialOk ? 'met' : `missed by ${kb(initial.gzip - INITIAL_BUDGET_GZIP)}` },
      { id: 'total', metric: 'everything − livekit-client (gzip)', measured: `+${kb(extra)}`, target: '≤ +25 KB', verdict: extraOk ? 'met' : `missed by ${kb(extra - EXTRA_BUDGET_GZIP)}` },
    ],
  };
}

/** livekit-client's ESM bundle minified with esbuild, the fair comparison for a minified widget (null without esbuild). */
function minified(path: string): FileSize | null {
  const esbuild = join(ROOT, 'node_modules/esbuild/bin/esbuild');
  if (!existsSync(esbuild)) return null;
  try {
    const output = execFileSync(esbuild, [path, '--minify', '--format=esm', '--log-level=error', `--define:process.env.NODE_ENV="production"`], { maxBuffer: 64 * 1024 * 1024 });
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

/** The entry's modules by share of original source text (from its source map), largest first. */
function entryBreakdown(mapPath: string): string | null {
  if (!existsSync(mapPath)) return null;
  const map = JSON.parse(readFileSync(mapPath, 'utf8')) as { sources: string[]; sourcesContent?: Array<string | null> };
  if (!map.sourcesContent) return null;
  const groups = new Map<string, number>();
  map.sources.forEach((source, i) => {
    const key = source.includes('node_modules/') ? source.split('node_modules/').pop()!.split('/')[0]! : source.replace(/^.*?\bsrc\//, 'src/');
    groups.set(key, (groups.get(key) ?? 0) + (map.sourcesContent![i]?.length ?? 0));
  });
  const total = [...groups.values()].reduce((a, b) => a + b, 0);
  const rows = [...groups].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([name, chars]) => [`\`${name}\``, `${(chars / 1024).toFixed(1)} K chars`, `${((chars / total) * 100).toFixed(0)} %`]);
  return table(['module', 'source', 'share'], rows);
}
