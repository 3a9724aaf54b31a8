// The network benchmark's order of calls in a round (bench/network-talk.ts `roundOrder`): a call
// through a companion that served the call just before finds its upstream connections warm, so each
// widget kind must follow a call through its own companion in as many rounds as it follows one
// through the other's. Pure function: no timing is measured or asserted here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { roundOrder, type Kind } from '../../bench/network-talk.js';

/** Which companion a kind's calls go through: this tree's (the hand-written page uses it too) or the compared one's. */
const companion = (kind: Kind): string => (kind.startsWith('before') ? 'before' : 'this');

/** For each kind, in how many of the rounds' calls the call before it went through the same companion (rounds run back to back). */
function warmCounts(here: Kind[], rounds: number): Map<Kind, number> {
  const calls = Array.from({ length: rounds }, (_, round) => roundOrder(here, round)).flat();
  const warm = new Map<Kind, number>(here.map((kind) => [kind, 0]));
  calls.forEach((kind, index) => {
    const before = calls[index - 1];
    if (before && companion(before) === companion(kind)) warm.set(kind, (warm.get(kind) ?? 0) + 1);
  });
  return warm;
}

test('with the phone and a compared tree, each widget kind follows its own companion in half its rounds', () => {
  const here: Kind[] = ['hand', 'desktop', 'phone', 'before-desktop', 'before-phone'];
  for (let round = 0; round < 2; round += 1) assert.deepEqual([...roundOrder(here, round)].sort(), [...here].sort());
  // Ten rounds back to back: each widget kind 10 calls, 5 of them warm (give or take the very first call).
  const warm = warmCounts(here, 10);
  for (const kind of ['desktop', 'phone', 'before-desktop', 'before-phone'] as const)
    assert.ok(Math.abs((warm.get(kind) ?? 0) - 5) <= 1, `${kind}: ${warm.get(kind)} of 10 warm`);
});

test('without the phone (the other networks), the same holds with an order and its reverse', () => {
  const here: Kind[] = ['hand', 'desktop', 'before-desktop'];
  const warm = warmCounts(here, 10);
  for (const kind of ['desktop', 'before-desktop'] as const)
    assert.ok(Math.abs((warm.get(kind) ?? 0) - 5) <= 1, `${kind}: ${warm.get(kind)} of 10 warm`);
});
