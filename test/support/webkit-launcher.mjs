// A web-test-runner launcher for WebKitGTK: @web/test-runner-webdriver's launcher (webdriverio)
// talking to WebKitWebDriver (Debian's webkit2gtk-driver), which drives MiniBrowser in automation
// mode. webdriverio starts drivers only for the browsers it knows, so this starts WebKitWebDriver
// itself on a free loopback port, and, where no display is set, a private Xvfb server for it
// (MiniBrowser has no headless mode). Both are stopped with the launcher.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { WebdriverLauncher } from '@web/test-runner-webdriver';
import { freePort } from './free-port.mjs';

export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
export const MINIBROWSER = process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** Resolves with the first line `child` prints on `stream`, or rejects when it exits first. */
function firstLine(child, stream, what) {
  return new Promise((resolve, reject) => {
    const onExit = (code, signal) =>
      reject(new Error(`${what} exited (code ${code}, signal ${signal}) before it was ready`));
    child.once('exit', onExit);
    child.once('error', reject);
    createInterface({ input: stream }).once('line', (line) => {
      child.off('exit', onExit);
      resolve(line);
    });
  });
}

/** Starts Xvfb on the first free display; resolves with `{ child, display }`. */
async function startXvfb() {
  // -displayfd: Xvfb picks a free display number and writes it to fd 3 once it accepts clients.
  const child = spawn('Xvfb', ['-displayfd', '3', '-nolisten', 'tcp', '-screen', '0', '1280x1024x24'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  const display = `:${(await firstLine(child, child.stdio[3], 'Xvfb')).trim()}`;
  return { child, display };
}

/** Starts WebKitWebDriver on `port`, resolving once it listens. */
async function startDriver(port, env) {
  const child = spawn(WEBKIT_DRIVER, [`--port=${port}`, '--host=local'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const started = new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`${WEBKIT_DRIVER} exited (code ${code}, signal ${signal})`)));
  });
  // It prints nothing when ready: poll its status endpoint.
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const ready = await Promise.race([
      fetch(`http://127.0.0.1:${port}/status`).then(
        (response) => response.ok,
        () => false,
      ),
      started,
    ]);
    if (ready) return child;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGTERM');
  throw new Error(`${WEBKIT_DRIVER} did not answer on port ${port}`);
}

function stop(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

class WebKitGtkLauncher extends WebdriverLauncher {
  #children = [];

  constructor(browserArgs) {
    super({
      hostname: '127.0.0.1',
      port: 0,
      logLevel: 'silent',
      capabilities: {
        browserName: 'MiniBrowser',
        'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation', ...browserArgs] },
        // WebDriver classic: the runner needs nothing of BiDi (webdriverio would ask for its socket).
        'wdio:enforceWebDriverClassic': true,
      },
    });
  }

  async initialize(config) {
    await super.initialize(config);
    this.name = 'WebKitGTK';
    await this.#startDriver();
  }

  async #startDriver() {
    const env = { ...process.env };
    if (!env.DISPLAY && !env.WAYLAND_DISPLAY) {
      const xvfb = await startXvfb();
      this.#children.push(xvfb.child);
      env.DISPLAY = xvfb.display;
    }
    const port = await freePort();
    this.#children.push(await startDriver(port, env));
    this.options.port = port;
  }

  async stop() {
    await super.stop();
    // The driver first (it closes MiniBrowser), then the display.
    for (const child of this.#children.reverse()) await stop(child);
    this.#children = [];
  }
}

/** WebKitGTK (MiniBrowser) through WebKitWebDriver; `browserArgs` go to MiniBrowser. */
export function webkitGtkLauncher({ browserArgs = [] } = {}) {
  return new WebKitGtkLauncher(browserArgs);
}
