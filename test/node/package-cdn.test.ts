// The CDN build as a page would load it: one entry with everything needed before the first call,
// livekit-client only in the lazy chunk, and nothing a strict Content-Security-Policy forbids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cdnSizes } from '../../scripts/build-sizes.js';

const CDN = fileURLToPath(new URL('../../dist/cdn/', import.meta.url));

function read(file: string): string {
  assert.ok(existsSync(CDN + file), `dist/cdn/${file} is missing: run \`npm run build\` first`);
  return readFileSync(CDN + file, 'utf8');
}

test('the entry loads nothing else up front; livekit-client is one lazy chunk', () => {
  const sizes = cdnSizes();
  assert.deepEqual(sizes.initial.map((size) => size.file), ['voice-agent-call.js']);
  assert.equal(sizes.lazy.length, 1);
  assert.match(sizes.lazy[0]!.file, /^chunks\/livekit-media-[\w-]+\.js$/);
  const entry = read('voice-agent-call.js');
  const chunk = read(sizes.lazy[0]!.file);
  // livekit-client's own code (its Room class and signal client) lives only in the chunk.
  for (const marker of ['RoomEvent', 'SignalClient', 'livekit_rtc']) {
    assert.ok(!entry.includes(marker), `the entry does not contain ${marker}`);
  }
  assert.ok(chunk.includes('livekit'), 'the chunk holds livekit-client');
  assert.ok(entry.length < chunk.length / 4, 'the entry is a fraction of the media chunk');
});

test('the entry registers the tag and exports the public API', () => {
  const entry = read('voice-agent-call.js');
  assert.match(entry, /customElements\.define\(/);
  for (const name of ['VoiceAgentCall', 'CallEndedEvent', 'CallSession', 'defineVoiceAgentCall']) {
    assert.match(entry, new RegExp(`export\\s*\\{[^}]*\\bas ${name}\\b|export\\s*\\{[^}]*\\b${name}\\b`), `exports ${name}`);
  }
});

test('no eval, no Function constructor, no string timers, no process.env (strict CSP, no bundler)', () => {
  const sizes = cdnSizes();
  for (const file of [...sizes.initial, ...sizes.lazy].map((size) => size.file)) {
    const source = read(file);
    assert.doesNotMatch(source, /\beval\(|new Function\(|\bFunction\(["'`]|set(?:Timeout|Interval)\(["'`]/, `${file}`);
    assert.doesNotMatch(source, /process\.env/, `${file} reads process.env`);
  }
});

test('gzip sizes stay within budget (before the first call, and the media chunk)', () => {
  const sizes = cdnSizes();
  assert.ok(sizes.initial[0]!.gzip < 40 * 1024, `entry gzip ${sizes.initial[0]!.gzip} B`);
  assert.ok(sizes.lazy[0]!.gzip < 200 * 1024, `media chunk gzip ${sizes.lazy[0]!.gzip} B`);
});
