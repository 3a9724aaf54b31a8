// A benchmark's `list[index]!` with the check written: the item, or an Error naming what was
// missing, so a run fails where a sample set or result is absent rather than on a property of undefined.

/** `list.at(index)` (a negative index counts from the end), or an Error naming `what` when there is no such item. */
export function nth<T>(list: readonly T[], index: number, what: string): T {
  const item = list.at(index);
  if (item === undefined) throw new Error(`expected ${what} at index ${index}, got ${list.length} items`);
  return item;
}
