// A web-test-runner plugin that runs the emulator and the companion as child processes for the
// browser tests. The page reaches them same-origin, as a site would:
//   /api/voice-call/*  -> the companion (agent names map to the emulator's scenario agents)
//   /__emu/*           -> the emulator's REST API, with its API key added (test-only shortcut)
//   /api/voice-call-strict/*, /__emu-strict/* -> the same for a second emulator started with
//                         `--idempotency strict` (every reused key is a 409), behind its own companion
//   /__services        -> JSON { apiUrl, mediaUrl, companionUrl } (never the key)
// The emulator runs in a child because libwebrtc crashes a process that exits naturally.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';

export const SCENARIO_AGENTS = ['emu-demo', 'emu-quick', 'emu-silent-user', 'emu-drop', 'emu-no-agent', 'emu-busy', 'emu-agent-leaves', 'emu-server-leave', 'emu-blip', 'emu-vonage', 'emu-graphql-transcript'];

/** Starts `node --import tsx <script> ...args` and resolves with its first stdout JSON line. */
export function startChild(script, args = [], env = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    const onExit = (code) => reject(new Error(`${script} exited with ${code} before it was ready`));
    child.once('exit', onExit);
    lines.once('line', (line) => {
      child.off('exit', onExit);
      lines.on('line', (more) => process.stdout.write(`[${script}] ${more}\n`));
      try {
        resolve({ child, ready: JSON.parse(line) });
      } catch {
        reject(new Error(`${script} printed a ready line that is not JSON: ${line}`));
      }
    });
  });
}

export function stopChild(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return chunks.length ? Buffer.concat(chunks) : undefined;
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
export function testServices() {
  const services = {};
  let emulatorKey = '';
  const strict = { apiUrl: '', key: '', companionUrl: '' };
  const children = [];
  const plugin = {
    name: 'voice-agent-test-services',
    async serverStart({ config }) {
      const emulator = await startChild('src/emulator/cli.ts', ['--port', '0']);
      children.push(emulator.child);
      const { apiKey, ...publicPart } = emulator.ready;
      emulatorKey = apiKey;
      Object.assign(services, publicPart);
      if (existsSync('src/server/cli.ts')) {
        const companion = await startChild('src/server/cli.ts', [], {
          PORT: '0',
          VOICE_AGENT_API_KEY: apiKey,
          VOICE_AGENT_BASE_URL: emulator.ready.apiUrl,
          VOICE_AGENT_AGENTS: JSON.stringify(Object.fromEntries([['default', 'emu-demo'], ...SCENARIO_AGENTS.map((id) => [id, id])])),
          COMPANION_SECRET: 'browser-tests-secret-0123456789abcdef',
          COMPANION_ALLOWED_ORIGINS: `http://127.0.0.1:${config.port}`,
          COMPANION_ALLOWED_INPUTS: 'name,topic',
          // Every test page calls from 127.0.0.1; the limits themselves are tested in node.
          COMPANION_RATE_LIMIT_PER_ADDRESS: '100000',
          COMPANION_RATE_LIMIT_TOTAL: '100000',
          COMPANION_RATE_LIMIT_PER_DIAL: '100000',
          COMPANION_RATE_LIMIT_READS_PER_ADDRESS: '100000',
        });
        children.push(companion.child);
        services.companionUrl = companion.ready.url;
        // The fault matrix runs the create-retry cell against a strict service too (issue 14).
        const strictEmulator = await startChild('src/emulator/cli.ts', ['--port', '0', '--idempotency', 'strict']);
        children.push(strictEmulator.child);
        Object.assign(strict, { apiUrl: strictEmulator.ready.apiUrl, key: strictEmulator.ready.apiKey });
        const strictCompanion = await startChild('src/server/cli.ts', [], {
          PORT: '0',
          VOICE_AGENT_API_KEY: strict.key,
          VOICE_AGENT_BASE_URL: strict.apiUrl,
          VOICE_AGENT_AGENTS: JSON.stringify({ default: 'emu-demo', 'emu-demo': 'emu-demo' }),
          COMPANION_SECRET: 'browser-tests-strict-secret-0123456789abcdef',
          COMPANION_ALLOWED_ORIGINS: `http://127.0.0.1:${config.port}`,
          COMPANION_RATE_LIMIT_PER_ADDRESS: '100000',
          COMPANION_RATE_LIMIT_TOTAL: '100000',
        });
        children.push(strictCompanion.child);
        strict.companionUrl = strictCompanion.ready.url;
      }
    },
    async serverStop() {
      await Promise.all(children.map(stopChild));
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
    if (ctx.path === '/__services') {
      ctx.type = 'json';
      ctx.body = JSON.stringify(services);
      return undefined;
    }
    return next();
  }
  return { plugin, middleware };
}
