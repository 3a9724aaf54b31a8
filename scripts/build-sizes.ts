// Measures the CDN build: what a page downloads before the first click (the entry and anything it
// imports statically) and what the first call adds (the lazily imported chunks), raw, gzip -9
// and brotli -11. Prints a table and writes dist/cdn/sizes.json.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const CDN = fileURLToPath(new URL('../dist/cdn/', import.meta.url));
const ENTRY = 'voice-agent-call.js';

export interface FileSize {
  file: string;
  bytes: number;
  gzip: number;
  brotli: number;
}
export interface CdnSizes {
  /** Loaded by the script tag, before any call. */
  initial: FileSize[];
  /** Loaded when the first call starts. */
  lazy: FileSize[];
}

function measure(file: string): FileSize {
  const content = readFileSync(CDN + file);
  return {
    file,
    bytes: content.length,
    gzip: gzipSync(content, { level: 9 }).length,
    brotli: brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/** Relative imports of a built module: static (`from"./x.js"`, `import"./x.js"`) and dynamic (`import("./x.js")`). */
function importsOf(file: string): { static: string[]; dynamic: string[] } {
  const source = readFileSync(CDN + file, 'utf8');
  const resolve = (specifier: string): string => new URL(specifier, `file:///${file}`).pathname.slice(1);
  const statics = [...source.matchAll(/(?:\bfrom\s*|\bimport\s*)["'`](\.{1,2}\/[^"'`]+)["'`]/g)].map((m) => resolve(m[1]!));
  const dynamics = [...source.matchAll(/\bimport\(\s*["'`](\.{1,2}\/[^"'`]+)["'`]\s*\)/g)].map((m) => resolve(m[1]!));
  return { static: statics, dynamic: dynamics };
}

/** Walks the module graph from the entry: static imports are initial, dynamic ones lazy. */
export function cdnSizes(): CdnSizes {
  const initial = new Set<string>();
  const lazy = new Set<string>();
  const visit = (file: string, isLazy: boolean): void => {
    const bucket = isLazy ? lazy : initial;
    if (initial.has(file) || bucket.has(file)) return;
    bucket.add(file);
    const { static: statics, dynamic } = importsOf(file);
    for (const next of statics) visit(next, isLazy);
    for (const next of dynamic) visit(next, true);
  };
  visit(ENTRY, false);
  const all = readdirSync(CDN, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
  const unreached = all.filter((file) => !initial.has(file) && !lazy.has(file));
  if (unreached.length > 0) throw new Error(`built files no import reaches: ${unreached.join(', ')}`);
  return { initial: [...initial].map(measure), lazy: [...lazy].map(measure) };
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;

export function sizesTable(sizes: CdnSizes): string {
  const rows = [
    '| file | loaded | raw | gzip | brotli |',
    '|---|---|---:|---:|---:|',
    ...sizes.initial.map((size) => [size, 'with the script tag'] as const),
    ...sizes.lazy.map((size) => [size, 'on the first call'] as const),
  ].map((row) => (typeof row === 'string' ? row : `| \`${row[0].file.replace(/-[\w-]{8}\.js$/, '-[hash].js')}\` | ${row[1]} | ${kb(row[0].bytes)} | ${kb(row[0].gzip)} | ${kb(row[0].brotli)} |`));
  return rows.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const sizes = cdnSizes();
  writeFileSync(`${CDN}sizes.json`, `${JSON.stringify(sizes, null, 2)}\n`);
  console.log(sizesTable(sizes));
}
