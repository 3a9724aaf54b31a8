// A test's `value!` with the check written: the value, or an Error naming what was missing, so a
// test fails where the thing it needs is absent rather than on a property of undefined.

export function present<T>(value: T | null | undefined, what = 'the value'): T {
  if (value === null || value === undefined) throw new Error(`expected ${what}, got ${value}`);
  return value;
}

/** The first two items of `list`, as a pair to destructure; throws naming them when it has fewer. */
export function pair<T>(list: readonly T[], what: string): [T, T] {
  const [first, second] = list;
  if (first === undefined || second === undefined) throw new Error(`expected two ${what}, got ${list.length}`);
  return [first, second];
}
