// Starts the emulator and the companion as child processes (their CLIs, as a site would run
// them) and a small static server for the benchmark pages that proxies /api/voice-call to the
// companion. The emulator runs in a child because libwebrtc crashes a process that exits naturally.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, existsSync, openSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { RefTree } from './git-ref.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SCENARIO_AGENTS = ['emu-demo', 'emu-quick', 'emu-silent-user', 'emu-drop', 'emu-no-agent', 'emu-busy'];

export interface Child<Ready> {
  child: ChildProcess;
  ready: Ready;
}

/** Files the benchmarks build for their pages (time-to-talk.ts: livekit-client bundled as a site would ship it); served beside them. */
const BENCH_CACHE_DIR = 'node_modules/.cache/voice-agent-bench/';
export const BENCH_CACHE = join(ROOT, BENCH_CACHE_DIR);

/** Where the children's logs go (one request log line each would drown the tables). */
export const LOG_FILE = join(tmpdir(), 'voice-agent-call-bench.log');
let logFd: number | undefined;

/** Starts `node --import tsx <script> ...args` and resolves with its first stdout JSON line; stderr goes to LOG_FILE. */
export function startChild<Ready>(
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
  prefix: string[] = [],
): Promise<Child<Ready>> {
  const [command = process.execPath, ...prefixArgs] = prefix;
  const commandArgs = prefix.length > 0 ? [...prefixArgs, process.execPath] : [];
  const child = spawn(command, [...commandArgs, '--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', (logFd ??= openSync(LOG_FILE, 'a'))],
  });
  const { stdout } = child;
  if (!stdout) throw new Error(`${script}: spawned without a stdout pipe`);
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: stdout });
    const onExit = (code: number | null) => reject(new Error(`${script} exited with ${code} before it was ready`));
    child.once('exit', onExit);
    lines.once('line', (line) => {
      child.off('exit', onExit);
      lines.on('line', () => undefined);
      try {
        resolve({ child, ready: JSON.parse(line) as Ready });
      } catch {
        reject(new Error(`${script} printed a ready line that is not JSON: ${line}`));
      }
    });
  });
}

/** That commit's CDN build (its own vite.cdn.config.ts; check it out with that path), into its dist/cdn. */
export function buildCdn(tree: RefTree): void {
  execFileSync(
    join(ROOT, 'node_modules/.bin/vite'),
    ['build', '--config', 'vite.cdn.config.ts', '--logLevel', 'error'],
    {
      cwd: tree.root,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export interface EmulatorReady {
  apiUrl: string;
  mediaUrl: string;
  apiKey: string;
}

export interface Services {
  emulator: EmulatorReady;
  companionUrl: string;
  /** The static server's origin, e.g. http://127.0.0.1:PORT */
  origin: string;
  /** Another commit's widget and companion, side by side: its CDN entry and its companion's path on `origin`. */
  before?: { commit: string; src: string; endpoint: string };
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
};

/** The file at `path`, not cached, or a 404 where it is not `allowed` or is not a file. */
function serveFile(res: ServerResponse, path: string, allowed: boolean): void {
  if (!allowed || !existsSync(path) || !statSync(path).isFile()) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, {
    'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
    'cache-control': 'no-cache',
  });
  createReadStream(path).pipe(res);
}

async function proxy(req: IncomingMessage, res: ServerResponse, target: string): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string' && !['host', 'connection', 'content-length', 'accept-encoding'].includes(name))
      headers[name] = value;
  }
  const method = req.method ?? 'GET';
  const answer = await fetch(target, {
    method,
    headers,
    body: ['GET', 'HEAD'].includes(method) ? undefined : Buffer.concat(chunks),
  });
  const out: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name)) out[name] = value;
  });
  res.writeHead(answer.status, out);
  res.end(Buffer.from(await answer.arrayBuffer()));
}

/**
 * Serves the repository's files (pages, dist/cdn, node_modules/livekit-client/dist, BENCH_CACHE) and proxies the
 * companion at /api/voice-call. `before`: another version's tree, whose `dist/` is served under
 * /before/dist/ and whose companion under /api/voice-call-before.
 */
export function startStaticServer(
  companion: () => string,
  before?: { root: string; companion: () => string },
): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const route = before && url.pathname.startsWith('/api/voice-call-before/') ? '/api/voice-call-before' : null;
    if (route || url.pathname.startsWith('/api/voice-call/')) {
      const target = route && before ? before.companion() : companion();
      const prefix = route ?? '/api/voice-call';
      proxy(req, res, target + url.pathname.slice(prefix.length) + url.search).catch(() => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      return;
    }
    if (before && url.pathname.startsWith('/before/dist/')) {
      const path = normalize(join(before.root, decodeURIComponent(url.pathname.slice('/before'.length))));
      serveFile(res, path, path.startsWith(join(before.root, 'dist/')));
      return;
    }
    const path = normalize(join(ROOT, decodeURIComponent(url.pathname)));
    const allowed = ['bench/pages/', 'dist/', 'node_modules/livekit-client/dist/', BENCH_CACHE_DIR].some((dir) =>
      path.startsWith(join(ROOT, dir)),
    );
    serveFile(res, path, allowed);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        origin: `http://127.0.0.1:${port}`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

/**
 * The emulator, the companion (CLI, every scenario agent by its id) and the page server; with
 * `before`, also that commit's CDN build and companion (/before/dist/cdn, /api/voice-call-before).
 */
export async function startServices(before?: RefTree): Promise<Services> {
  let companionUrl = '';
  let beforeUrl = '';
  if (before) buildCdn(before);
  const pages = await startStaticServer(
    () => companionUrl,
    before ? { root: before.root, companion: () => beforeUrl } : undefined,
  );
  const emulator = await startChild<EmulatorReady>('src/emulator/cli.ts', ['--port', '0']);
  const companion = await startChild<{ url: string }>(
    'src/server/cli.ts',
    [],
    companionEnv(emulator.ready, pages.origin),
  ).catch(async (error: unknown) => {
    await stopChild(emulator.child);
    throw error;
  });
  companionUrl = companion.ready.url;
  const old = before
    ? await startChild<{ url: string }>(
        join(before.root, 'src/server/cli.ts'),
        [],
        companionEnv(emulator.ready, pages.origin),
      )
    : null;
  if (old) beforeUrl = old.ready.url;
  return {
    emulator: emulator.ready,
    companionUrl,
    origin: pages.origin,
    ...(before
      ? {
          before: {
            commit: before.commit,
            src: '/before/dist/cdn/voice-agent-call.js',
            endpoint: '/api/voice-call-before',
          },
        }
      : {}),
    async close() {
      await pages.close();
      await Promise.all([
        stopChild(companion.child),
        stopChild(emulator.child),
        ...(old ? [stopChild(old.child)] : []),
      ]);
    },
  };
}

export function companionEnv(emulator: EmulatorReady, origin: string): Record<string, string> {
  return {
    PORT: '0',
    VOICE_AGENT_API_KEY: emulator.apiKey,
    VOICE_AGENT_BASE_URL: emulator.apiUrl,
    VOICE_AGENT_MEDIA_URL: emulator.mediaUrl,
    VOICE_AGENT_AGENTS: JSON.stringify(
      Object.fromEntries([['default', 'emu-demo'], ...SCENARIO_AGENTS.map((id) => [id, id])]),
    ),
    COMPANION_SECRET: 'bench-secret-0123456789abcdef-0123456789',
    COMPANION_ALLOWED_ORIGINS: origin,
    COMPANION_ALLOWED_INPUTS: 'name,topic',
    COMPANION_RATE_LIMIT_PER_ADDRESS: '100000000',
    COMPANION_RATE_LIMIT_TOTAL: '100000000',
    COMPANION_RATE_LIMIT_PER_DIAL: '100000000',
    COMPANION_RATE_LIMIT_READS_PER_ADDRESS: '100000000',
  };
}
