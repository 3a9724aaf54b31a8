// The built CDN file (dist/cdn/voice-agent-call.js, from `npm run build`) in a page served with a
// strict Content-Security-Policy: no inline script or style, no eval, only the loopback media room
// besides the page's own origin. A visitor clicks call on emu-quick and the call completes.
import { expect } from '@open-wc/testing';
import type { CallResult } from '../../src/call/types.js';
import { find, findPart, part } from '../support/dom.js';
import { frameDocument, frameWindow, loadFrame } from '../support/frames.js';
import { present } from '../support/present.js';
import { until } from '../support/until.js';

interface CspPage {
  violations: string[];
  ended: CallResult[];
  evalBlocked: boolean;
}

function resources(frame: HTMLIFrameElement): string[] {
  return frameWindow(frame)
    .performance.getEntriesByType('resource')
    .map((entry) => new URL(entry.name).pathname);
}

describe('CDN build under a strict Content-Security-Policy', function () {
  this.timeout(60000);

  it('the page really is under the policy', async () => {
    const response = await fetch('/test/fixtures/csp/index.html');
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).to.include("default-src 'self'");
    expect(policy).to.not.include('unsafe-inline');
    expect(policy).to.not.include('unsafe-eval');
  });

  it('registers the element, loads livekit-client only on the first call, and completes an emu-quick call', async () => {
    const built = await fetch('/dist/cdn/voice-agent-call.js');
    expect(built.status, 'dist/cdn is missing: run `npm run build` first').to.equal(200);
    const frame = await loadFrame('/test/fixtures/csp/index.html', { width: 420, height: 520 });
    try {
      const win = frame.contentWindow as Window & { cspPage?: CspPage };
      await until(
        () => win.customElements.get('voice-agent-call') !== undefined,
        20000,
        'the CDN file registers <voice-agent-call>',
      );
      const page = present(win.cspPage, "the CSP page's record (window.cspPage)");
      expect(page.evalBlocked, 'eval is refused on this page').to.equal(true);

      const el = find(frameDocument(frame), 'voice-agent-call');
      await until(
        () => el.shadowRoot !== null && findPart(el, 'call-button') !== null,
        20000,
        'the call button renders',
      );
      const button = () => part(el, 'call-button');
      expect(getComputedStyle(button()).cursor, 'the shadow styles apply under the policy').to.equal('pointer');
      expect(
        resources(frame).some((path) => path.includes('livekit-media')),
        'no media chunk before the click',
      ).to.equal(false);

      button().click();
      await until(() => page.ended.length > 0, 40000, 'call-ended');
      const result = present(page.ended[0], 'a call-ended result');
      expect(result.reason, JSON.stringify(result.error ?? null)).to.equal('agent-hangup');
      expect(result.dialId).to.be.a('string');
      expect(result.transcript.some((entry) => entry.speaker === 'AI' && entry.text.length > 0)).to.equal(true);
      expect(
        resources(frame).some((path) => /\/dist\/cdn\/chunks\/livekit-media-[\w-]+\.js$/.test(path)),
        'the media chunk loaded on the call',
      ).to.equal(true);
      expect(page.violations).to.deep.equal([]);
      expect(page.ended.length).to.equal(1);
    } finally {
      frame.remove();
    }
  });
});
