// Text contrast in every state of the card, light and dark, inline and floating (issue 29, item 2):
// every visible text is measured against what is painted under it, with the opacity of each layer
// and every stop of a gradient background, and must reach WCAG AA (4.5:1; 3:1 for large text).
// Text of an inactive control (aria-disabled while the call ends) is exempt, as WCAG allows.
import { expect, fixture, html } from '@open-wc/testing';
import type { CallState, EndReason } from '../../src/call/types.js';
import { VoiceAgentCall } from '../../src/define.js';
import { loadCall } from '../../src/element/call-loader.js';
import { part, shadow } from '../support/dom.js';
import { useFakeSessions, type FakeSession } from '../support/fake-session.js';

const fake = useFakeSessions();

before(async () => {
  await loadCall();
});

type Rgba = [number, number, number, number];

const probe = document.createElement('span');
const canvas = document.createElement('canvas').getContext('2d', { willReadFrequently: true });

/**
 * Any CSS color as RGBA 0–255 (alpha 0–1): resolved by the browser's style (var(), color-mix()),
 * then painted on a canvas, which turns any space the browser answers in (oklab, color()) to sRGB.
 */
function rgba(color: string): Rgba | null {
  probe.style.color = '';
  probe.style.color = color;
  if (!probe.style.color || !canvas) return null;
  document.body.append(probe);
  const resolved = getComputedStyle(probe).color;
  probe.remove();
  canvas.clearRect(0, 0, 1, 1);
  canvas.fillStyle = resolved;
  canvas.fillRect(0, 0, 1, 1);
  const [r = 0, g = 0, b = 0, a = 0] = canvas.getImageData(0, 0, 1, 1).data;
  return [r, g, b, a / 255];
}

/** `top` painted over an opaque `below`. */
function over(top: Rgba, below: Rgba): Rgba {
  const a = top[3];
  return [top[0] * a + below[0] * (1 - a), top[1] * a + below[1] * (1 - a), top[2] * a + below[2] * (1 - a), 1];
}

function mix(a: Rgba, b: Rgba, t: number): Rgba {
  return [a[0] * t + b[0] * (1 - t), a[1] * t + b[1] * (1 - t), a[2] * t + b[2] * (1 - t), 1];
}

/** The color stops of a gradient background (each one a background to check), or none. */
function gradientStops(image: string): Rgba[] {
  const open = image.indexOf('(');
  if (!image.includes('gradient(') || open < 0) return [];
  const args: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of image.slice(open + 1, image.lastIndexOf(')'))) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      args.push(current.trim());
      current = '';
    } else current += char;
  }
  args.push(current.trim());
  return args
    .map((arg) => rgba(arg.replace(/\s+-?[\d.]+(%|px)(\s+-?[\d.]+(%|px))?$/, '')))
    .filter((color): color is Rgba => color !== null);
}

/** The element's ancestors from the document down to it, through shadow roots. */
function chainOf(element: Element): Element[] {
  const chain: Element[] = [];
  let node: Node | null = element;
  while (node) {
    if (node instanceof Element) chain.unshift(node);
    node = node.parentNode instanceof ShadowRoot ? node.parentNode.host : node.parentNode;
  }
  return chain;
}

/**
 * The painted colors of the text and of the background right beside it: each layer's background
 * over what is under it, each opacity group composited over its backdrop. A gradient layer is
 * tried at each stop; the worst pair is returned.
 */
function paintedPairs(element: Element): [Rgba, Rgba][] {
  const chain = chainOf(element);
  const white: Rgba = [255, 255, 255, 1];
  const fg = rgba(getComputedStyle(element).color) ?? white;
  const render = (i: number, below: Rgba, text: boolean, stops: Map<number, Rgba>): Rgba => {
    const layer = chain[i];
    if (!layer) return below;
    const style = getComputedStyle(layer);
    const opacity = Number(style.opacity);
    const background = stops.get(i) ?? rgba(style.backgroundColor) ?? [0, 0, 0, 0];
    let inner = over(background, below);
    inner = i === chain.length - 1 ? (text ? over(fg, inner) : inner) : render(i + 1, inner, text, stops);
    return mix(inner, below, opacity);
  };
  const gradientLayers = chain
    .map((layer, i) => [i, gradientStops(getComputedStyle(layer).backgroundImage)] as const)
    .filter(([, stops]) => stops.length > 0);
  const choices: Map<number, Rgba>[] = [new Map()];
  for (const [i, stops] of gradientLayers) {
    const next: Map<number, Rgba>[] = [];
    for (const choice of choices) for (const stop of stops) next.push(new Map([...choice, [i, stop]]));
    choices.splice(0, choices.length, ...next);
  }
  return choices.map((stops) => [render(0, white, true, stops), render(0, white, false, stops)]);
}

function luminance([r, g, b]: Rgba): number {
  const [R, G, B] = [r, g, b].map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * R + 0.7152 * G + 0.0722 * B;
}

function ratio(a: Rgba, b: Rgba): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Elements holding visible text of their own in the element's shadow root. */
function textElements(el: VoiceAgentCall): Element[] {
  return [...shadow(el).querySelectorAll('*')].filter((element) => {
    const own = [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim());
    if (!own || element.closest('.sr-only, [hidden], [aria-disabled="true"]')) return false;
    const style = getComputedStyle(element);
    return style.visibility === 'visible' && style.display !== 'none' && element.getClientRects().length > 0;
  });
}

/** Every text below AA, as "text: ratio". */
async function lowContrast(el: VoiceAgentCall): Promise<string[]> {
  await el.updateComplete;
  // Entrance animations (the bubbles fade in) run to their end first; looping ones are not on text.
  await Promise.all(
    shadow(el)
      .getAnimations()
      .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
      .map((animation) => animation.finished.catch(() => undefined)),
  );
  const low: string[] = [];
  for (const element of textElements(el)) {
    const style = getComputedStyle(element);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    const needed = large ? 3 : 4.5;
    for (const [fg, bg] of paintedPairs(element)) {
      const measured = ratio(fg, bg);
      if (measured < needed) low.push(`${element.textContent?.trim().slice(0, 30)}: ${measured.toFixed(2)}`);
    }
  }
  return low;
}

/** Each state a visitor can see, driven through the fake session. */
const STATES: [string, CallState, (el: VoiceAgentCall) => Promise<FakeSession | null>][] = [
  ['idle', 'idle', async () => null],
  [
    'starting',
    'starting',
    async (el) => {
      part(el, 'call-button').click();
      return fake();
    },
  ],
  [
    'in-call, every kind of line, the agent speaking',
    'in-call',
    async (el) => {
      part(el, 'call-button').click();
      const s = fake();
      s.go('connecting');
      s.go('in-call');
      s.say({ id: 'a1', speaker: 'AI', text: 'Hello, how can I help?', final: true });
      s.say({ id: 'h1', speaker: 'HUMAN', text: 'I would like to book', final: true });
      s.say({ id: 'a2', speaker: 'AI', text: 'Of course, for', final: false });
      s.say({ id: 'h2', speaker: 'HUMAN', text: 'a table for two', final: false });
      s.speaking(true);
      return s;
    },
  ],
  [
    'muted, audio blocked, reconnecting',
    'reconnecting',
    async (el) => {
      part(el, 'call-button').click();
      const s = fake();
      s.go('connecting');
      s.go('in-call');
      s.say({ id: 'h1', speaker: 'HUMAN', text: 'Hello there', final: false });
      s.setMuted(true);
      s.blockAudio();
      s.go('reconnecting');
      return s;
    },
  ],
  [
    'ending',
    'ending',
    async (el) => {
      part(el, 'call-button').click();
      const s = fake();
      s.go('connecting');
      s.go('in-call');
      s.say({ id: 'a1', speaker: 'AI', text: 'Goodbye!', final: true });
      s.go('ending');
      return s;
    },
  ],
  ...(['agent-hangup', 'busy', 'microphone-denied'] as EndReason[]).map(
    (reason) =>
      [
        `ended (${reason})`,
        'ended',
        async (el: VoiceAgentCall) => {
          part(el, 'call-button').click();
          const s = fake();
          s.go('connecting');
          s.go('in-call');
          s.say({ id: 'a1', speaker: 'AI', text: 'Goodbye!', final: true });
          s.end(reason);
          return s;
        },
      ] as [string, CallState, (el: VoiceAgentCall) => Promise<FakeSession | null>],
  ),
];

describe('<voice-agent-call> text contrast in every state (WCAG AA)', () => {
  for (const theme of ['light', 'dark']) {
    for (const layout of ['inline', 'floating']) {
      for (const [name, state, reach] of STATES) {
        it(`${theme}, ${layout}: ${name}`, async () => {
          const el = await fixture<VoiceAgentCall>(
            html`<voice-agent-call endpoint="/x" theme=${theme} layout=${layout}></voice-agent-call>`,
          );
          if (layout === 'floating') {
            part(el, 'launcher').click();
            await el.updateComplete;
          }
          await reach(el);
          expect(el.state).to.equal(state);
          expect(await lowContrast(el)).to.deep.equal([]);
        });
      }
    }
  }

  it('the measure itself: catches a faded line (the 0.72 opacity of before)', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x" theme="light"></voice-agent-call>`);
    part(el, 'call-button').click();
    const s = fake();
    s.go('connecting');
    s.go('in-call');
    s.say({ id: 'h1', speaker: 'HUMAN', text: 'I would like', final: false });
    await el.updateComplete;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync('.entry.interim { opacity: 0.72 }');
    shadow(el).adoptedStyleSheets = [...shadow(el).adoptedStyleSheets, sheet];
    const low = await lowContrast(el);
    expect(low.length, low.join(', ')).to.equal(1);
    expect(low[0]).to.match(/I would like: 3\.\d\d$/);
  });
});
