// The shape of src/server and src/api as files and imports: what each may import (Web APIs only,
// Node built-ins only in the Node adapter and CLI, nothing of the browser side or the emulator),
// no import cycle anywhere in either, and the companion's handler reaching only the dial calls of
// the API client, never its resources.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SERVER = join(ROOT, 'src/server');
const API = join(ROOT, 'src/api');
/** The wire contract and the plumbing the companion shares (test/node/shared-modules.test.ts holds their own rules). */
const SHARED = [join(ROOT, 'src/wire'), join(ROOT, 'src/shared')];

/** Packages a server module may import; the handler's own modules take only ones that run in Workers. */
const PACKAGES_ALLOWED: Record<string, string[]> = {
  // The package entry only for types (`import type`, erased).
  'rate-limit.ts': [
    'rate-limiter-flexible',
    'rate-limiter-flexible/lib/RateLimiterMemory.js',
    'rate-limiter-flexible/lib/RateLimiterRedis.js',
  ],
  'rate-limiter-flexible.d.ts': ['rate-limiter-flexible'],
  'cli.ts': ['ioredis'],
  // Types only; the module loads prom-client (Node only) at run time by a name in a variable.
  'prometheus.ts': ['prom-client'],
};

/** npm packages any server module may import: Web-API-only libraries that run in Workers, Deno and Bun too. */
const SERVER_PACKAGES = new Set(['ipaddr.js', '@opentelemetry/api']);

/** The modules that may use Node built-ins: the Node adapter and the CLI. */
const NODE_MODULES = new Set(['src/server/node.ts', 'src/server/cli.ts']);

interface ModuleImport {
  specifier: string;
  /** `import type` / `export type`: erased, in no bundle. */
  typeOnly: boolean;
}

/** Every .ts file under `directory`, recursively. */
async function sources(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|\bimport\s*\(\s*(?:\/\*.*?\*\/\s*)?['"]([^'"]+)['"]\s*\)/g;

async function importsOf(file: string): Promise<ModuleImport[]> {
  const source = await readFile(file, 'utf8');
  return [...source.matchAll(IMPORT)].map((match) => ({
    specifier: match[2] ?? match[3] ?? '',
    typeOnly: match[1] !== undefined,
  }));
}

/** The file a relative specifier names (`./x.js` is `./x.ts` in the sources), or null for a package. */
function resolveRelative(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  return resolve(dirname(from), specifier.replace(/\.js$/, '.ts'));
}

const name = (file: string) => relative(ROOT, file);
const isInside = (file: string, directory: string) => !relative(directory, file).startsWith('..');

/** The import graph of src/server and src/api: file → the local files it imports. */
async function importGraph(options: { valuesOnly: boolean }): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  for (const file of [...(await sources(SERVER)), ...(await sources(API))]) {
    const targets = (await importsOf(file))
      .filter((entry) => !(options.valuesOnly && entry.typeOnly))
      .map((entry) => resolveRelative(file, entry.specifier))
      .filter((target): target is string => target !== null);
    graph.set(file, targets);
  }
  return graph;
}

/** One import cycle of the graph as a list of files (first = last), or null. */
function findCycle(graph: Map<string, string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): string[] | null => {
    if (state.get(file) === 'done') return null;
    if (state.get(file) === 'open') return [...path.slice(path.indexOf(file)), file];
    state.set(file, 'open');
    path.push(file);
    for (const target of graph.get(file) ?? []) {
      const cycle = visit(target);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(file, 'done');
    return null;
  };
  for (const file of graph.keys()) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return null;
}

/** The files `entry` loads at run time (type-only imports left out), itself included. */
function reachable(graph: Map<string, string[]>, entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const target of graph.get(file) ?? []) visit(target);
  };
  visit(entry);
  return seen;
}

/** True when the source uses something only Node has. */
const usesNode = (source: string) => /\bnode:|\bprocess\.|\bBuffer\b/.test(source.replace(/\/\/.*$/gm, ''));

describe('module boundaries', () => {
  test('the rate-limiter-flexible files the handler loads require no Node built-in (the package entry does: node:cluster)', async () => {
    const require = createRequire(import.meta.url);
    const seen = new Set<string>();
    const visit = async (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = await readFile(file, 'utf8');
      for (const [, specifier = ''] of source.matchAll(/require\(\s*['"]([^'"]+)['"]\s*\)/g)) {
        assert.ok(specifier.startsWith('.'), `${file} requires ${specifier}`);
        await visit(require.resolve(join(dirname(file), specifier)));
      }
    };
    for (const entry of (PACKAGES_ALLOWED['rate-limit.ts'] ?? []).slice(1)) await visit(require.resolve(entry));
    assert.ok(seen.size > 3);
  });

  test('src/server (every folder) imports only itself, src/api, src/wire, src/shared and Worker-safe packages; Node built-ins only in node.ts/cli.ts', async () => {
    const files = await sources(SERVER);
    assert.ok(files.some((file) => name(file) === 'src/server/handler.ts'));
    for (const file of files) {
      const base = name(file).slice('src/server/'.length);
      for (const { specifier } of await importsOf(file)) {
        const target = resolveRelative(file, specifier);
        const allowed =
          (target !== null &&
            (isInside(target, SERVER) || isInside(target, API) || SHARED.some((dir) => isInside(target, dir)))) ||
          SERVER_PACKAGES.has(specifier) ||
          (NODE_MODULES.has(name(file)) && specifier.startsWith('node:')) ||
          PACKAGES_ALLOWED[base]?.includes(specifier) === true;
        assert.ok(allowed, `${name(file)} imports ${specifier}`);
      }
      if (!NODE_MODULES.has(name(file)))
        assert.equal(usesNode(await readFile(file, 'utf8')), false, `${name(file)} uses a Node-only API`);
    }
    // node.ts loads node:http lazily, so importing the public module pulls in no Node built-in.
    const nodeSource = await readFile(join(SERVER, 'node.ts'), 'utf8');
    assert.doesNotMatch(nodeSource, /^import\s+(?!type)[^;]*['"]node:/m);
  });

  test('src/api (every folder) imports only itself: Web APIs, no package, no Node built-in, nothing of the companion, browser side or emulator', async () => {
    const files = await sources(API);
    assert.ok(files.some((file) => name(file) === 'src/api/resources/agents.ts'));
    assert.ok(files.some((file) => name(file) === 'src/api/types/dials.ts'));
    for (const file of files) {
      for (const { specifier } of await importsOf(file)) {
        const target = resolveRelative(file, specifier);
        assert.ok(target !== null && isInside(target, API), `${name(file)} imports ${specifier}`);
      }
      assert.equal(usesNode(await readFile(file, 'utf8')), false, `${name(file)} uses a Node-only API`);
    }
    // On Node the service calls go through undici, loaded by a name in a variable so that bundlers
    // for Workers leave it out (there fetch does the calls).
    const undiciSource = await readFile(join(API, 'undici.ts'), 'utf8');
    assert.match(undiciSource, /const UNDICI = 'undici'/);
    assert.doesNotMatch(undiciSource, /import\s*\(\s*(\/\*.*?\*\/\s*)?['"]undici/);
  });

  test('no import cycle in src/server and src/api, type-only imports included', async () => {
    const graph = await importGraph({ valuesOnly: false });
    assert.ok(graph.size > 40, `walked ${graph.size} files`);
    const cycle = findCycle(graph);
    assert.equal(cycle, null, `import cycle: ${(cycle ?? []).map(name).join(' → ')}`);
  });

  test('the cycle finder finds a cycle (the test above can fail)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
    ]);
    assert.deepEqual(findCycle(graph), ['a', 'b', 'c', 'a']);
    assert.equal(findCycle(new Map([['a', ['b']]])), null);
  });

  test("the handler loads the API client's dial calls and transport only, never its resources", async () => {
    const loaded = [...reachable(await importGraph({ valuesOnly: true }), join(SERVER, 'handler.ts'))].map(name);
    const fromApi = loaded.filter((file) => file.startsWith('src/api/')).sort();
    assert.deepEqual(fromApi, [
      'src/api/body.ts',
      'src/api/call-control.ts',
      'src/api/dials.ts',
      'src/api/redact.ts',
      'src/api/request.ts',
      'src/api/service-error.ts',
      'src/api/transport.ts',
      'src/api/undici.ts',
    ]);
    // And the whole client does load its resources (the walk sees through them).
    const client = [...reachable(await importGraph({ valuesOnly: true }), join(API, 'client.ts'))].map(name);
    assert.ok(client.includes('src/api/resources/batch-dial-jobs.ts'));
  });
});
