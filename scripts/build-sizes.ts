// Measures the CDN build: what a page downloads before any interaction (the idle entry and
// anything it imports statically) and each lazily imported chunk (when it loads, and which
// modules fill it), raw, gzip -9 and brotli -11. Prints a table and writes dist/cdn/sizes.json.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { docPath, SIZES_PAGE } from './docs.js';
import { FEATURE_ROWS, type FeatureName, type FeatureRow } from '../src/features/registry.js';

const CDN = fileURLToPath(new URL('../dist/cdn/', import.meta.url));
const ENTRY = 'voice-agent-call.js';

/**
 * The idle entry's budget, gzip -9: the package test fails above it. It is the target, 12 KiB,
 * which also holds the lookup for a call to take up (a stored call, a re-mounted element's call)
 * that must run before any interaction.
 */
export const IDLE_ENTRY_BUDGET_GZIP = 12 * 1024;

/** One source module's share of a built file: the minified bytes its source map gives it. */
export interface ModuleShare {
  /** `src/…` for the package's own modules, the package name for a dependency. */
  module: string;
  bytes: number;
}

export interface FileSize {
  file: string;
  bytes: number;
  gzip: number;
  brotli: number;
  /** When a page loads it. */
  loads?: string;
  /** Its largest modules, largest first (from its source map). */
  modules?: ModuleShare[];
}
export interface CdnSizes {
  /** Loaded by the script tag, before any interaction. */
  initial: FileSize[];
  /** Loaded later: the call chunk, the media chunk, other languages. */
  lazy: FileSize[];
}

/** The registry row (src/features/registry.ts) whose chunk `file` is: `chunks/<row>-…`, its part when `<row>-part`. */
export function featureChunk(
  file: string,
): { name: FeatureName; row: FeatureRow; side: 'part' | 'session' } | undefined {
  const found = FEATURE_ROWS.find(([name]) => file.startsWith(`chunks/${name}-`));
  if (!found) return undefined;
  const [name, row] = found;
  return { name, row, side: file.startsWith(`chunks/${name}-part-`) ? 'part' : 'session' };
}

/** What an optional feature's chunk holds and when it loads, from its registry row. */
function partChunk(file: string): { holds: string; loads: string } | undefined {
  const chunk = featureChunk(file);
  if (!chunk) return undefined;
  const { name, row, side } = chunk;
  const { asks } = row;
  const when =
    asks === 'controls'
      ? `\`controls\` names \`${name}\``
      : `\`${asks.attribute}${asks.value === undefined ? '' : `="${asks.value}"`}\``;
  if (side === 'part') return { holds: `${name}: its view part`, loads: `with the call chunk, only when ${when}` };
  const option =
    asks === 'controls'
      ? '`features` names it, or on the first use of its method'
      : `its option \`${asks.attribute}\` asks`;
  return {
    holds: `${name}: its session side`,
    loads: `with the call chunk when ${when}; a CallSession loads it when ${option}`,
  };
}

/** When the devices chunk loads (src/features/devices/devices-chunk.ts). */
const DEVICES_LOADS =
  'when the pointer or focus reaches the devices toggle, or on its click; a CallSession loads it on `setMicrophone` or `setSpeaker`, with `rememberDevices`, or when the microphone in use may have gone';

/** When each kind of lazy chunk loads, by its name. */
function loadsWhen(file: string): string {
  if (file === ENTRY) return 'with the script tag';
  if (/^chunks\/in-call-/.test(file))
    return 'call chunk: on intent (pointer/focus on the call button or launcher), in idle time with `preload="idle"`, or on the click';
  if (/^chunks\/livekit-media-/.test(file))
    return 'media chunk (livekit-client): at the same moments, beside the call chunk';
  if (/^chunks\/errors-/.test(file)) return 'the error classes both of those use: fetched beside them';
  if (/^chunks\/strings-/.test(file)) return 'a language: when `lang` asks for it';
  if (/^chunks\/consent-gate-/.test(file))
    return 'the consent gate: on intent or the click of an element with `consent`, before the call chunk, which loads behind it';
  if (/^chunks\/devices-chunk-/.test(file)) return `the devices chunk: ${DEVICES_LOADS}`;
  const part = partChunk(file);
  if (part) return `an optional feature's chunk (${part.holds}): ${part.loads}`;
  return 'lazily';
}

/** Minified bytes per source module, from the file's source map (null without one). */
export function moduleShares(file: string, top = 8, cdn = CDN): ModuleShare[] | null {
  if (!existsSync(`${cdn}${file}.map`)) return null;
  const code = readFileSync(cdn + file, 'utf8');
  const map = JSON.parse(readFileSync(`${cdn}${file}.map`, 'utf8')) as { sources: string[]; mappings: string };
  const lines = code.split('\n');
  const bytes = new Map<string, number>();
  const name = (source: string): string =>
    source.includes('node_modules/')
      ? (source
          .split('node_modules/')
          .at(-1)
          ?.match(/^(@[^/]+\/[^/]+|[^/]+)/)?.[1] ?? source)
      : source.replace(/^.*?\bsrc\//, 'src/');
  let sourceIndex = 0;
  map.mappings.split(';').forEach((line, lineIndex) => {
    let column = 0;
    const points: Array<[number, number]> = [];
    for (const segment of line ? line.split(',') : []) {
      const [columnDelta = 0, sourceDelta] = decodeVlq(segment);
      column += columnDelta;
      if (sourceDelta !== undefined) {
        sourceIndex += sourceDelta;
        points.push([column, sourceIndex]);
      } else {
        points.push([column, -1]);
      }
    }
    points.forEach(([start, source], i) => {
      if (source < 0) return;
      const end = points[i + 1]?.[0] ?? lines[lineIndex]?.length;
      const path = map.sources[source];
      if (end === undefined || path === undefined) throw new Error(`${file}.map does not fit ${file}`);
      const key = name(path);
      bytes.set(key, (bytes.get(key) ?? 0) + end - start);
    });
  });
  return [...bytes]
    .map(([module, size]) => ({ module, bytes: size }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, top);
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** One source-map segment's fields (base64 VLQ). */
function decodeVlq(segment: string): number[] {
  const fields: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      fields.push(value & 1 ? -(value >> 1) : value >> 1);
      value = 0;
      shift = 0;
    }
  }
  return fields;
}

function measure(file: string, cdn = CDN): FileSize {
  const content = readFileSync(cdn + file);
  const modules = moduleShares(file, 8, cdn);
  return {
    file,
    bytes: content.length,
    gzip: gzipSync(content, { level: 9 }).length,
    brotli: brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    loads: loadsWhen(file),
    ...(modules ? { modules } : {}),
  };
}

/** Relative imports of a built module: static (`from"./x.js"`, `import"./x.js"`) and dynamic (`import("./x.js")`). */
function importsOf(file: string, cdn = CDN): { static: string[]; dynamic: string[] } {
  const source = readFileSync(cdn + file, 'utf8');
  const resolve = (specifier: string): string => new URL(specifier, `file:///${file}`).pathname.slice(1);
  const specifiers = (pattern: RegExp): string[] =>
    [...source.matchAll(pattern)].flatMap(([, specifier]) => (specifier ? [resolve(specifier)] : []));
  const statics = specifiers(/(?:\bfrom\s*|\bimport\s*)["'`](\.{1,2}\/[^"'`]+)["'`]/g);
  const dynamics = specifiers(/\bimport\(\s*["'`](\.{1,2}\/[^"'`]+)["'`]\s*\)/g);
  return { static: statics, dynamic: dynamics };
}

/** Walks the module graph from the entry: static imports are initial, dynamic ones lazy. */
/** `cdn`: another build's folder (ending in `/`), e.g. an older commit's for a side-by-side bench. */
export function cdnSizes(cdn = CDN): CdnSizes {
  const initial = new Set<string>();
  const lazy = new Set<string>();
  const visit = (file: string, isLazy: boolean): void => {
    const bucket = isLazy ? lazy : initial;
    if (initial.has(file) || bucket.has(file)) return;
    bucket.add(file);
    const { static: statics, dynamic } = importsOf(file, cdn);
    for (const next of statics) visit(next, isLazy);
    for (const next of dynamic) visit(next, true);
  };
  visit(ENTRY, false);
  const all = readdirSync(cdn, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
  const unreached = all.filter((file) => !initial.has(file) && !lazy.has(file));
  if (unreached.length > 0) throw new Error(`built files no import reaches: ${unreached.join(', ')}`);
  // The call chunk first, then the media chunk, then languages and the devices chunk: the order they load in.
  const rank = (file: string): number =>
    [
      'chunks/in-call-',
      'chunks/livekit-media-',
      'chunks/errors-',
      'chunks/strings-',
      'chunks/devices-chunk-',
    ].findIndex((prefix) => file.startsWith(prefix)) >>> 0;
  const measureIn = (file: string) => measure(file, cdn);
  return {
    initial: [...initial].map(measureIn),
    lazy: [...lazy].sort((a, b) => rank(a) - rank(b)).map(measureIn),
  };
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;

/** A chunk file's content hash: six characters (vite.cdn.config.ts `chunkFileNames`). */
const CHUNK_HASH = /-[\w-]{6}\.js$/;

/** `chunks/in-call-Ab12Cd.js` → `chunks/in-call-[hash].js`. */
export const unhashed = (file: string): string => file.replace(CHUNK_HASH, '-[hash].js');

/** The largest modules of a file, e.g. "lit-html 6.9 KiB, src/element/voice-agent-call.ts 6.0 KiB". */
export function contents(size: FileSize, top = 5): string {
  return (size.modules ?? [])
    .slice(0, top)
    .map((share) => `${share.module} ${kb(share.bytes)}`)
    .join(', ');
}

export function sizesTable(sizes: CdnSizes): string {
  const rows = [...sizes.initial, ...sizes.lazy].map(
    (size) =>
      `| \`${unhashed(size.file)}\` | ${size.loads ?? ''} | ${kb(size.bytes)} | ${kb(size.gzip)} | ${kb(size.brotli)} | ${contents(size)} |`,
  );
  return [
    '| file | loaded | raw | gzip | brotli | largest modules (minified) |',
    '|---|---|---:|---:|---:|---|',
    ...rows,
  ].join('\n');
}

export const README_SIZES_START =
  '<!-- cdn-sizes:start (generated by scripts/build-sizes.ts --readme after `npm run build`) -->';
export const README_SIZES_END = '<!-- cdn-sizes:end -->';

/** What each file holds, for the README's page-weight table. */
function holds(file: string): string {
  if (file === ENTRY) return 'Lit, element shell, idle styles, idle English';
  if (file.startsWith('chunks/in-call-')) return 'call logic, in-call UI and styles, English';
  if (file.startsWith('chunks/livekit-media-')) return `livekit-client ${livekitVersion()}`;
  if (file.startsWith('chunks/errors-')) return 'the error classes both use';
  if (file.startsWith('chunks/strings-ar-')) return 'Arabic';
  if (file.startsWith('chunks/consent-gate-')) return 'the consent gate: its disclosure, styles and English';
  if (file.startsWith('chunks/devices-chunk-'))
    return "devices: the microphone and speaker menu and the session's side of choosing";
  return partChunk(file)?.holds ?? '';
}

/** When each file loads, short, for the README's page-weight table. */
function loadsShort(file: string): string {
  if (file === ENTRY) return 'with the script tag';
  if (file.startsWith('chunks/in-call-')) return 'on intent, in idle time or on the click';
  if (file.startsWith('chunks/livekit-media-')) return 'beside the call chunk';
  if (file.startsWith('chunks/errors-')) return 'beside them';
  if (file.startsWith('chunks/strings-')) return 'when `lang` asks for it';
  if (file.startsWith('chunks/consent-gate-'))
    return 'on intent or the click, only with `consent`; needs no call chunk';
  if (file.startsWith('chunks/devices-chunk-')) return DEVICES_LOADS;
  return partChunk(file)?.loads ?? 'lazily';
}

export function livekitVersion(): string {
  const pkg = JSON.parse(
    readFileSync(fileURLToPath(new URL('../node_modules/livekit-client/package.json', import.meta.url)), 'utf8'),
  ) as { version: string };
  return pkg.version;
}

const bytesAndKib = (bytes: number): string => `${bytes.toLocaleString('en-US')} B (${kb(bytes)})`;

/**
 * The README's page-weight table, between its markers. Typed figures went stale with every
 * change to the element; this one is rewritten by `--readme` and checked by package-cdn.test.ts.
 */
export function readmeSizesSection(sizes: CdnSizes): string {
  const rows = [...sizes.initial, ...sizes.lazy].map(
    (size) =>
      `| \`${unhashed(size.file)}\` (${holds(size.file)}) | ${loadsShort(size.file)} | ${bytesAndKib(size.bytes)} | ${bytesAndKib(size.gzip)} | ${bytesAndKib(size.brotli)} |`,
  );
  return [
    README_SIZES_START,
    '',
    '| file | loaded | raw | gzip | brotli |',
    '|---|---|---:|---:|---:|',
    ...rows,
    '',
    README_SIZES_END,
  ].join('\n');
}

export function replaceReadmeSizes(readme: string, section: string): string {
  const start = readme.indexOf(README_SIZES_START);
  const end = readme.indexOf(README_SIZES_END);
  if (start === -1 || end === -1 || end < start) throw new Error(`${SIZES_PAGE} has no cdn-sizes markers`);
  return readme.slice(0, start) + section + readme.slice(end + README_SIZES_END.length);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const sizes = cdnSizes();
  writeFileSync(`${CDN}sizes.json`, `${JSON.stringify(sizes, null, 2)}\n`);
  console.log(sizesTable(sizes));
  if (process.argv.includes('--readme')) {
    const readmePath = docPath(SIZES_PAGE);
    writeFileSync(readmePath, replaceReadmeSizes(readFileSync(readmePath, 'utf8'), readmeSizesSection(sizes)));
    console.log(`rewrote the page-weight table in ${SIZES_PAGE}`);
  }
  const entry = sizes.initial.find((size) => size.file === ENTRY);
  if (!entry) throw new Error(`${ENTRY} is not among the files the page loads first`);
  if (entry.gzip > IDLE_ENTRY_BUDGET_GZIP) {
    console.warn(
      `the idle entry is ${entry.gzip} B gzip, over its ${IDLE_ENTRY_BUDGET_GZIP} B budget (test/node/package-cdn.test.ts fails)`,
    );
  }
}
