// What a visitor sees of the in-call controls row, measured (issue 40): every combination of
// `controls` at every card width the card supports (280, 360 and 390 px), light and dark, English
// and Arabic, holds every control whole inside the row and the card, with no label clipped and no
// two controls overlapping; on a phone the floating panel keeps hang-up clear of the launcher
// whatever sheet is open. Against a scripted session that can do everything the row offers.
import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { VoiceAgentCall } from '../../src/define.js';
import { find, part, query, queryAll, shadow } from '../support/dom.js';
import { useFakeSessionsCallLoaded } from '../support/element-fixture.js';
import { FullSession } from '../support/full-session.js';
import { until } from '../support/until.js';

const TOKENS = ['mute', 'devices', 'keypad', 'hold'] as const;
/** Every subset of the four tokens, the empty one included (hang-up alone). */
const COMBINATIONS = Array.from({ length: 1 << TOKENS.length }, (_, mask) =>
  TOKENS.filter((_, bit) => mask & (1 << bit)).join(' '),
);
const WIDTHS = [280, 360, 390];
const SCHEMES = ['light', 'dark'] as const;
const LANGUAGES = ['en', 'ar'] as const;
/** Half a pixel: layout rounds, a visitor does not see less. */
const SLACK = 0.5;

useFakeSessionsCallLoaded();

let newest: FullSession | null = null;

function withFullSessions(): () => void {
  const previous = VoiceAgentCall.sessionFactory;
  VoiceAgentCall.sessionFactory = (options) => (newest = new FullSession(options));
  return () => {
    VoiceAgentCall.sessionFactory = previous;
  };
}

/** Starts a call on `el` and moves its session to `in-call`. */
async function inCall(el: VoiceAgentCall): Promise<FullSession> {
  newest = null;
  part(el, 'call-button').click();
  const session = newest as FullSession | null;
  if (!session) throw new Error('no session was made');
  session.go('connecting');
  session.go('in-call');
  await el.updateComplete;
  return session;
}

function inside(inner: DOMRect, outer: DOMRect): boolean {
  return (
    inner.left >= outer.left - SLACK &&
    inner.right <= outer.right + SLACK &&
    inner.top >= outer.top - SLACK &&
    inner.bottom <= outer.bottom + SLACK
  );
}

function overlap(a: DOMRect, b: DOMRect): boolean {
  return (
    Math.min(a.right, b.right) - Math.max(a.left, b.left) > SLACK &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > SLACK
  );
}

/** A label the visitor sees (not one kept for assistive tech only, 1 px and clipped). */
function visible(label: HTMLElement): boolean {
  return label.getBoundingClientRect().width > 1 && getComputedStyle(label).clipPath === 'none';
}

/** What is wrong with the controls row as shown, each a sentence; empty when it is right. */
function rowProblems(el: VoiceAgentCall, where: string): string[] {
  const problems: string[] = [];
  const card = query(el, '.card').getBoundingClientRect();
  const row = query(el, '.controls').getBoundingClientRect();
  const controls = queryAll(el, '.controls .control');
  const rects = controls.map((control) => control.getBoundingClientRect());
  controls.forEach((control, index) => {
    const name = control.getAttribute('part') ?? control.className;
    const rect = rects[index] as DOMRect;
    if (!inside(rect, row)) problems.push(`${where}: ${name} sticks out of the row`);
    if (!inside(rect, card)) problems.push(`${where}: ${name} sticks out of the card`);
    if (control.scrollWidth > control.clientWidth) problems.push(`${where}: ${name}'s content is wider than it`);
    for (const label of control.querySelectorAll<HTMLElement>('span')) {
      if (!visible(label)) continue;
      if (label.scrollWidth > label.clientWidth) problems.push(`${where}: ${name}'s label is clipped`);
      if (!inside(label.getBoundingClientRect(), rect)) problems.push(`${where}: ${name}'s label leaves the button`);
    }
    for (const icon of control.querySelectorAll('svg')) {
      if (!inside(icon.getBoundingClientRect(), rect)) problems.push(`${where}: ${name}'s icon leaves the button`);
    }
    for (let other = index + 1; other < controls.length; other++) {
      if (overlap(rect, rects[other] as DOMRect))
        problems.push(`${where}: ${name} overlaps ${controls[other]?.getAttribute('part') ?? ''}`);
    }
  });
  return problems;
}

describe('<voice-agent-call> controls row: every combination fits', () => {
  for (const lang of LANGUAGES) {
    for (const scheme of SCHEMES) {
      it(`${lang}, ${scheme}: all ${COMBINATIONS.length} combinations at ${WIDTHS.join(', ')} px`, async () => {
        const restore = withFullSessions();
        const problems: string[] = [];
        try {
          for (const width of WIDTHS) {
            for (const controls of COMBINATIONS) {
              const el = await fixture<VoiceAgentCall>(
                html`<voice-agent-call
                  endpoint="/api/voice-call"
                  lang=${lang}
                  theme=${scheme}
                  controls=${controls}
                  style="--vac-width: ${width}px"
                ></voice-agent-call>`,
              );
              const session = await inCall(el);
              if (lang === 'ar')
                await until(() => part(el, 'hangup-button').textContent?.trim() === 'إنهاء', 5000, 'Arabic');
              const where = `${width} px, controls="${controls}"`;
              problems.push(...rowProblems(el, where));
              // Pressed (muted, held) and with a sheet open, the same row still fits.
              session.setMuted(true);
              await session.setHeld(true);
              await el.updateComplete;
              problems.push(...rowProblems(el, `${where}, muted and held`));
              expect(query(el, '.card').getBoundingClientRect().width).to.be.closeTo(width, 1);
              el.remove();
            }
          }
        } finally {
          restore();
        }
        expect(problems).to.deep.equal([]);
      });
    }
  }
});

describe('<voice-agent-call> floating on a phone: hang-up stays clear of the launcher', () => {
  afterEach(async () => {
    await setViewport({ width: 800, height: 600 });
  });

  for (const [width, height] of [
    [390, 844],
    [390, 664],
    [320, 568],
  ] as const) {
    it(`${width}×${height}: with the keypad and with the device menu open`, async () => {
      await setViewport({ width, height });
      const restore = withFullSessions();
      try {
        const el = await fixture<VoiceAgentCall>(
          html`<voice-agent-call
            endpoint="/api/voice-call"
            layout="floating"
            controls="mute devices keypad hold"
          ></voice-agent-call>`,
        );
        part(el, 'launcher').click();
        await el.updateComplete;
        await inCall(el);
        // Measured as it rests, not while it opens (the panel grows in from 98 %).
        await Promise.all(
          find(shadow(el), '.panel')
            .getAnimations()
            .map((animation) => animation.finished),
        );
        for (const sheet of ['keypad', 'devices'] as const) {
          part(el, `${sheet}-button`).click();
          await until(() => shadow(el).querySelector(`.sheet.${sheet}`) !== null, 5000, sheet);
          await el.updateComplete;
          const launcher = part(el, 'launcher').getBoundingClientRect();
          for (const name of ['hangup-button', 'mute-button', `${sheet}-button`]) {
            const button = part(el, name);
            const rect = button.getBoundingClientRect();
            expect(overlap(rect, launcher), `${sheet} open: ${name} is behind the launcher`).to.equal(false);
            expect(rect.bottom, `${sheet} open: ${name} is on screen`).to.be.at.most(height);
            expect(rect.top, `${sheet} open: ${name} is on screen`).to.be.at.least(0);
            // What a tap at its middle reaches: the button itself, nothing over it.
            const hit = shadow(el).elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
            expect(
              hit === button || button.contains(hit),
              `${sheet} open: a tap reaches ${name}, not ${hit?.outerHTML.slice(0, 80)} (${JSON.stringify(rect)}, card ${JSON.stringify(query(el, '.card').getBoundingClientRect())})`,
            ).to.equal(true);
          }
          part(el, `${sheet}-button`).click();
          await until(() => shadow(el).querySelector(`.sheet.${sheet}`) === null, 5000, `${sheet} closed`);
        }
        expect(find(shadow(el), '.panel').hidden).to.equal(false);
      } finally {
        restore();
      }
    });
  }
});

describe('<voice-agent-call> inline on a phone page with a floating launcher', () => {
  afterEach(async () => {
    await setViewport({ width: 800, height: 600 });
  });

  it('opening the keypad or the device menu keeps hang-up on screen and clear of the launcher', async () => {
    await setViewport({ width: 390, height: 844 });
    const restore = withFullSessions();
    try {
      // A page as the demo's: the inline card low on a long page, the launcher fixed in the corner.
      const page = await fixture<HTMLElement>(html`<div style="padding-block: 600px 1200px">
        <voice-agent-call endpoint="/api/voice-call" controls="mute devices keypad hold" style="--vac-width: 358px"></voice-agent-call>
        <voice-agent-call endpoint="/api/voice-call" layout="floating"></voice-agent-call>
      </div>`);
      const [inline, floating] = [...page.querySelectorAll('voice-agent-call')] as VoiceAgentCall[];
      if (!inline || !floating) throw new Error('the page has its two widgets');
      await inCall(inline);
      const launcher = part(floating, 'launcher').getBoundingClientRect();
      for (const sheet of ['keypad', 'devices'] as const) {
        // The visitor scrolled so that the row sits just above the launcher, as it was before the sheet opened.
        const row = query(inline, '.controls').getBoundingClientRect();
        window.scrollBy(0, row.bottom - (launcher.top - 4));
        part(inline, `${sheet}-button`).click();
        await until(() => shadow(inline).querySelector(`.sheet.${sheet}`) !== null, 5000, `${sheet} open`);
        // The sheet pushed the row down; it comes back on screen, clear of the launcher.
        const hangupClear = (): boolean => {
          const hangup = part(inline, 'hangup-button').getBoundingClientRect();
          return !overlap(hangup, launcher) && hangup.bottom <= 844;
        };
        await until(hangupClear, 5000, `${sheet} open: hang-up on screen and clear of the launcher`);
        // Focus went to the sheet's first key or device (where the browser lists one): on screen too.
        const active = shadow(inline).activeElement;
        if (active?.closest('.sheet'))
          expect(active.getBoundingClientRect().top, `${sheet} open: its focused item on screen`).to.be.at.least(0);
        part(inline, `${sheet}-button`).click();
        await until(() => shadow(inline).querySelector(`.sheet.${sheet}`) === null, 5000, `${sheet} closed`);
      }
    } finally {
      restore();
      window.scrollTo(0, 0);
    }
  });
});
