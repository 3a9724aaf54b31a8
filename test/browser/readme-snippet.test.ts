// The first thing a reader copies (issue 29, item 6): the README's first ```html block, verbatim,
// in a plain page served as files are (no dev server resolving 'lit' for it), with the package
// where npm puts it. It must register the element and render the call button.
import { expect } from '@open-wc/testing';
import { findPart } from '../support/dom.js';
import { frameDocument, frameWindow, loadFrame } from '../support/frames.js';
import { until } from '../support/until.js';

describe("the README's first snippet in a plain page", function () {
  this.timeout(30000);

  it('registers <voice-agent-call> and shows "Start call"', async () => {
    const frame = await loadFrame('/__plain/readme-first-snippet.html', { width: 420, height: 400 });
    const errors: string[] = [];
    frameWindow(frame).addEventListener('error', (event) => errors.push(event.message));
    try {
      const win = frameWindow(frame);
      await until(
        () => win.customElements.get('voice-agent-call') !== undefined || errors.length > 0,
        20000,
        'the snippet registers <voice-agent-call>',
      );
      expect(errors).to.deep.equal([]);
      const el = frameDocument(frame).querySelector('voice-agent-call');
      expect(el, 'the snippet has the element').to.not.equal(null);
      await until(() => el?.shadowRoot != null && findPart(el, 'call-button') !== null, 10000, 'the call button');
      expect(findPart(el as HTMLElement, 'call-button')?.textContent?.trim()).to.equal('Start call');
    } finally {
      frame.remove();
    }
  });
});
