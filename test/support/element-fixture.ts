// What the element tests driven by a fake session share: the fake sessions, the call chunk loaded
// before their tests run (as after the visitor's intent, so a click makes the session at once),
// and axe-core on the page.
import 'axe-core';
import type AxeCore from 'axe-core';
import { loadCall } from '../../src/element/call-loader.js';
import { useFakeSessions, type FakeSession } from './fake-session.js';

declare global {
  interface Window {
    axe: typeof AxeCore;
  }
}

/** `useFakeSessions()` plus a `before` hook of the calling file that loads the call chunk. */
export function useFakeSessionsCallLoaded(): () => FakeSession {
  const fake = useFakeSessions();
  before(async () => {
    await loadCall();
  });
  return fake;
}

/** axe-core's violations in `el`, one line each: the rule and the nodes it found. */
export async function axeViolations(el: HTMLElement | Document): Promise<string[]> {
  const results = await window.axe.run(el);
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
