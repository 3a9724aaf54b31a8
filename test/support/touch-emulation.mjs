// A server command for browser tests: `executeServerCommand('emulate-touch', { enabled })` turns
// Chromium's touch emulation on or off for the calling page through the DevTools protocol, as
// DevTools' device mode does: `(pointer: coarse)` and `(hover: none)` then match, so a test can
// measure the touch targets a phone's visitor gets. Chromium only (playwright's CDP session).

/** The plugin for web-test-runner.config.mjs. */
export function touchEmulation() {
  /** One DevTools session per page, kept open: the emulation lasts as long as its session. */
  const sessions = new Map();
  return {
    name: 'touch-emulation',
    async executeCommand({ command, payload, session }) {
      if (command !== 'emulate-touch') return undefined;
      if (session.browser.type !== 'playwright') throw new Error('emulate-touch needs Chromium through playwright');
      const page = session.browser.getPage(session.id);
      let cdp = sessions.get(session.id);
      if (!cdp) {
        cdp = await page.context().newCDPSession(page);
        sessions.set(session.id, cdp);
      }
      const enabled = Boolean(payload?.enabled);
      await cdp.send('Emulation.setTouchEmulationEnabled', { enabled, maxTouchPoints: enabled ? 5 : 1 });
      await cdp.send('Emulation.setEmitTouchEventsForMouse', { enabled, configuration: 'mobile' });
      return true;
    },
  };
}
