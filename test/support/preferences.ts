// The visitor's display preferences (colour scheme, reduced motion) in a test, in any engine.
// Chromium changes them per test through the DevTools protocol (`emulateMedia`). Firefox cannot
// (WebDriver BiDi has no such command): the suite starts it twice, once as installed (light, motion)
// and once with the opposite preferences in its profile (web-test-runner.config.mjs, the
// `firefox-preferences` group), and each run checks the state its browser is in.
import { emulateMedia } from '@web/test-runner-commands';

export interface Preferences {
  colorScheme: 'light' | 'dark';
  reducedMotion: 'reduce' | 'no-preference';
}

/** What the page prefers right now, as its CSS media queries see it. */
export function currentPreferences(): Preferences {
  return {
    colorScheme: matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
    reducedMotion: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'reduce' : 'no-preference',
  };
}

const BOTH: readonly [Preferences, Preferences] = [
  { colorScheme: 'light', reducedMotion: 'no-preference' },
  { colorScheme: 'dark', reducedMotion: 'reduce' },
];

/**
 * Whether this browser's driver can change the preferences: only through the DevTools protocol,
 * which only Chromium speaks. (Asked by trying instead, the other drivers fail the command, and
 * web-test-runner prints each failure's stack trace in the run's output.)
 */
const canEmulate = /Chrome\//.test(navigator.userAgent);

/**
 * Runs `check` under every preference state this browser can show: both (light with motion, dark
 * with reduced motion) where the driver can emulate them, else the state the browser was started
 * in. Leaves the page as it was.
 */
export async function eachPreference(check: (preferences: Preferences) => Promise<void>): Promise<void> {
  if (!canEmulate) {
    await check(currentPreferences());
    return;
  }
  try {
    for (const preferences of BOTH) {
      await emulateMedia(preferences);
      await check(preferences);
    }
  } finally {
    await emulateMedia(BOTH[0]);
  }
}
