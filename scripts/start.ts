// `npm start`: the demo. Starts the emulator (unless VOICE_AGENT_API_KEY points at the real
// service), the companion in front of it, and Vite serving demo/ with `/api/voice-call`
// proxied to the companion. Prints the URL; one Ctrl-C stops all three.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { createServer, type Plugin } from 'vite';
import { SCENARIOS, offeredAgents, type AgentChoice } from '../demo/scenarios.js';

const children: ChildProcess[] = [];

function startChild(script: string, args: string[], env: Record<string, string>): Promise<Record<string, string>> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before it was ready`)));
    createInterface({ input: child.stdout }).once('line', (line) =>
      resolve(JSON.parse(line) as Record<string, string>),
    );
  });
}

/** A value a child printed in its ready line; throws naming it when the line lacks it. */
function printed(ready: Record<string, string>, name: string): string {
  const value = ready[name];
  if (value === undefined) throw new Error(`the ready line ${JSON.stringify(ready)} has no "${name}"`);
  return value;
}

/**
 * The demo's agent picker: the companion's agent names, labelled with the agents' names from the
 * service's `GET /agents` (walked page by page). Runs server-side: the key never reaches the page.
 */
async function listAgentChoices(env: Record<string, string>): Promise<AgentChoice[]> {
  const names: Record<string, string> = env.VOICE_AGENT_AGENTS
    ? (JSON.parse(env.VOICE_AGENT_AGENTS) as Record<string, string>)
    : { default: env.VOICE_AGENT_AGENT_ID ?? '' };
  const labels = new Map<string, string>();
  let cursor: string | null = null;
  do {
    const url = new URL(`${env.VOICE_AGENT_BASE_URL}/agents`);
    if (cursor) url.searchParams.set('cursor', cursor);
    const answer = await fetch(url, { headers: { authorization: `Bearer ${env.VOICE_AGENT_API_KEY}` } });
    if (!answer.ok) throw new Error(`GET /agents answered ${answer.status}`);
    const page = (await answer.json()) as { data: { id: string; name: string }[]; cursor: string | null };
    for (const agent of page.data) labels.set(agent.id, agent.name);
    cursor = page.cursor;
  } while (cursor);
  return offeredAgents(names, labels);
}

/** With the emulator, the pages offer the scenarios (demo/scenarios.ts): this answers `[]`. */
function agentPickerPlugin(env: Record<string, string>, realService: boolean): Plugin {
  return {
    name: 'demo-agent-picker',
    configureServer(server) {
      server.middlewares.use('/__demo/agents', (_request, response) => {
        (realService ? listAgentChoices(env) : Promise.resolve([])).then(
          (choices) => {
            response.setHeader('content-type', 'application/json');
            response.end(JSON.stringify(choices));
          },
          (error: unknown) => {
            console.error(`agent picker: ${error instanceof Error ? error.message : String(error)}`);
            response.statusCode = 502;
            response.end('[]');
          },
        );
      });
    },
  };
}

function stopAll(): void {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
}

async function main(): Promise<void> {
  const port = Number(process.env.DEMO_PORT ?? 5173);
  const demoOrigin = `http://127.0.0.1:${port}`;
  const companionEnv: Record<string, string> = {
    PORT: '0',
    COMPANION_SECRET: process.env.COMPANION_SECRET ?? randomBytes(32).toString('hex'),
    // The page calls the companion through Vite's proxy, same-origin as on a real site: no allow-list.
    COMPANION_ALLOWED_ORIGINS: process.env.COMPANION_ALLOWED_ORIGINS ?? '',
    COMPANION_ALLOWED_INPUTS: process.env.COMPANION_ALLOWED_INPUTS ?? 'name,topic',
  };
  let mode: string;
  if (process.env.VOICE_AGENT_API_KEY) {
    mode = `the service at ${process.env.VOICE_AGENT_BASE_URL ?? '(default base URL)'}`;
  } else {
    const emulator = await startChild('src/emulator/cli.ts', ['--port', '0'], {});
    Object.assign(companionEnv, {
      VOICE_AGENT_API_KEY: printed(emulator, 'apiKey'),
      VOICE_AGENT_BASE_URL: printed(emulator, 'apiUrl'),
      VOICE_AGENT_MEDIA_URL: printed(emulator, 'mediaUrl'),
      VOICE_AGENT_AGENTS: JSON.stringify(
        Object.fromEntries([['default', 'emu-demo'], ...SCENARIOS.map(({ name }) => [name, name])]),
      ),
    });
    mode = `the emulator (${emulator.apiUrl}, media ${emulator.mediaUrl})`;
  }
  const companion = await startChild('src/server/cli.ts', [], companionEnv);
  const vite = await createServer({
    configFile: 'vite.config.ts',
    plugins: [
      agentPickerPlugin(
        { ...process.env, ...companionEnv } as Record<string, string>,
        Boolean(process.env.VOICE_AGENT_API_KEY),
      ),
    ],
    server: {
      port,
      strictPort: true,
      proxy: {
        '/api/voice-call': {
          target: printed(companion, 'url'),
          rewrite: (path) => path.replace(/^\/api\/voice-call/, ''),
        },
      },
    },
  });
  await vite.listen();
  const url = vite.resolvedUrls?.local[0] ?? `${demoOrigin}/`;
  console.log(
    `\n  voice-agent-call demo: ${url}\n  calls go to ${mode}\n  companion: ${companion.url}\n  Ctrl-C stops everything.\n`,
  );
  const shutdown = async (): Promise<void> => {
    stopAll();
    await vite.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  console.error(message);
  if (/already in use|EADDRINUSE/.test(message)) {
    const port = Number(process.env.DEMO_PORT ?? 5173);
    console.error(
      `Another program has port ${port}: start the demo on another one, e.g. DEMO_PORT=${port + 1} npm start`,
    );
  }
  stopAll();
  process.exit(1);
});
