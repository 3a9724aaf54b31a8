// A web-test-runner plugin that runs the emulator and the companion as child processes for the
// browser tests. The page reaches them same-origin, as a site would:
//   /api/voice-call/*  -> the companion (agent names map to the emulator's scenario agents)
//   /__emu/*           -> the emulator's REST API, with its API key added (test-only shortcut)
//   /api/voice-call-strict/*, /__emu-strict/* -> the same for a second emulator started with
//                         `--idempotency strict` (every reused key is a 409), behind its own companion
//   /__services        -> JSON { apiUrl, mediaUrl, companionUrl, restarts } (never the key)
//   POST /__emu-media/crash -> SIGSEGV to the emulator's media room process (issue 18's kill test)
// The emulator runs in a child because libwebrtc crashes a process that exits naturally. Every
// child is supervised: one that exits unasked is logged with its exit code and signal and started
// again on the same port(s), so one crash cannot fail every test after it.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { dirname } from 'node:path';
import { readBody } from './http-body.mjs';

/**
 * Where the children's logs go: stderr with VERBOSE=1; otherwise the run's own log file
 * (`testServices({ log })`: .cache/test-services-<engine>.log, so the Chromium and Firefox runs,
 * which run side by side, keep theirs apart; the closing reporter prints its tail when a test
 * failed), and a child that exits unasked has its last lines printed with its exit code and signal.
 */
const VERBOSE = process.env.VERBOSE === '1';
let logFile = null;
export function serviceLog(line) {
  if (VERBOSE || !logFile) process.stderr.write(`${line}\n`);
  else appendFileSync(logFile, `${line}\n`);
}

export const SCENARIO_AGENTS = [
  'emu-demo',
  'emu-quick',
  'emu-silent-user',
  'emu-drop',
  'emu-no-agent',
  'emu-busy',
  'emu-agent-leaves',
  'emu-server-leave',
  'emu-blip',
  'emu-vonage',
  'emu-graphql-transcript',
  'emu-keypad',
  'emu-weak-link',
  'emu-transfer-refused',
];

/** Starts `node --import tsx <script> ...args` and resolves with its first stdout JSON line. */
export function startChild(script, args = [], env = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The child's last lines, printed if it exits unasked.
  const recent = [];
  child.recentLines = recent;
  createInterface({ input: child.stderr }).on('line', (line) => {
    recent.push(line);
    if (recent.length > 40) recent.shift();
    serviceLog(line);
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    const onExit = (code) =>
      reject(new Error(`${script} exited with ${code} before it was ready: ${recent.join('\n')}`));
    child.once('exit', onExit);
    lines.once('line', (line) => {
      child.off('exit', onExit);
      lines.on('line', (more) => serviceLog(`[${script}] ${more}`));
      try {
        resolve({ child, ready: JSON.parse(line) });
      } catch {
        reject(new Error(`${script} printed a ready line that is not JSON: ${line}`));
      }
    });
  });
}

/**
 * Starts a child with `start()` and, whenever it exits unasked, logs how (code and signal) and
 * starts it again with `restart(ready)`, which pins the port(s) of the first ready line.
 */
export async function superviseChild(label, { start, restart }, onRestart = () => {}) {
  let stopping = false;
  let current = await start();
  const first = current.ready;
  const watch = (entry) =>
    entry.child.once('exit', (code, signal) => {
      if (stopping) return;
      process.stderr.write(
        `[services] ${label} exited (code ${code}, signal ${signal}); starting it again on the same port. Its last lines:\n${(entry.child.recentLines ?? []).join('\n')}\n`,
      );
      restart(first).then(
        (next) => {
          current = next;
          watch(next);
          onRestart();
          process.stderr.write(`[services] ${label} is back\n`);
        },
        (error) => process.stderr.write(`[services] ${label} could not be started again: ${error.message}\n`),
      );
    });
  watch(current);
  return {
    ready: first,
    stop() {
      stopping = true;
      return stopChild(current.child);
    },
  };
}

const emulatorChild = (extra) => ({
  start: () => startChild('src/emulator/cli.ts', ['--port', '0', ...extra]),
  restart: (ready) =>
    startChild('src/emulator/cli.ts', [
      '--port',
      new URL(ready.apiUrl).port,
      '--media-port',
      new URL(ready.mediaUrl).port,
      '--api-key',
      ready.apiKey,
      ...extra,
    ]),
});

function companionChild(env) {
  return {
    start: () => startChild('src/server/cli.ts', [], { PORT: '0', ...env }),
    restart: (ready) => startChild('src/server/cli.ts', [], { ...env, PORT: new URL(ready.url).port }),
  };
}

export function stopChild(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Forwards a Koa request to `target` (path kept after `prefix`), with extra headers. */
async function forward(ctx, prefix, target, extraHeaders = {}) {
  const url = target + ctx.url.slice(prefix.length);
  const headers = {};
  for (const [name, value] of Object.entries(ctx.request.headers)) {
    if (!['host', 'connection', 'content-length', 'accept-encoding'].includes(name)) headers[name] = value;
  }
  const body = ['GET', 'HEAD'].includes(ctx.method) ? undefined : await readBody(ctx.req);
  const answer = await fetch(url, { method: ctx.method, headers: { ...headers, ...extraHeaders }, body });
  ctx.status = answer.status;
  answer.headers.forEach((value, name) => {
    if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name)) ctx.set(name, value);
  });
  ctx.body = Buffer.from(await answer.arrayBuffer());
}

/**
 * Returns `{ plugin, middleware }`: the plugin starts and stops the children; the middleware
 * (listed in the config's `middleware`, since plugins cannot add Koa middleware at start)
 * routes the page's requests to them.
 */
export function testServices({ log }) {
  if (!VERBOSE) {
    mkdirSync(dirname(log), { recursive: true });
    writeFileSync(log, '');
    logFile = log;
  }
  /** How often each child was started again after exiting unasked (reported in /__services). */
  const restarts = { emulator: 0, companion: 0 };
  const services = { restarts };
  let emulatorKey = '';
  const strict = { apiUrl: '', key: '', companionUrl: '' };
  const children = [];
  const plugin = {
    name: 'voice-agent-test-services',
    async serverStart({ config }) {
      const emulator = await superviseChild('emulator', emulatorChild([]), () => restarts.emulator++);
      children.push(emulator);
      const { apiKey, ...publicPart } = emulator.ready;
      emulatorKey = apiKey;
      Object.assign(services, publicPart);
      if (existsSync('src/server/cli.ts')) {
        const companion = await superviseChild(
          'companion',
          companionChild({
            VOICE_AGENT_API_KEY: apiKey,
            VOICE_AGENT_BASE_URL: emulator.ready.apiUrl,
            VOICE_AGENT_AGENTS: JSON.stringify(
              Object.fromEntries([['default', 'emu-demo'], ...SCENARIO_AGENTS.map((id) => [id, id])]),
            ),
            COMPANION_SECRET: 'browser-tests-secret-0123456789abcdef',
            COMPANION_ALLOWED_ORIGINS: `http://127.0.0.1:${config.port}`,
            COMPANION_ALLOWED_INPUTS: 'name,topic',
            // GET /api/voice-call/metrics for the tests of metrics="server" (call-quality-e2e).
            COMPANION_METRICS_TOKEN: 'browser-tests-metrics-token-0123456789',
            // Talk to a person (test/browser/transfer.test.ts): offered for these agents only, so
            // the others (emu-keypad, say) show that no number means no button.
            VOICE_AGENT_TRANSFER_NUMBERS: JSON.stringify({
              'emu-demo': '+15550100123',
              'emu-transfer-refused': '+15550100123',
            }),
            // Every test page calls from 127.0.0.1; the limits themselves are tested in node.
            COMPANION_RATE_LIMIT_PER_ADDRESS: '100000',
            COMPANION_RATE_LIMIT_TOTAL: '100000',
            COMPANION_RATE_LIMIT_PER_DIAL: '100000',
            COMPANION_RATE_LIMIT_READS_PER_ADDRESS: '100000',
            // Calls that survive the page (element-persist-e2e): a closed tab's dial ends within
            // this; a navigation's rejoin comes well inside it.
            COMPANION_RESUME_GRACE_SECONDS: '8',
          }),
          () => restarts.companion++,
        );
        children.push(companion);
        services.companionUrl = companion.ready.url;
        // The fault matrix runs the create-retry cell against a strict service too (issue 14).
        const strictEmulator = await superviseChild('strict emulator', emulatorChild(['--idempotency', 'strict']));
        children.push(strictEmulator);
        Object.assign(strict, { apiUrl: strictEmulator.ready.apiUrl, key: strictEmulator.ready.apiKey });
        const strictCompanion = await superviseChild(
          'strict companion',
          companionChild({
            VOICE_AGENT_API_KEY: strict.key,
            VOICE_AGENT_BASE_URL: strict.apiUrl,
            VOICE_AGENT_AGENTS: JSON.stringify({ default: 'emu-demo', 'emu-demo': 'emu-demo' }),
            COMPANION_SECRET: 'browser-tests-strict-secret-0123456789abcdef',
            COMPANION_ALLOWED_ORIGINS: `http://127.0.0.1:${config.port}`,
            COMPANION_RATE_LIMIT_PER_ADDRESS: '100000',
            COMPANION_RATE_LIMIT_TOTAL: '100000',
          }),
        );
        children.push(strictCompanion);
        strict.companionUrl = strictCompanion.ready.url;
      }
    },
    async serverStop() {
      await Promise.all(children.map((child) => child.stop()));
    },
  };
  async function middleware(ctx, next) {
    if (ctx.path.startsWith('/test/fixtures/csp/')) {
      // A strict policy for the CDN test pages: no inline script or style, no eval; the only
      // other origins allowed are the loopback media room and the emulator's GraphQL endpoint.
      const media = services.mediaUrl ?? 'ws://127.0.0.1';
      const graphql = services.apiUrl ? new URL(services.apiUrl).origin : 'http://127.0.0.1';
      ctx.set(
        'Content-Security-Policy',
        `default-src 'self'; connect-src 'self' ${media} ${media.replace(/^ws/, 'http')} ${graphql} ${graphql.replace(/^http/, 'ws')}; media-src 'self' blob: mediastream:`,
      );
    }
    if (ctx.path.startsWith('/api/voice-call/') && services.companionUrl) {
      return forward(ctx, '/api/voice-call', services.companionUrl);
    }
    if (ctx.path.startsWith('/api/voice-call-strict/') && strict.companionUrl) {
      return forward(ctx, '/api/voice-call-strict', strict.companionUrl);
    }
    if (ctx.path.startsWith('/__emu-strict/') && strict.apiUrl) {
      return forward(ctx, '/__emu-strict', strict.apiUrl, { authorization: `Bearer ${strict.key}` });
    }
    if (ctx.path.startsWith('/__emu/')) {
      return forward(ctx, '/__emu', services.apiUrl, { authorization: `Bearer ${emulatorKey}` });
    }
    if (ctx.path === '/__emu-media/crash' && ctx.method === 'POST' && services.apiUrl) {
      // The media room's pid from the emulator's health answer; SIGSEGV, as a native crash ends it.
      const health = await (await fetch(`${services.apiUrl}/healthz`)).json();
      process.kill(health.media.pid, 'SIGSEGV');
      ctx.type = 'json';
      ctx.body = JSON.stringify({ pid: health.media.pid });
      return undefined;
    }
    if (ctx.path === '/__services') {
      ctx.type = 'json';
      ctx.body = JSON.stringify(services);
      return undefined;
    }
    return next();
  }
  return { plugin, middleware };
}
