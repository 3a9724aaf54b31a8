// The version a page or a bundle reads is package.json's, put in by the builds (no hand-kept copy).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { VERSION as SOURCE_VERSION } from '../../src/version.js';

const ROOT = new URL('../../', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { version: string };

test("dist/version.js (the npm package's) exports package.json's version", async () => {
  const { VERSION } = (await import(new URL('dist/version.js', ROOT).href)) as { VERSION: string };
  assert.equal(VERSION, version);
});

test("the CDN entry exports package.json's version, with no placeholder left", () => {
  const entry = readFileSync(new URL('dist/cdn/voice-agent-call.js', ROOT), 'utf8');
  assert.doesNotMatch(entry, /__VOICE_AGENT_CALL_VERSION__/);
  const binding = /\b(\w+) as VERSION\b/.exec(entry)?.[1];
  assert.ok(binding, 'the entry exports VERSION');
  assert.match(entry, new RegExp(`\\b${binding}=[\`'"]${version.replaceAll('.', '\\.')}[\`'"]`));
});

test('run from source, the version says it is a development build', () => {
  assert.equal(SOURCE_VERSION, '0.0.0-development');
});
