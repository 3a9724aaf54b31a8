// A site whose page is not in the companion's allow-list (issue 29, item 7): the page must learn
// the real cause, not "network error". The page is http://localhost:<port>, the companion allows
// only http://127.0.0.1:<port>; the browser does the real preflight and CORS checks.
import { expect } from '@open-wc/testing';
import { loadFrame } from '../support/frames.js';
import { until } from '../support/until.js';

interface Reported {
  type: 'call-error' | 'call-ended';
  code?: string;
  message?: string;
  reason?: string;
  error?: string;
}

describe('a page on an origin the companion does not allow', function () {
  this.timeout(60000);

  it('gets call-error origin_not_allowed naming its origin, not a network error', async () => {
    const built = await fetch('/dist/cdn/voice-agent-call.js');
    expect(built.status, 'dist/cdn is missing: run `npm run build` first').to.equal(200);
    const services = (await (await fetch('/__services')).json()) as { companionUrl: string };
    const reports: Reported[] = [];
    const onMessage = (event: MessageEvent<Reported>): void => {
      reports.push(event.data);
    };
    window.addEventListener('message', onMessage);
    const origin = `http://localhost:${location.port}`;
    const page = `${origin}/test/fixtures/cross-origin/index.html?endpoint=${encodeURIComponent(services.companionUrl)}`;
    const frame = await loadFrame(page, { width: 420, height: 520 });
    try {
      await until(() => reports.some((report) => report.type === 'call-ended'), 30000, 'call-ended from the frame');
      const error = reports.find((report) => report.type === 'call-error');
      expect(error?.code, JSON.stringify(reports)).to.equal('origin_not_allowed');
      expect(error?.message).to.contain(origin);
      expect(error?.message).to.contain('COMPANION_ALLOWED_ORIGINS');
      const ended = reports.find((report) => report.type === 'call-ended');
      expect(ended?.reason).to.equal('setup-failed');
    } finally {
      window.removeEventListener('message', onMessage);
      frame.remove();
    }
  });
});
