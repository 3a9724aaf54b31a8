// The companion's added latency on loopback: N sequential `GET /dials/:id` through the companion
// (Node adapter, handle check, upstream call, field filtering) vs the same read straight from the
// emulator; and the cost of metrics (prom-client counters and the service histogram, issue 38):
// the same companion with metrics on vs off, measured in alternating blocks of the same run.
// Run in a loopback-only namespace:
//   unshare -n sh -c 'ip link set lo up && exec node --import tsx bench/companion-latency.ts [N]'
import { startEmulator } from '../src/emulator/index.js';
import { createCompanionHandler } from '../src/server/handler.js';
import { listen } from '../src/server/node.js';
import { percentile } from './lib/stats.js';

const N = Number(process.argv[2] ?? 2000);
const bearer = (handle: string) => ({ authorization: `Bearer ${handle}` });
const WARMUP = 100;

async function measure(label: string, url: string, headers: Record<string, string>) {
  const samples: number[] = [];
  await sample(label, url, headers, N, samples);
  return summary(label, samples);
}

/** `count` timed requests (after the warm-up) into `samples`. */
async function sample(label: string, url: string, headers: Record<string, string>, count: number, samples: number[]) {
  const once = async () => {
    const started = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${label}: HTTP ${response.status}`);
    return performance.now() - started;
  };
  for (let i = 0; i < WARMUP; i++) await once();
  for (let i = 0; i < count; i++) samples.push(await once());
}

function summary(label: string, samples: number[]) {
  return {
    label,
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    mean: samples.reduce((sum, value) => sum + value, 0) / samples.length,
  };
}

const emulator = await startEmulator({ logger: false });
const config = {
  apiKey: emulator.apiKey,
  baseUrl: emulator.apiUrl,
  agentId: 'emu-demo',
  secret: 'bench-secret-bench-secret-0123456789',
  logger: false,
  rateLimit: { perAddress: 1e9, total: 1e9, perDial: 1e9, readsPerAddress: 1e9 },
} as const;
const companion = await listen(createCompanionHandler(config), { port: 0 });
const metricsCompanion = await listen(
  createCompanionHandler({ ...config, metricsToken: 'bench-metrics-token-0123456789' }),
  { port: 0 },
);
try {
  const created = (await (await fetch(`${companion.url}/dials`, { method: 'POST' })).json()) as {
    dialId: string;
    handle: string;
  };
  const direct = await measure('emulator directly', `${emulator.apiUrl}/dials/${created.dialId}`, {
    authorization: `Bearer ${emulator.apiKey}`,
  });
  const through = await measure('through the companion', `${companion.url}/dials/${created.dialId}`, {
    authorization: `Bearer ${created.handle}`,
  });
  // Metrics off vs on: the same dial through two companions alike but for metrics, in alternating
  // blocks so that drift in the machine's load falls on both.
  const watched = (await (await fetch(`${metricsCompanion.url}/dials`, { method: 'POST' })).json()) as {
    dialId: string;
    handle: string;
  };
  const off: number[] = [];
  const on: number[] = [];
  const BLOCKS = 4;
  for (let block = 0; block < BLOCKS; block++) {
    await sample('metrics off', `${companion.url}/dials/${created.dialId}`, bearer(created.handle), N / BLOCKS, off);
    await sample(
      'metrics on',
      `${metricsCompanion.url}/dials/${watched.dialId}`,
      bearer(watched.handle),
      N / BLOCKS,
      on,
    );
  }
  const metricsOff = summary('companion, metrics off', off);
  const metricsOn = summary('companion, metrics on', on);
  const ms = (value: number) => value.toFixed(3).padStart(8);
  console.log(
    `\nGET /dials/:id, ${N} sequential requests each (after ${WARMUP} warm-up), Node ${process.version}, loopback\n`,
  );
  console.log('| path                    |   p50 ms |   p99 ms |  mean ms |');
  console.log('|-------------------------|----------|----------|----------|');
  for (const row of [direct, through])
    console.log(`| ${row.label.padEnd(23)} | ${ms(row.p50)} | ${ms(row.p99)} | ${ms(row.mean)} |`);
  console.log(
    `| added by the companion  | ${ms(through.p50 - direct.p50)} | ${ms(through.p99 - direct.p99)} | ${ms(through.mean - direct.mean)} |`,
  );
  for (const row of [metricsOff, metricsOn])
    console.log(`| ${row.label.padEnd(23)} | ${ms(row.p50)} | ${ms(row.p99)} | ${ms(row.mean)} |`);
  console.log(
    `| added by metrics        | ${ms(metricsOn.p50 - metricsOff.p50)} | ${ms(metricsOn.p99 - metricsOff.p99)} | ${ms(metricsOn.mean - metricsOff.mean)} |`,
  );
} finally {
  await metricsCompanion.close();
  await companion.close();
  await emulator.close();
}
