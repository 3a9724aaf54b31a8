// Companion overhead: the token and read routes through the companion (its CLI, one Node process,
// so one core) side by side with the same calls straight to the emulator and through a bare
// reverse proxy (bench/bare-proxy.ts: Node http + an undici Pool, the physical limit of a Node
// pass-through here), and, when BENCH_COMPARE_REF names a git ref, through the companion of that
// ref. Two measurements per route: sequential latency (one request at a time, alternating the
// targets one by one; p50/p99) gives the added latency; autocannon with 10 connections gives req/s.
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RefTree } from './lib/git-ref.js';
import { nth } from './lib/nth.js';
import { companionEnv, startChild, stopChild, type Child, type EmulatorReady } from './lib/services.js';
import { fixed, percentile, table, type BenchSection } from './lib/stats.js';

export interface Target {
  label: string;
  /** The process that answers (its CPU time is read from /proc under load). */
  pid?: number;
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

export async function once(target: Target): Promise<number> {
  const started = performance.now();
  const response = await fetch(target.url, {
    method: target.method,
    headers: target.headers,
    ...(target.body !== undefined ? { body: target.body } : {}),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${target.label}: HTTP ${response.status}`);
  return performance.now() - started;
}

/** `count` requests to each target, one target after the other, so noise from the neighbours lands on all of them. */
export async function alternating(targets: readonly Target[], count: number, warmup = 100): Promise<number[][]> {
  for (let i = 0; i < warmup; i++) for (const target of targets) await once(target);
  const runs = targets.map((target): { target: Target; times: number[] } => ({ target, times: [] }));
  for (let i = 0; i < count; i++) {
    for (const { target, times } of runs) times.push(await once(target));
  }
  return runs.map(({ times }) => times);
}

/** CPU time (user + system) a process has used so far, in ms; Linux only (/proc), NaN elsewhere. */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    // utime and stime are fields 14 and 15 of the line (12 and 13 after the command name), in ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

export interface LoadResult {
  /** CPU time of the answering process per request, µs: unlike req/s, hardly moved by other work on the machine. */
  cpuUs: number;
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

/** autocannon against each target in turn, `rounds` times, so a slow patch of the shared machine hits every target. */
async function load(targets: readonly Target[], seconds: number, rounds: number): Promise<LoadResult[]> {
  const results = targets.map((target) => ({ target, sum: { cpuUs: 0, rps: 0, p50: 0, p99: 0, failures: 0 } }));
  for (let round = 0; round < rounds; round++) {
    for (const { target, sum } of results) {
      const cpuBefore = cpuMs(target.pid);
      const result = await autocannon({
        url: target.url,
        method: target.method,
        headers: target.headers,
        connections: 10,
        duration: seconds,
        ...(target.body !== undefined ? { body: target.body } : {}),
      });
      sum.cpuUs += ((cpuMs(target.pid) - cpuBefore) * 1000) / result.requests.total / rounds;
      sum.rps += result.requests.average / rounds;
      sum.p50 += result.latency.p50 / rounds;
      sum.p99 += result.latency.p99 / rounds;
      sum.failures += result.non2xx + result.errors + result.timeouts;
    }
  }
  return results.map(({ sum }) => sum);
}

const BEARER = 'bare-proxy-bearer-0123456789';

/** The dial's session id, from the handle's payload (`{"v":1,"d":…,"s":…}`), for the bare proxy's token route. */
function sessionOf(handle: string): string {
  const [payload] = handle.split('.');
  if (!payload) throw new Error('the handle has no payload before its first dot');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { s?: string };
  if (!claims.s) throw new Error('the handle names no session');
  return claims.s;
}

async function createDial(base: string): Promise<{ dialId: string; handle: string }> {
  const response = await fetch(`${base}/dials`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"agent":"emu-demo"}',
  });
  if (response.status !== 200) throw new Error(`creating a dial through ${base}: HTTP ${response.status}`);
  return (await response.json()) as { dialId: string; handle: string };
}

export async function companionLoad(
  options: { sequential?: number; seconds?: number; rounds?: number; before?: RefTree } = {},
): Promise<BenchSection> {
  const count = options.sequential ?? 1000;
  const seconds = options.seconds ?? 3;
  const rounds = options.rounds ?? 2;
  const children: Child<unknown>[] = [];
  const start = async <Ready>(script: string, env: Record<string, string>): Promise<Child<Ready>> => {
    const child = await startChild<Ready>(script, [], env);
    children.push(child);
    return child;
  };
  try {
    const emulator = await start<EmulatorReady>('src/emulator/cli.ts', {});
    const { apiUrl, apiKey } = emulator.ready;
    const env = companionEnv(emulator.ready, 'http://127.0.0.1');
    const companion = await start<{ url: string }>('src/server/cli.ts', env);
    const before = options.before
      ? await start<{ url: string }>(join(options.before.root, 'src/server/cli.ts'), env)
      : null;
    const bare = await start<{ url: string }>('bench/bare-proxy.ts', {
      BARE_UPSTREAM: apiUrl,
      BARE_API_KEY: apiKey,
      BARE_BEARER: BEARER,
    });
    const dial = await createDial(companion.ready.url);
    const beforeDial = before ? await createDial(before.ready.url) : null;

    const sequentialRows: string[][] = [];
    const loadRows: string[][] = [];
    const headline: BenchSection['headline'] = [];
    for (const route of [
      // The token route makes two calls to the service (REST dial token, then GraphQL
      // browserDialToken); "emulator directly" makes only the first, so the companion's added time
      // on it is counted over the bare proxy, which makes both.
      {
        name: 'POST /dials/:id/token',
        id: 'token',
        method: 'POST' as const,
        path: (id: string) => `/dials/${id}/token`,
        reference: 1,
        over: 'the bare proxy (same two service calls)',
      },
      {
        name: 'GET /dials/:id',
        id: 'read',
        method: 'GET' as const,
        path: (id: string) => `/dials/${id}`,
        reference: 0,
        over: 'the emulator directly',
      },
    ]) {
      const targets: Target[] = [
        {
          label: 'emulator directly',
          pid: emulator.child.pid,
          url: apiUrl + route.path(dial.dialId),
          method: route.method,
          headers: { authorization: `Bearer ${apiKey}` },
        },
        {
          label: 'bare proxy (http + undici Pool)',
          pid: bare.child.pid,
          url: bare.ready.url + route.path(dial.dialId),
          method: route.method,
          headers: { authorization: `Bearer ${BEARER}`, 'x-session-id': sessionOf(dial.handle) },
        },
        ...(options.before && before && beforeDial
          ? [
              {
                label: `companion before (${options.before.commit})`,
                pid: before.child.pid,
                url: before.ready.url + route.path(beforeDial.dialId),
                method: route.method,
                headers: { authorization: `Bearer ${beforeDial.handle}` },
              },
            ]
          : []),
        {
          label: 'companion',
          pid: companion.child.pid,
          url: companion.ready.url + route.path(dial.dialId),
          method: route.method,
          headers: { authorization: `Bearer ${dial.handle}` },
        },
      ];
      const samples = await alternating(targets, count);
      const direct = nth(samples, 0, "the emulator's samples");
      const direct50 = percentile(direct, 50);
      const direct99 = percentile(direct, 99);
      const reference50 = percentile(nth(samples, route.reference, "the reference target's samples"), 50);
      const added = samples.map((times) => percentile(times, 50) - reference50);
      targets.forEach((target, t) => {
        const times = nth(samples, t, `the samples of ${target.label}`);
        const p50 = percentile(times, 50);
        const p99 = percentile(times, 99);
        sequentialRows.push([
          `${route.name}, ${target.label}`,
          fixed(p50, 3),
          fixed(p99, 3),
          t === 0 ? '' : fixed(p50 - direct50, 3),
          t === 0 ? '' : fixed(p99 - direct99, 3),
        ]);
      });
      const results = await load(targets, seconds, rounds);
      const { rps: bareRps, cpuUs: bareCpu } = nth(results, 1, "the bare proxy's load result");
      targets.forEach((target, t) => {
        const result = nth(results, t, `the load result of ${target.label}`);
        loadRows.push([
          `${route.name}, ${target.label}`,
          fixed(result.rps, 0),
          t === 0 ? '' : fixed(result.rps / bareRps, 2),
          fixed(result.cpuUs, 0),
          t === 0 ? '' : fixed(bareCpu / result.cpuUs, 2),
          fixed(result.p50, 2),
          fixed(result.p99, 2),
          String(result.failures),
        ]);
      });
      const companionAdded = nth(added, -1, "the companion's added p50");
      const companionResult = nth(results, -1, "the companion's load result");
      const ratio = companionResult.rps / bareRps;
      const beforeResult = before ? nth(results, 2, "the companion before's load result") : null;
      const beforeAdded = before ? nth(added, 2, "the companion before's added p50") : Number.NaN;
      const was = (value: number, digits: number, unit = '') =>
        before ? ` (before: ${fixed(value, digits)}${unit})` : '';
      headline.push({
        id: `companion-ratio-${route.id}`,
        metric: `companion ÷ bare proxy, req/s (${route.name})`,
        measured: `${fixed(ratio, 2)}; by CPU per request ${fixed(bareCpu / companionResult.cpuUs, 2)}${beforeResult ? ` (before: ${fixed(beforeResult.rps / bareRps, 2)}; ${fixed(bareCpu / beforeResult.cpuUs, 2)})` : ''}`,
        target: '≥ 0.8',
        verdict: ratio >= 0.8 ? 'met' : `missed by ${fixed(0.8 - ratio, 2)}`,
      });
      headline.push({
        id: `companion-${route.id}`,
        metric: `companion adds, p50 (${route.name}, over ${route.over})`,
        measured: `${fixed(companionAdded, 3)} ms${was(beforeAdded, 3, ' ms')}`,
        target: '≤ 0.5 ms',
        verdict: companionAdded <= 0.5 ? 'met' : `missed by ${fixed(companionAdded - 0.5, 3)} ms`,
      });
    }
    const markdown = [
      `Every target runs as its own Node process on loopback: the emulator (CLI), the bare proxy (\`bench/bare-proxy.ts\`: Node \`http\` + one undici Pool, checks a fixed bearer and relays the answer, nothing else; on the token route it makes the same two service calls as the companion, the REST dial token then the GraphQL \`browserDialToken\`, and relays the GraphQL answer), ${options.before ? `the companion at commit ${options.before.commit} (before), ` : ''}and the companion (CLI, this tree). Same emulator, same dial, same run. Every request carries the same handle, as a visitor's polling does: after its first check the companion trusts it from its verification cache (a handle's first request pays a WebCrypto HMAC).`,
      '',
      `Sequential: ${count} requests per target after 100 warm-up, the targets alternating one request at a time; times in ms (performance.now() in the client). "Added" is the target's minus the emulator's (one REST call, so on the token route it includes the GraphQL call the companion and the bare proxy make; the headline counts the companion's added time there over the bare proxy).`,
      '',
      table(['route, target', 'p50 ms', 'p99 ms', 'added p50', 'added p99'], sequentialRows),
      '',
      `Load: autocannon, 10 connections, ${seconds} s per target, ${rounds} rounds with the targets in turn (req/s and latencies are the rounds' mean). "÷ bare" is req/s over the bare proxy's. "CPU µs/req" is the CPU time (user + system, from /proc) the answering process spent per request under that load, its own process only (not the emulator behind it): other work on the machine moves req/s a lot and this little, and "bare CPU ÷ this" is the req/s ratio the two would reach each on a core of its own. The machine has 2 cores shared by the target, the emulator behind it and the load generator (and other work: see the note at the top).`,
      '',
      table(
        ['route, target', 'req/s', '÷ bare', 'CPU µs/req', 'bare CPU ÷ this', 'p50 ms', 'p99 ms', 'non-2xx/errors'],
        loadRows,
      ),
    ].join('\n');
    return { title: 'Companion overhead', markdown, headline };
  } finally {
    await Promise.all(children.map((child) => stopChild(child.child)));
  }
}
