// Real Chromium for the browser benchmarks: the system Chromium (as the browser tests use), a fake
// microphone granted without a prompt, loopback WebRTC, and the page instrumentation.
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright';
import { join } from 'node:path';
import { ROOT } from './services.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      '--allow-loopback-in-peer-connection',
      '--disable-background-networking',
      '--autoplay-policy=no-user-gesture-required',
      '--enable-precise-memory-info',
      '--js-flags=--expose-gc',
    ],
  });
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
