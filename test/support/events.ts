// Recording what an element announces: a test reads the list afterwards instead of keeping an
// array and a listener of its own for each event it checks.

/** What `pick` takes from every `type` event `el` fires from now on, in order. */
export function collect<K extends keyof HTMLElementEventMap, T>(
  el: HTMLElement,
  type: K,
  pick: (event: HTMLElementEventMap[K]) => T,
): T[] {
  const seen: T[] = [];
  el.addEventListener(type, (event) => seen.push(pick(event)));
  return seen;
}
