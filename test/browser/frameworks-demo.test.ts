// The React and Vue demo pages, built (`npm run build:demo` → dist/demo/) as a visitor gets them:
// a call on emu-quick from each, and the page's own typed handlers (React `onCallEnded`, Vue
// `@call-ended`) receive the result and render it.
import { expect } from '@open-wc/testing';
import { loadFrame } from '../support/frames.js';
import { until } from '../support/until.js';

for (const framework of ['react', 'vue'] as const) {
  describe(`${framework === 'react' ? 'React' : 'Vue'} demo page`, function () {
    this.timeout(60000);

    it('renders the element through the framework and its handler receives call-ended once', async () => {
      const built = await fetch(`/dist/demo/${framework}.html`);
      expect(built.status, 'dist/demo is missing: run `npm run build:demo` first').to.equal(200);
      const frame = await loadFrame(`/dist/demo/${framework}.html?agent=emu-quick`, { width: 1000, height: 800 });
      try {
        const doc = frame.contentDocument!;
        const text = (selector: string): string => doc.querySelector(selector)?.textContent?.trim() ?? '';
        await until(() => doc.querySelector('voice-agent-call')?.shadowRoot?.querySelector('[part~="call-button"]') != null, 20000, 'the element renders');
        // Both frameworks set known properties as properties, not attributes.
        const el = doc.querySelector('voice-agent-call')! as Element & { endpoint?: string; agent?: string; inputs?: Record<string, string> };
        expect(el.endpoint).to.equal('/api/voice-call');
        expect(el.agent, 'the framework passes the agent').to.equal('emu-quick');
        expect(el.inputs, 'objects pass as properties').to.deep.equal({ name: framework === 'react' ? 'React demo' : 'Vue demo' });
        expect((doc.querySelector('#agent') as HTMLSelectElement).value).to.equal('emu-quick');
        expect(doc.querySelector('#result'), 'no result before a call').to.equal(null);

        el.shadowRoot!.querySelector<HTMLButtonElement>('[part~="call-button"]')!.click();
        await until(() => text(`#${framework}-state`) === 'in-call', 20000, `the ${framework} call-state handler sees in-call`);
        await until(() => doc.querySelector('#result') !== null, 40000, `the ${framework} call-ended handler renders the result`);

        expect(doc.querySelector('#result')!.getAttribute('data-reason')).to.equal('agent-hangup');
        expect(text('#ended-count')).to.equal('1');
        expect(text(`#${framework}-state`)).to.equal('ended');
        const lines = [...doc.querySelectorAll('#result .lines li')].map((line) => line.textContent ?? '');
        expect(lines.length, 'the transcript from the result is shown').to.be.greaterThan(0);
        expect(doc.querySelector('#result .result')!.textContent).to.include('AGENT_HANGUP');
      } finally {
        frame.remove();
      }
    });
  });
}
