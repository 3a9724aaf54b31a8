// Calls that survive the page (issue 37): in real Chromium through the companion and the emulator, a
// call on one page of a site with `persist`, then a navigation to the next page; the clock starts
// with the second page's navigation (its `performance.timeOrigin`) and stops when the agent is
// heard again (the first inbound audio with energy on the new page) and at `call-resumed`. Each
// sample in a fresh browser context.
import { instrumentedContext, launchChromium } from './lib/browser.js';
import type { Services } from './lib/services.js';
import { fixed, table, withSpread, type BenchSection } from './lib/stats.js';

const PAGE = '/bench/pages/widget-persist.html';

export async function persistReturn(services: Services, options: { calls: number }): Promise<BenchSection> {
  const browser = await launchChromium();
  const heard: number[] = [];
  const resumed: number[] = [];
  try {
    for (let i = 0; i < options.calls; i++) {
      const context = await instrumentedContext(browser, services.origin);
      try {
        const page = await context.newPage();
        await page.goto(`${PAGE}?page=a`);
        await page.waitForFunction('customElements.get("voice-agent-call") !== undefined');
        await page.click('voice-agent-call [part~="call-button"]');
        await page.waitForFunction(
          '"agentPresent" in window.__bench.marks && "firstAudio" in window.__bench.marks',
          null,
          {
            timeout: 30000,
          },
        );
        // A link to the next page of the site.
        await page.goto(`${PAGE}?page=b`);
        await page.waitForFunction(
          '(() => { const m = window.__bench.marks; return ("firstAudio" in m && "resumed" in m) || "ended" in m; })()',
          null,
          { timeout: 30000 },
        );
        const marks = (await page.evaluate('window.__bench.marks')) as Record<string, number>;
        if (marks.ended !== undefined || marks.firstAudio === undefined || marks.resumed === undefined)
          throw new Error('the call did not come back on the second page');
        heard.push(marks.firstAudio);
        resumed.push(marks.resumed);
        await page.evaluate('document.querySelector("voice-agent-call").hangup()');
        await page.waitForFunction('"ended" in window.__bench.marks', null, { timeout: 20000 });
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  const rows = [
    ['second page load → `call-resumed` (room and agent back)', withSpread(resumed, 0), String(resumed.length)],
    ['second page load → the agent heard again (first audio)', withSpread(heard, 0), String(heard.length)],
  ];
  return {
    title: 'Calls that survive the page',
    markdown: [
      `A call on one page of a site with \`persist\`, then a navigation to the next page (\`${PAGE}\`, \`emu-demo\`, which says "Welcome back. Go on." when the caller is back). Milliseconds from the second page's navigation start, median (IQR), ${options.calls} calls, each in a fresh context (the second page loads the entry, the call and media chunks from the cache the first page filled).`,
      '',
      table(['step', 'ms', 'calls'], rows),
    ].join('\n'),
    headline: [
      {
        id: 'persist-return',
        metric: 'second page load → the agent heard again',
        measured: `${fixed(heard.length ? (heard.sort((a, b) => a - b)[Math.floor(heard.length / 2)] ?? NaN) : NaN, 0)} ms`,
        target: '—',
        verdict: 'measured',
      },
    ],
  };
}
