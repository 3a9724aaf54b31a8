// The rating with feedback="server" over the real path: a call through the companion and the
// emulator that the agent ends, the visitor's thumbs and comment, and the companion taking the
// rating for that dial with its handle (once: the companion's own tests cover the 409).
import { expect, fixture, html } from '@open-wc/testing';
import type { VoiceAgentCall } from '../../src/define.js';
import '../../src/define.js';
import { part } from '../support/dom.js';
import { collect } from '../support/events.js';
import { until } from '../support/until.js';

describe('<voice-agent-call feedback="server"> end to end (companion + emulator)', function () {
  this.timeout(60000);

  it('after the call the rating reaches the companion with the dial handle and is taken', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-quick" feedback="server"></voice-agent-call>`,
    );
    const ended = collect(el, 'call-ended', (event) => event.detail);
    const rated = collect(el, 'call-feedback', (event) => event.detail);
    const answers: Array<{ request: string; status: number; authorized: boolean }> = [];
    const fetch = window.fetch;
    window.fetch = async function (input: RequestInfo | URL, init?: RequestInit) {
      const response = await fetch.call(window, input, init);
      const url = new URL(input instanceof Request ? input.url : String(input), location.href);
      if (url.pathname.endsWith('/feedback')) {
        const headers = new Headers(init?.headers);
        answers.push({
          request: `${init?.method ?? 'GET'} ${url.pathname} ${String(init?.body)}`,
          status: response.status,
          authorized: /^Bearer \S+$/.test(headers.get('authorization') ?? ''),
        });
      }
      return response;
    };
    try {
      part(el, 'call-button').click();
      await until(() => ended.length === 1, 45000, 'call-ended');
      await el.updateComplete;
      const dialId = ended[0]?.dialId ?? '';
      expect(dialId).to.not.equal('');
      part(el, 'feedback-up').click();
      await el.updateComplete;
      const comment = part<HTMLTextAreaElement>(el, 'feedback-comment');
      comment.value = 'Clear and quick';
      comment.dispatchEvent(new Event('input'));
      part(el, 'feedback-send').click();
      expect(rated).to.deep.equal([{ dialId, rating: 'up', comment: 'Clear and quick' }]);
      await until(() => answers.length === 1, 10000, 'the companion answered the rating');
      expect(answers[0]).to.deep.equal({
        request: `POST /api/voice-call/dials/${dialId}/feedback {"rating":"up","comment":"Clear and quick"}`,
        status: 200,
        authorized: true,
      });
    } finally {
      window.fetch = fetch;
    }
  });
});
