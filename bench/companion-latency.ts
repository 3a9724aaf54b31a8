// The companion's added latency on loopback: N sequential `GET /dials/:id` through the companion
// (Node adapter, handle check, upstream call, field filtering) vs the same read straight from the
// emulator. Run in a loopback-only namespace:
//   unshare -n sh -c 'ip link set lo up && exec node --import tsx bench/companion-latency.ts [N]'
import { startEmulator } from '../src/emulator/index.js';
import { createCompanionHandler } from '../src/server/handler.js';
import { listen } from '../src/server/node.js';
import { percentile } from './lib/stats.js';

const N = Number(process.argv[2] ?? 2000);
const WARMUP = 100;

async function measure(label: string, url: string, headers: Record<string, string>) {
  const once = async () => {
    const started = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${label}: HTTP ${response.status}`);
    return performance.now() - started;
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const samples: number[] = [];
  for (let i = 0; i < N; i++) samples.push(await once());
  return {
    label,
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    mean: samples.reduce((sum, value) => sum + value, 0) / samples.length,
  };
}

const emulator = await startEmulator({ logger: false });
const companion = await listen(
  createCompanionHandler({
    apiKey: emulator.apiKey,
    baseUrl: emulator.apiUrl,
    agentId: 'emu-demo',
    secret: 'bench-secret-bench-secret-0123456789',
    logger: false,
    rateLimit: { perAddress: 1e9, total: 1e9, perDial: 1e9, readsPerAddress: 1e9 },
  }),
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
} finally {
  await companion.close();
  await emulator.close();
}
