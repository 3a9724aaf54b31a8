// The demo's agent picker with the real service (issue 19, item 17): `default` and the name it
// aliases were two identical entries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { offeredAgents } from '../../demo/scenarios.js';

test('an alias is offered once, under its own name; unknown agents are left out', () => {
  const labels = new Map([
    ['agt-1', 'Sales desk'],
    ['agt-2', 'Support'],
  ]);
  assert.deepEqual(offeredAgents({ default: 'agt-1', sales: 'agt-1', support: 'agt-2', gone: 'agt-9' }, labels), [
    { name: 'sales', label: 'sales: Sales desk' },
    { name: 'support', label: 'support: Support' },
  ]);
  assert.deepEqual(offeredAgents({ default: 'agt-2' }, labels), [{ name: 'default', label: 'default: Support' }]);
});
