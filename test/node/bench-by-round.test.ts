// The benchmarks' pairing of calls by round (bench/lib/stats.ts `byRound`): each ratio and
// round-by-round change in the time-to-talk sections compares a call with the one of the same
// round, and a round where either side has no figure is left out, not paired with another round's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { byRound } from '../../bench/lib/stats.js';

test('pairs each sample with the same round of the other side, in the first side’s order', () => {
  const widget = [
    { round: 2, ms: 300 },
    { round: 0, ms: 100 },
    { round: 1, ms: 200 },
  ];
  const baseline = [
    { round: 0, ms: 50 },
    { round: 1, ms: 100 },
    { round: 2, ms: 200 },
  ];
  const ratios = byRound(
    widget,
    (s) => s.ms,
    baseline,
    (s) => s.ms,
    (a, b) => a / b,
  );
  assert.deepEqual(ratios, [1.5, 2, 2]);
});

test('leaves out a round missing on either side or without a figure; a zero is a figure', () => {
  const now: Array<{ round: number; ms: number | null }> = [
    { round: 0, ms: 10 },
    { round: 1, ms: null },
    { round: 2, ms: 30 },
    { round: 3, ms: 0 },
  ];
  const before: Array<{ round: number; ms: number | null }> = [
    { round: 0, ms: 4 },
    { round: 1, ms: 5 },
    { round: 3, ms: 7 },
    { round: 4, ms: 9 },
  ];
  const ms = (sample: { ms: number | null }) => sample.ms;
  const change = (a: number, b: number) => a - b;
  // Round 1 has no figure now, round 2 none before, round 4 none now.
  assert.deepEqual(byRound(now, ms, before, ms, change), [6, -7]);
  // The zero of round 3 is a reference too.
  assert.deepEqual(byRound(before, ms, now, ms, change), [-6, 7]);
});
