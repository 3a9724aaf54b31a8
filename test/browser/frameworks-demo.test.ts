// The React and Vue demo pages, built (`npm run build:demo` → dist/demo/) as a visitor gets them:
// a call on emu-quick from each, and the page's own typed handlers (React `onCallEnded`, Vue
// `@call-ended`) receive the result and render it.
import { expect } from '@open-wc/testing';
import { find, part } from '../support/dom.js';
import { frameDocument, loadFrame } from '../support/frames.js';
import { present } from '../support/present.js';
import { until } from '../support/until.js';
import { SCENARIOS } from '../../demo/scenarios.js';

for (const framework of ['react', 'vue'] as const) {
  describe(`${framework === 'react' ? 'React' : 'Vue'} demo page`, function () {
    this.timeout(60000);

    it('renders the element through the framework and its handler receives call-ended once', async () => {
      const built = await fetch(`/dist/demo/${framework}.html`);
      expect(built.status, 'dist/demo is missing: run `npm run build:demo` first').to.equal(200);
      const frame = await loadFrame(`/dist/demo/${framework}.html?agent=emu-quick`, { width: 1000, height: 800 });
      try {
        const doc = frameDocument(frame);
        const text = (selector: string): string => doc.querySelector(selector)?.textContent?.trim() ?? '';
        await until(
          () => doc.querySelector('voice-agent-call')?.shadowRoot?.querySelector('[part~="call-button"]') != null,
          20000,
          'the element renders',
        );
        // Both frameworks set known properties as properties, not attributes.
        const el = find<Element & { endpoint?: string; agent?: string; inputs?: Record<string, string> }>(
          doc,
          'voice-agent-call',
        );
        expect(el.endpoint).to.equal('/api/voice-call');
        expect(el.agent, 'the framework passes the agent').to.equal('emu-quick');
        expect(el.inputs, 'objects pass as properties').to.deep.equal({
          name: framework === 'react' ? 'React demo' : 'Vue demo',
        });
        expect((doc.querySelector('#agent') as HTMLSelectElement).value).to.equal('emu-quick');
        expect(doc.querySelector('#result'), 'no result before a call').to.equal(null);

        part<HTMLButtonElement>(el, 'call-button').click();
        await until(
          () => text(`#${framework}-state`) === 'in-call',
          20000,
          `the ${framework} call-state handler sees in-call`,
        );
        await until(
          () => doc.querySelector('#result') !== null,
          40000,
          `the ${framework} call-ended handler renders the result`,
        );

        expect(find(doc, '#result').getAttribute('data-reason')).to.equal('agent-hangup');
        expect(text('#ended-count')).to.equal('1');
        expect(text(`#${framework}-state`)).to.equal('ended');
        const lines = [...doc.querySelectorAll('#result .lines li')].map((line) => line.textContent ?? '');
        expect(lines.length, 'the transcript from the result is shown').to.be.greaterThan(0);
        expect(find(doc, '#result .result').textContent).to.include('AGENT_HANGUP');
      } finally {
        frame.remove();
      }
    });
  });
}

// The three pages together (issue 19, item 17): one list of scenarios, `?agent=` on each, no
// sideways scroll on a phone, nothing overflowing its panel on a laptop, readable themed text, and
// an event log a person can follow.
const PAGES = ['index', 'react', 'vue'] as const;

async function builtPage(
  page: (typeof PAGES)[number],
  query: string,
  size: { width: number; height: number },
): Promise<HTMLIFrameElement> {
  const frame = await loadFrame(`/dist/demo/${page}.html${query}`, size);
  const doc = frameDocument(frame);
  await until(
    () =>
      doc.querySelector('voice-agent-call')?.shadowRoot?.querySelector('[part~="call-button"]') != null &&
      (doc.querySelector<HTMLSelectElement>('#agent')?.options.length ?? 0) > 0,
    20000,
    `${page} renders`,
  );
  return frame;
}

/** WCAG relative luminance contrast of two computed colours, `rgb(…)` or `color(srgb …)` (what color-mix computes to). */
function contrast(a: string, b: string): number {
  const luminance = (color: string): number => {
    const scale = color.startsWith('color(') ? 1 : 255;
    const [r, g, bl] = (color.replace(/^color\(srgb/, '').match(/[\d.]+/g) ?? []).slice(0, 3).map((part) => {
      const c = Number(part) / scale;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    if (r === undefined || g === undefined || bl === undefined) throw new Error(`not an rgb colour: ${color}`);
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

describe('the demo pages together', function () {
  this.timeout(60000);

  it('offer the same scenarios, each once, and honour ?agent= on every page', async () => {
    const lists: string[][] = [];
    for (const page of PAGES) {
      const frame = await builtPage(page, '?agent=emu-blip', { width: 1280, height: 900 });
      try {
        const doc = frameDocument(frame);
        const select = find<HTMLSelectElement>(doc, '#agent');
        const options = [...select.options].map((option) => `${option.value} | ${option.text}`);
        lists.push(options);
        expect(
          new Set(options.map((option) => option.split(' | ')[1])).size,
          `${page}: no two identical entries`,
        ).to.equal(options.length);
        expect(select.value, `${page}: ?agent= picks the scenario`).to.equal('emu-blip');
        const el = doc.querySelector('voice-agent-call') as Element & { agent?: string };
        expect(el.agent ?? el.getAttribute('agent'), `${page}: the element calls that agent`).to.equal('emu-blip');
      } finally {
        frame.remove();
      }
    }
    // demo/scenarios.ts lists every emulator scenario agent (test/node/demo-scenarios.test.ts).
    expect(lists[0]?.length, 'every scenario agent npm start maps').to.equal(SCENARIOS.length);
    expect(lists[1]).to.deep.equal(lists[0]);
    expect(lists[2]).to.deep.equal(lists[0]);
  });

  it('at 1280 px the scenario picker stays inside its panel; at 390 px no page scrolls sideways', async () => {
    for (const page of PAGES) {
      const wide = await builtPage(page, '', { width: 1280, height: 900 });
      try {
        const select = find<HTMLSelectElement>(frameDocument(wide), '#agent');
        // The real service's agents can have long names (the picker then lists them, not the scenarios).
        select.append(new Option(`default: ${'A support agent with a very long descriptive name '.repeat(3)}`, 'long'));
        const panel = present(select.closest('.panel'), 'the panel around the picker');
        expect(select.getBoundingClientRect().right, `${page}: the select's right edge`).to.be.at.most(
          panel.getBoundingClientRect().right,
        );
      } finally {
        wide.remove();
      }
      const phone = await builtPage(page, '', { width: 390, height: 844 });
      try {
        const root = frameDocument(phone).documentElement;
        expect(root.scrollWidth, `${page}: page width at 390 px`).to.be.at.most(root.clientWidth);
      } finally {
        phone.remove();
      }
    }
  });

  it("the themed card's call button text has at least 4.5:1 contrast on every stop of its gradient", async () => {
    const frame = await builtPage('index', '', { width: 1280, height: 900 });
    try {
      const button = part(find(frameDocument(frame), '.brand-call'), 'call-button');
      const style = getComputedStyle(button);
      const stops = style.backgroundImage.match(/rgba?\([^)]+\)|color\(srgb [^)]+\)/g) ?? [];
      expect(stops.length, style.backgroundImage).to.be.greaterThan(1);
      for (const stop of stops) expect(contrast(style.color, stop), `${style.color} on ${stop}`).to.be.at.least(4.5);
    } finally {
      frame.remove();
    }
  });

  it('the event log: one entry per transcript line, and every state change of the call', async () => {
    const frame = await builtPage('index', '?agent=emu-quick', { width: 1280, height: 900 });
    try {
      const doc = frameDocument(frame);
      const el = find<HTMLElement & { transcript: { id: string }[] }>(doc, '#inline-call');
      const states: string[] = [];
      let transcriptEvents = 0;
      el.addEventListener('call-state', (event) =>
        states.push((event as Event & { detail: { state: string } }).detail.state),
      );
      el.addEventListener('call-transcript', () => (transcriptEvents += 1));
      const ended = new Promise((resolve) => el.addEventListener('call-ended', resolve, { once: true }));
      part<HTMLButtonElement>(el, 'call-button').click();
      await ended;
      const entries = [...doc.querySelectorAll<HTMLLIElement>('#log li')].filter((item) =>
        item.textContent?.includes('inline'),
      );
      const ofType = (type: string): HTMLLIElement[] => entries.filter((item) => item.dataset.type === type);
      const lineIds = new Set(el.transcript.map((entry) => entry.id));
      expect(transcriptEvents, 'the line updates arrive word by word').to.be.greaterThan(lineIds.size);
      expect(ofType('call-transcript').length, 'one log entry per line').to.equal(lineIds.size);
      expect(ofType('call-state').length, `every state change (${states.join(', ')})`).to.equal(states.length);
      expect(ofType('call-ended').length).to.equal(1);
    } finally {
      frame.remove();
    }
  });
});
