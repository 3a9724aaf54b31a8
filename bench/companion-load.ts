// Companion overhead: the token and read routes through the companion (its CLI, one Node process,
// so one core) vs the same calls straight to the emulator. Two measurements per route, side by side
// in one run: sequential latency (one request at a time, performance.now(), p50/p99) gives the
// added latency; autocannon with 10 connections gives requests/s.
import autocannon from 'autocannon';
import { companionEnv, startChild, stopChild, type EmulatorReady } from './lib/services.js';
import { fixed, percentile, table, type BenchSection } from './lib/stats.js';

interface Target {
  label: string;
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
}

async function once(target: Target): Promise<number> {
  const started = performance.now();
  const response = await fetch(target.url, { method: target.method, headers: target.headers });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${target.label}: HTTP ${response.status}`);
  return performance.now() - started;
}

/** `count` requests to each target, alternating one by one, so noise from the neighbours lands on both sides. */
async function alternating(a: Target, b: Target, count: number): Promise<[number[], number[]]> {
  for (let i = 0; i < 100; i++) {
    await once(a);
    await once(b);
  }
  const first: number[] = [];
  const second: number[] = [];
  for (let i = 0; i < count; i++) {
    first.push(await once(a));
    second.push(await once(b));
  }
  return [first, second];
}

export async function companionLoad(options: { sequential?: number; seconds?: number } = {}): Promise<BenchSection> {
  const count = options.sequential ?? 1000;
  const seconds = options.seconds ?? 4;
  const emulator = await startChild<EmulatorReady>('src/emulator/cli.ts', ['--port', '0']);
  const companion = await startChild<{ url: string }>('src/server/cli.ts', [], companionEnv(emulator.ready, 'http://127.0.0.1')).catch(async (error: unknown) => {
    await stopChild(emulator.child);
    throw error;
  });
  try {
    const { apiUrl, apiKey } = emulator.ready;
    const base = companion.ready.url;
    const created = (await (await fetch(`${base}/dials`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"agent":"emu-demo"}' })).json()) as {
      dialId: string;
      handle: string;
    };
    const direct = { authorization: `Bearer ${apiKey}` };
    const viaCompanion = { authorization: `Bearer ${created.handle}` };
    const routes: Array<{ route: string; direct: Target; companion: Target }> = [
      {
        route: 'POST /dials/:id/token',
        direct: { label: 'direct token', url: `${apiUrl}/dials/${created.dialId}/token`, method: 'POST', headers: direct },
        companion: { label: 'companion token', url: `${base}/dials/${created.dialId}/token`, method: 'POST', headers: viaCompanion },
      },
      {
        route: 'GET /dials/:id',
        direct: { label: 'direct get', url: `${apiUrl}/dials/${created.dialId}`, method: 'GET', headers: direct },
        companion: { label: 'companion get', url: `${base}/dials/${created.dialId}`, method: 'GET', headers: viaCompanion },
      },
    ];
    const rows: string[][] = [];
    const loadRows: string[][] = [];
    const headline: BenchSection['headline'] = [];
    for (const route of routes) {
      const [d, c] = await alternating(route.direct, route.companion, count);
      const added50 = percentile(c, 50) - percentile(d, 50);
      const added99 = percentile(c, 99) - percentile(d, 99);
      rows.push([`${route.route}, emulator directly`, fixed(percentile(d, 50), 3), fixed(percentile(d, 99), 3), '']);
      rows.push([`${route.route}, through the companion`, fixed(percentile(c, 50), 3), fixed(percentile(c, 99), 3), '']);
      rows.push([`${route.route}, **added**`, `**${fixed(added50, 3)}**`, `**${fixed(added99, 3)}**`, added50 <= 1 ? 'met (≤ 1 ms at p50)' : `missed by ${fixed(added50 - 1, 3)} ms`]);
      headline.push({ id: route.route.startsWith('POST') ? 'companion-token' : 'companion-read', metric: `companion adds, p50 (${route.route})`, measured: `${fixed(added50, 3)} ms`, target: '≤ 1 ms', verdict: added50 <= 1 ? 'met' : `missed by ${fixed(added50 - 1, 3)} ms` });
      for (const target of [route.direct, route.companion]) {
        const result = await autocannon({ url: target.url, method: target.method, headers: target.headers, connections: 10, duration: seconds });
        loadRows.push([
          `${route.route}, ${target === route.direct ? 'emulator directly' : 'through the companion'}`,
          fixed(result.requests.average, 0),
          fixed(result.latency.p50, 2),
          fixed(result.latency.p99, 2),
          String(result.non2xx + result.errors + result.timeouts),
        ]);
      }
    }
    const markdown = [
      `Companion and emulator run as their CLIs (one Node process each, loopback). Sequential: ${count} requests per side after 100 warm-up, alternating direct and through the companion one by one; times in ms (performance.now()).`,
      '',
      table(['route', 'p50 ms', 'p99 ms', 'target'], rows),
      '',
      `Load: autocannon, 10 connections, ${seconds} s per row (the companion is one Node process, so one core; the emulator behind it is another process, and the load generator a third, on this 2-core machine).`,
      '',
      table(['route', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx/errors'], loadRows),
    ].join('\n');
    return { title: 'Companion overhead', markdown, headline };
  } finally {
    await Promise.all([stopChild(companion.child), stopChild(emulator.child)]);
  }
}
