// Browser tests: real Debian Chromium (`npm run test:browser`) or Firefox ESR (`npm run
// test:firefox`, WTR_BROWSERS=firefox) with a fake microphone, talking to the emulator's loopback
// room over real WebRTC. Run inside a network namespace with only `lo` up (see .ci/run).
import { playwrightLauncher } from '@web/test-runner-playwright';
import { chromeLauncher } from '@web/test-runner-chrome';
import * as puppeteer from 'puppeteer-core';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { testServices } from './test/support/wtr-services.mjs';
import { faultServices } from './test/support/fault-proxy.mjs';
import { closingCounts, servicesLogFile } from './test/support/closing-counts.mjs';
import { plainStatic } from './test/support/plain-static.mjs';
import { withoutExpected404s } from './test/support/expected-404s.mjs';
import { touchEmulation } from './test/support/touch-emulation.mjs';
import { defaultReporter } from '@web/test-runner';
import { testFiles } from './test/support/wtr-files.mjs';
import { freePort } from './test/support/free-port.mjs';

// Quiet by default (browser console output and the services' logs stay out of the terminal);
// VERBOSE=1 shows them all.
const verbose = process.env.VERBOSE === '1';

/** The engines of this run (`WTR_BROWSERS`, comma-separated): `npm test` runs chromium and firefox side by side. */
const engines = (process.env.WTR_BROWSERS ?? 'chromium').split(',');
const label = engines.join('+');

const services = testServices({ log: servicesLogFile(label) });
const faults = faultServices();

const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  '--allow-loopback-in-peer-connection',
];

// Firefox (Debian's firefox-esr) through puppeteer-core over WebDriver BiDi. These prefs give a
// call without a person: a fake microphone, no permission prompt, ICE on loopback, autoplay.
// `permission.fake` counts the page as granted the microphone: without it Firefox gathers ICE
// candidates only on the default route's address, and a namespace with only `lo` has none.
// `force_mock_context`: an audio output without a sound server (CI has none), without which an
// AudioContext never leaves `suspended` and the voice meters read 0.
const firefoxPrefs = {
  'media.navigator.streams.fake': true,
  'media.navigator.permission.disabled': true,
  'media.navigator.permission.fake': true,
  'media.peerconnection.ice.loopback': true,
  'media.autoplay.default': 0,
  'media.cubeb.force_mock_context': true,
};

/** Firefox with the opposite display preferences: dark, reduced motion (test/support/preferences.ts). */
const firefoxOppositePrefs = {
  ...firefoxPrefs,
  'layout.css.prefers-color-scheme.content-override': 0,
  'ui.prefersReducedMotion': 1,
};

const firefox = (prefs) =>
  chromeLauncher({
    puppeteer,
    launchOptions: {
      browser: 'firefox',
      executablePath: process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr',
      headless: true,
      extraPrefsFirefox: prefs,
    },
  });

const launchers = {
  chromium: () =>
    playwrightLauncher({
      product: 'chromium',
      launchOptions: {
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        headless: true,
        args: chromiumArgs,
      },
    }),
  firefox: () => firefox(firefoxPrefs),
};

/**
 * Firefox cannot change display preferences per test (Chromium emulates them), so the files that
 * check them run a second time in a Firefox started with the opposite ones. Only in whole runs.
 */
const groups =
  engines.includes('firefox') && !process.env.WTR_FILES
    ? [
        {
          name: 'firefox-opposite-preferences',
          files: ['test/browser/element-preferences.test.ts', 'test/browser/element-presence.test.ts'],
          browsers: [firefox(firefoxOppositePrefs)],
        },
      ]
    : [];

/**
 * The room suite's extra runs (livekit-client 2.23 on v0, livekit-client 2.15): in Chromium only,
 * to keep the whole run short; Firefox runs the suite once, on the project's client and path.
 */
const CHROMIUM_ONLY = [
  'test/browser/room-scenarios-v0.test.ts',
  'test/browser/room-scenarios-2-15.test.ts',
  // Touch targets need a touch screen, which only Chromium emulates (test/support/touch-emulation.mjs).
  'test/browser/element-touch-targets.test.ts',
];

export default {
  files: testFiles(
    ['test/browser/**/*.test.ts', ...(engines.includes('chromium') ? [] : CHROMIUM_ONLY.map((file) => `!${file}`))],
    label,
  ),
  nodeResolve: true,
  hostname: '127.0.0.1',
  // A port the system hands out: web-test-runner's own choice probes up from 8000, which two runs
  // started together (npm test's Chromium and Firefox runs) could both find free and both take.
  port: await freePort(),
  concurrency: 1,
  // One browser at a time: the second Firefox (the opposite preferences) places calls too, and
  // calls running beside each other's slow down the room's timing checks.
  concurrentBrowsers: 1,
  // Quiet, except the reports tests print on purpose (the soaks' results, the room's timings).
  filterBrowserLogs: ({ args }) => verbose || /^(SOAK|MEDIA-SOAK|room timing) /.test(String(args[0])),
  // The progress bar only where a person watches it: piped (CI), its redraws are hundreds of lines.
  reporters: [
    withoutExpected404s(defaultReporter({ reportTestProgress: Boolean(process.stdout.isTTY) })),
    closingCounts({ label }),
  ],
  testFramework: { config: { timeout: 30000 } },
  // Opening a test page is not what any test checks: under .ci/run's load (the Node 22 and 24 runs
  // beside it) Firefox once took over web-test-runner's default 30 s to open one, failing a file
  // before it ran. Each test keeps its own 30 s.
  browserStartTimeout: 90000,
  // The whole run's bound; the soaks set a longer one (WTR_FINISH_TIMEOUT_MS).
  testsFinishTimeout: Number(process.env.WTR_FINISH_TIMEOUT_MS ?? 10 * 60 * 1000),
  middleware: [services.middleware, faults.middleware, plainStatic],
  plugins: [
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: './tsconfig.json' }),
    services.plugin,
    faults.plugin,
    touchEmulation(),
  ],
  browsers: engines.map((name) => launchers[name]()),
  groups,
};
