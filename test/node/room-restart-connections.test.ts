// The media room's process can crash (libwebrtc is native code) and is started again. The emulator
// holds the room's port meanwhile: a connection made while the room starts again waits for it and
// is answered, where before it was refused ("Failed to fetch" in a browser starting a call then).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { until } from '../support/until.js';

let emulator: Emulator;
before(async () => {
  // No call is made, so there is no standby room process: the restart forks and loads a new one,
  // which leaves a moment (hundreds of milliseconds) in which no room process is ready.
  emulator = await startEmulator({ logger: false });
});
after(() => emulator.close());

test('a connection made while the media room starts again after a crash is answered once it is back, not refused', async () => {
  const before = emulator.health().media;
  assert.equal(before.state, 'up');
  assert.ok(before.pid !== null);
  const roomUrl = emulator.mediaUrl.replace(/^ws:/, 'http:');
  assert.equal((await fetch(`${roomUrl}/`)).status, 200, 'the room answers before the crash');

  process.kill(before.pid, 'SIGSEGV');
  await until(() => emulator.health().media.state === 'restarting', 5000, 'the crash to be noticed');

  // No room process is ready now: the request waits for the next one.
  const during = await fetch(`${roomUrl}/`);
  assert.equal(emulator.health().media.restarts, before.restarts + 1, 'answered by the room started again');
  assert.equal(during.status, 200);
  assert.match(await during.text(), /media room/);
  assert.equal(emulator.health().media.state, 'up');
});
