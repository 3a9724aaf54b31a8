// Real Chromium for the browser benchmarks: the system Chromium (as the browser tests use), a fake
// microphone granted without a prompt, loopback WebRTC, and the page instrumentation.
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './services.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  '--allow-loopback-in-peer-connection',
  '--disable-background-networking',
  '--autoplay-policy=no-user-gesture-required',
  '--enable-precise-memory-info',
  '--js-flags=--expose-gc',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** A fresh context (cold cache, like a first visit) with the page instrumentation installed; `extra`, e.g. touch emulation. */
export async function instrumentedContext(
  browser: Browser,
  origin: string,
  extra: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({ permissions: ['microphone'], baseURL: origin, ...extra });
  await context.addInitScript({ path: join(ROOT, 'bench/pages/instrument.js') });
  return context;
}

/** How long a new profile is left to settle before its page loads. */
const PROFILE_SETTLE_MS = 1000;

/**
 * A first visit in a normal window: Chromium with a new, empty profile of its own (cold cache, no
 * connections), the same flags and instrumentation; `close` removes the profile. Not a context
 * of one browser: those are incognito, where Chromium ignores `<link rel="preconnect">` (a
 * persistent profile honours it, as a visitor's normal window does), so the connections the widget
 * warms would count as opened on the critical path.
 */
export async function freshProfile(
  origin: string,
  extra: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'vac-bench-profile-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    args: ARGS,
    permissions: ['microphone'],
    baseURL: origin,
    ...extra,
  });
  await context.addInitScript({ path: join(ROOT, 'bench/pages/instrument.js') });
  // A new profile's first seconds are busy (its databases and services start): the page loads
  // once they have settled, as in a browser that has been running a while.
  await new Promise((resolve) => setTimeout(resolve, PROFILE_SETTLE_MS));
  const close = async () => {
    await context.close();
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
  return { context, close };
}
