// The demo's scenario picker offers every scenario agent the emulator has (issue 40: the docs send
// visitors to `emu-keypad` to try the keypad, and the picker lacked it), each once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SCENARIOS } from '../../demo/scenarios.js';
import { SCENARIO_AGENT_IDS } from '../../src/emulator/index.js';

test('the demo picker offers every emulator scenario agent, each once', () => {
  const offered = SCENARIOS.map(({ name }) => name);
  assert.deepEqual([...offered].sort(), [...SCENARIO_AGENT_IDS].sort());
  assert.equal(new Set(SCENARIOS.map(({ label }) => label)).size, SCENARIOS.length);
});
