// The built package as a consumer sees it: every `exports` subpath resolves to a built file with
// its types, imports in plain Node without a DOM (what SSR frameworks do), and has only the side
// effects package.json declares. Needs `npm run build` first (`npm test` runs it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
  name: string;
  exports: Record<string, string | Record<string, string>>;
  sideEffects: string[];
  bin: Record<string, string>;
  files: string[];
  customElements: string;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

function requireBuild(): void {
  assert.ok(
    existsSync(`${ROOT}dist/index.js`) && existsSync(`${ROOT}dist/cdn/voice-agent-call.js`),
    'dist/ is missing: run `npm run build` first',
  );
}

/** Runs an ES module snippet in a fresh Node process (no DOM), from the package root so the package can import itself by name. */
async function inFreshNode(code: string): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, ['--input-type=module', '--eval', code], { cwd: ROOT, timeout: 20_000 });
}

const moduleSubpaths = Object.entries(pkg.exports).filter(([, target]) => typeof target !== 'string');

test('every module subpath lists its types first and both files exist', () => {
  requireBuild();
  const subpaths = moduleSubpaths.map(([subpath]) => subpath);
  for (const required of ['.', './define', './react', './vue', './server', './emulator', './api']) {
    assert.ok(subpaths.includes(required), `exports has ${required}`);
  }
  for (const [subpath, target] of moduleSubpaths) {
    const conditions = target as Record<string, string>;
    assert.equal(Object.keys(conditions)[0], 'types', `${subpath}: "types" must come first`);
    for (const file of Object.values(conditions))
      assert.ok(existsSync(`${ROOT}${file}`), `${subpath}: ${file} is not built`);
  }
  assert.ok(existsSync(`${ROOT}${pkg.customElements}`), 'custom-elements.json is not built');
});

const EXPECTED_EXPORTS: Record<string, string[]> = {
  '.': ['VoiceAgentCall', 'CallSession', 'CallEndedEvent', 'CallStateEvent', 'CallErrorEvent'],
  './define': ['VoiceAgentCall', 'defineVoiceAgentCall', 'TAG_NAME'],
  './react': ['VoiceAgentCall', 'voiceAgentCallEvents'],
  './vue': ['isVoiceAgentCallTag', 'VOICE_AGENT_CALL_TAG'],
  './server': ['createCompanionHandler', 'createNodeListener', 'listen'],
  './emulator': ['startEmulator'],
  './api': ['VoiceAgentApi', 'ServiceError', 'paginate'],
};

for (const [subpath] of moduleSubpaths) {
  const specifier = subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
  test(`import '${specifier}' in plain Node (no DOM) does not throw`, async () => {
    requireBuild();
    const { stdout } = await inFreshNode(`
      const before = [typeof window, typeof document];
      const module = await import(${JSON.stringify(specifier)});
      console.log(JSON.stringify({ before, keys: Object.keys(module) }));
    `);
    const { before, keys } = JSON.parse(stdout) as { before: string[]; keys: string[] };
    assert.deepEqual(before, ['undefined', 'undefined'], 'the test process must have no DOM');
    for (const name of EXPECTED_EXPORTS[subpath] ?? []) assert.ok(keys.includes(name), `${specifier} exports ${name}`);
  });
}

test("'voice-agent-call/api' is the client; '/server' re-exports the same classes, not copies", async () => {
  requireBuild();
  const { stdout } = await inFreshNode(`
    const api = await import('voice-agent-call/api');
    const server = await import('voice-agent-call/server');
    const client = new api.VoiceAgentApi({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' });
    console.log(JSON.stringify({
      same: api.VoiceAgentApi === server.VoiceAgentApi && api.ServiceError === server.ServiceError && api.paginate === server.paginate,
      groups: Object.keys(client),
      create: typeof client.dials.create,
    }));
  `);
  const { same, groups, create } = JSON.parse(stdout) as { same: boolean; groups: string[]; create: string };
  assert.equal(same, true);
  assert.ok(groups.includes('dials') && groups.includes('agents') && groups.includes('batchDialJobs'), groups.join());
  assert.equal(create, 'function');
});

test("'voice-agent-call' registers nothing; '/define' registers the tag once and a second time only warns", async () => {
  requireBuild();
  const { stdout, stderr } = await inFreshNode(`
    const index = await import('voice-agent-call');
    const afterIndex = customElements.get('voice-agent-call') ?? null;
    const define = await import('voice-agent-call/define');
    const registered = customElements.get('voice-agent-call') === index.VoiceAgentCall;
    define.defineVoiceAgentCall();
    console.log(JSON.stringify({ afterIndex, registered }));
  `);
  assert.deepEqual(JSON.parse(stdout), { afterIndex: null, registered: true });
  assert.match(stderr, /already registered/);
});

test('the React component renders its tag on the server (SSR) with typed event props wired to DOM events', async () => {
  requireBuild();
  const { stdout } = await inFreshNode(`
    const { VoiceAgentCall, voiceAgentCallEvents } = await import('voice-agent-call/react');
    const { createElement } = await import('react');
    const { renderToString } = await import('react-dom/server');
    const html = renderToString(
      createElement(VoiceAgentCall, {
        endpoint: '/api/voice-call',
        consent: 'Calls are recorded.',
        'consent-storage': 'local',
        feedback: 'server',
        onCallEnded: () => {},
      }),
    );
    console.log(JSON.stringify({ html, events: voiceAgentCallEvents, name: VoiceAgentCall.displayName }));
  `);
  const { html, events, name } = JSON.parse(stdout) as { html: string; events: Record<string, string>; name: string };
  assert.match(html, /^<voice-agent-call[\s>]/);
  // The attributes without a property (consent, consent-storage, feedback) reach the tag as attributes.
  for (const attribute of ['consent="Calls are recorded."', 'consent-storage="local"', 'feedback="server"'])
    assert.ok(html.includes(attribute), `${attribute} in ${html}`);
  assert.equal(name, 'VoiceAgentCall');
  assert.deepEqual(events, {
    onCallState: 'call-state',
    onCallConnected: 'call-connected',
    onCallResumed: 'call-resumed',
    onCallTranscript: 'call-transcript',
    onCallMute: 'call-mute',
    onCallHold: 'call-hold',
    onCallDtmf: 'call-dtmf',
    onCallDevice: 'call-device',
    onCallQuality: 'call-quality',
    onCallProgress: 'call-progress',
    onCallTransfer: 'call-transfer',
    onCallError: 'call-error',
    onCallEnded: 'call-ended',
    onCallConsent: 'call-consent',
    onCallFeedback: 'call-feedback',
  });
});

test('publint: no errors, warnings or suggestions', async () => {
  requireBuild();
  const { publint } = await import('publint');
  const { formatMessage } = await import('publint/utils');
  const { messages } = await publint({ pkgDir: ROOT, level: 'suggestion', strict: true });
  assert.deepEqual(
    messages.map((message) => `${message.type}: ${formatMessage(message, pkg) ?? message.code}`),
    [],
  );
});

test('the published files: dist (with the CDN build and the manifest), bins, sources, the docs pages; no tests, demo or scripts', async () => {
  requireBuild();
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    timeout: 60_000,
  });
  const [packed] = JSON.parse(stdout) as [{ files: { path: string }[] }];
  const paths = packed.files.map((file) => file.path);
  for (const required of [
    'package.json',
    'README.md',
    'docs/embedding.md',
    'docs/companion.md',
    'docs/emulator.md',
    'docs/development.md',
    'dist/index.js',
    'dist/index.d.ts',
    'dist/react.js',
    'dist/vue.d.ts',
    'dist/api/index.js',
    'dist/api/index.d.ts',
    'dist/server/index.js',
    'dist/cdn/voice-agent-call.js',
    'dist/custom-elements.json',
    'bin/voice-agent-emulator.js',
    'bin/voice-agent-companion.js',
  ]) {
    assert.ok(paths.includes(required), `${required} is published`);
  }
  assert.ok(
    paths.some((path) => /^dist\/cdn\/chunks\/livekit-media-[\w-]+\.js$/.test(path)),
    'the lazy media chunk is published',
  );
  // Tools (IDEs, Storybook) read the manifest the "customElements" field names from the installed package.
  assert.ok(
    paths.includes(pkg.customElements.replace(/^\.\//, '')),
    `customElements (${pkg.customElements}) is published`,
  );
  const unwanted = paths.filter(
    (path) => /^(test|demo|scripts|bench|node_modules|dist\/demo)\//.test(path) || path.startsWith('.'),
  );
  assert.deepEqual(unwanted, []);
});

test('sideEffects names only the define and CDN modules', () => {
  for (const entry of pkg.sideEffects) {
    assert.match(entry, /^\.\/(dist|src)\/define\.(js|ts)$|^\.\/dist\/cdn\//, `${entry} is not a define or CDN module`);
  }
});

test('bins are executable scripts that run the built CLIs', () => {
  for (const [name, file] of Object.entries(pkg.bin)) {
    const source = readFileSync(`${ROOT}${file}`, 'utf8');
    assert.ok(source.startsWith('#!/usr/bin/env node\n'), `${name} has a node shebang`);
    const target = /import '(\.\.\/dist\/[^']+)'/.exec(source)?.[1];
    assert.ok(target && existsSync(new URL(target, `file://${ROOT}${file}`)), `${name} imports a built file`);
  }
});

test("the emulator's native and protocol packages are optional peers, never forced on widget users", () => {
  for (const name of ['@roamhq/wrtc', 'ws', '@livekit/protocol', 'react', 'vue']) {
    assert.equal(pkg.dependencies[name], undefined, `${name} is not a dependency`);
    assert.ok(pkg.peerDependencies[name], `${name} is a peer dependency`);
    assert.equal(pkg.peerDependenciesMeta[name]?.optional, true, `${name} is optional`);
  }
  assert.ok(
    pkg.dependencies['jose'] &&
      pkg.dependencies['lit'] &&
      pkg.dependencies['livekit-client'] &&
      pkg.dependencies['@lit/react'],
  );
});
