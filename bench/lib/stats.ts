// Small statistics and table helpers shared by the benchmarks.

/** Nearest-rank percentile of unsorted samples (p in 0..100); NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

/** The middle sample (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const lower = sorted[Math.ceil(sorted.length / 2) - 1];
  const upper = sorted[Math.floor(sorted.length / 2)];
  return lower === undefined || upper === undefined ? Number.NaN : (lower + upper) / 2;
}

/** Linear-interpolated quantile of unsorted samples (q in 0..1; the median at 0.5); NaN for none. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const lower = sorted[Math.floor(at)] ?? Number.NaN;
  const upper = sorted[Math.ceil(at)] ?? Number.NaN;
  return lower + (upper - lower) * (at - Math.floor(at));
}

/** The interquartile range of unsorted samples: [25th, 75th percentile]. */
export function iqr(values: readonly number[]): [number, number] {
  return [quantile(values, 0.25), quantile(values, 0.75)];
}

/** `median (IQR low–high)`, e.g. "1.12 (1.05–1.20)": the figure and the spread a reader compares rows by. */
export function withSpread(values: readonly number[], digits = 1): string {
  const [low, high] = iqr(values);
  return `${fixed(median(values), digits)} (${fixed(low, digits)}–${fixed(high, digits)})`;
}

/**
 * Each of `these` against the sample of the same round in `those` (calls of one round run next to
 * each other, under the same load): `combine(value, reference)` for every round where both are
 * known (neither null nor undefined).
 */
export function byRound<A extends { round: number }, B extends { round: number }>(
  these: readonly A[],
  value: (sample: A) => number | null,
  those: readonly B[],
  reference: (sample: B) => number | null,
  combine: (value: number, reference: number) => number,
): number[] {
  const references = new Map(those.map((sample) => [sample.round, reference(sample)]));
  return these.flatMap((sample) => {
    const mine = value(sample);
    const theirs = references.get(sample.round);
    return mine === null || theirs === null || theirs === undefined ? [] : [combine(mine, theirs)];
  });
}

export function fixed(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '—';
}

export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

/** A GitHub-flavoured markdown table; the first `leftColumns` columns left-aligned, the others right-aligned. */
export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>, leftColumns = 1): string {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, i) => (i < leftColumns ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((width, i) => (i < leftColumns ? '-'.repeat(width + 2) : `${'-'.repeat(width + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** What a benchmark hands back to the runner: a markdown section and its headline figures. */
export interface BenchSection {
  title: string;
  markdown: string;
  /** `id` keys the note the runner writes about the row. */
  headline: Array<{ id: string; metric: string; measured: string; target: string; verdict: string }>;
}
