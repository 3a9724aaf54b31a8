// `npm run bench`: runs every benchmark and writes BENCHMARKS.md (machine, versions, date, tables).
// The browser and media-room benchmarks need a network namespace where only loopback exists; when
// not already in one, this script re-runs itself inside one (`unshare -n`, as root; `unshare -rn`
// otherwise). Pick benchmarks by name: `npm run bench -- weight companion talk endurance`.
// Knobs (environment): BENCH_CALLS (time-to-talk calls, default 20), BENCH_CYCLES (call cycles,
// default 50), BENCH_ENTRIES (transcript entries, default 1000), BENCH_OUT (default BENCHMARKS.md).
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem, type as osType } from 'node:os';
import { join, resolve } from 'node:path';
import { companionLoad } from './companion-load.js';
import { endurance } from './endurance.js';
import { CHROMIUM } from './lib/browser.js';
import { LOG_FILE, ROOT, startServices } from './lib/services.js';
import { table, type BenchSection } from './lib/stats.js';
import { pageWeight } from './page-weight.js';
import { timeToTalk } from './time-to-talk.js';

const NAMESPACE_FLAG = 'VOICE_AGENT_BENCH_NETNS';

if (process.env[NAMESPACE_FLAG] !== '1') {
  const unshare = process.getuid?.() === 0 ? ['unshare', '-n'] : ['unshare', '-rn'];
  const inner = `ip link set lo up && exec env ${NAMESPACE_FLAG}=1 "$0" --import tsx bench/run.ts "$@"`;
  const result = spawnSync(unshare[0]!, [...unshare.slice(1), 'sh', '-c', inner, process.execPath, ...process.argv.slice(2)], { cwd: ROOT, stdio: 'inherit' });
  if (result.error) {
    console.error(`bench: could not enter a loopback-only network namespace (${result.error.message}); needs util-linux unshare and iproute2 ip`);
    process.exit(1);
  }
  process.exit(result.status ?? 1);
}

const ALL = ['weight', 'companion', 'talk', 'endurance'] as const;
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
const packageVersion = (name: string) => (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

const started = new Date();
const sections: BenchSection[] = [];
const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

if (run.includes('weight')) {
  log('page weight');
  sections.push(await pageWeight());
}
if (run.includes('companion')) {
  log('companion overhead');
  sections.push(await companionLoad());
}
if (run.includes('talk') || run.includes('endurance')) {
  const services = await startServices();
  try {
    if (run.includes('talk')) {
      log('time to talk');
      sections.push(await timeToTalk(services, { calls: envNumber('BENCH_CALLS', 20) }));
    }
    if (run.includes('endurance')) {
      log('endurance');
      sections.push(await endurance(services, { cycles: envNumber('BENCH_CYCLES', 50), entries: envNumber('BENCH_ENTRIES', 1000) }));
    }
  } finally {
    await services.close();
  }
}
const seconds = (Date.now() - started.getTime()) / 1000;

const cpu = cpus();
const commit = version('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD']);
const machine = [
  `- Date: ${started.toISOString()} (whole run ${seconds.toFixed(0)} s)`,
  `- Machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${osType()} ${release()}`,
  `- Node ${process.version}, ${version(CHROMIUM, ['--version'])}, livekit-client ${packageVersion('livekit-client')}, lit ${packageVersion('lit')}, autocannon ${packageVersion('autocannon')}`,
  `- voice-agent-call ${(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version} at commit ${commit}`,
  '- Everything on loopback in a private network namespace; other processes were running on the machine, so timings are noisy: read the ratios and side-by-side columns, not absolute times.',
];
const headline = sections.flatMap((section) => section.headline.map((row) => [`${section.title}: ${row.metric}`, row.measured, row.target, row.verdict]));
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
  ...sections.flatMap((section) => [`## ${section.title}`, '', section.markdown, '']),
  `Reproduce: \`npm install\`, the system packages \`.ci/run\` installs (chromium, espeak-ng, sox, iproute2, util-linux), then \`npm run bench\` (or \`npm run bench -- weight companion talk endurance\` for a subset). Children's logs: \`${LOG_FILE}\`.`,
  '',
].join('\n');
const out = resolve(ROOT, process.env.BENCH_OUT ?? 'BENCHMARKS.md');
writeFileSync(out, markdown);
console.log(markdown);
log(`wrote ${out} in ${seconds.toFixed(0)} s`);
