// Browser tests in WebKitGTK (`npm run test:webkit`): the tests that need no call, driven through
// WebKitWebDriver (webkit2gtk-driver). Debian's WebKitGTK build has no RTCPeerConnection, so no
// call can be placed in it: these files drive the element with scripted sessions, or not at all.
// No emulator or companion is started for them. Run inside a network namespace with only `lo` up.
import { existsSync } from 'node:fs';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { defaultReporter } from '@web/test-runner';
import { closingCounts } from './test/support/closing-counts.mjs';
import { webkitGtkLauncher } from './test/support/webkit-launcher.mjs';
import { testFiles } from './test/support/wtr-files.mjs';
import { freePort } from './test/support/free-port.mjs';

const verbose = process.env.VERBOSE === '1';

/** The files that run in WebKit; one listed but not (yet) in the tree is left out. */
export const WEBKIT_FILES = [
  'test/browser/call/states.test.ts',
  'test/browser/call/events.test.ts',
  'test/browser/call/endings.test.ts',
  'test/browser/call/transcript.test.ts',
  'test/browser/call/media/live-events.test.ts',
  'test/browser/element-entry.test.ts',
  'test/browser/element-idle.test.ts',
  'test/browser/element-ui.test.ts',
  'test/browser/element-controls-ui.test.ts',
  // WebDriver cannot emulate media features: each preference test checks the state WebKit is in.
  'test/browser/element-preferences.test.ts',
  'test/browser/element-long-transcript.test.ts',
  'test/browser/element-preload.test.ts',
  // The unsupported-browser state (true in this build), when it lands.
  'test/browser/unsupported-browser.test.ts',
].filter((file) => existsSync(file));

export default {
  files: testFiles(WEBKIT_FILES, 'webkit'),
  nodeResolve: true,
  hostname: '127.0.0.1',
  // Not web-test-runner's probe up from 8000: it runs beside the Firefox run (web-test-runner.config.mjs).
  port: await freePort(),
  concurrency: 1,
  filterBrowserLogs: () => verbose,
  // The progress bar only where a person watches it (web-test-runner.config.mjs).
  reporters: [
    defaultReporter({ reportTestProgress: Boolean(process.stdout.isTTY) }),
    closingCounts({ label: 'webkit', servicesLog: null }),
  ],
  testFramework: { config: { timeout: 30000 } },
  testsFinishTimeout: Number(process.env.WTR_FINISH_TIMEOUT_MS ?? 3 * 60 * 1000),
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: './tsconfig.json' })],
  browsers: [webkitGtkLauncher()],
};
