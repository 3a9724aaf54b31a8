// The `preload` attribute: the element loads the media library (livekit-client, the lazy chunk)
// when the visitor shows intent, in idle time with `preload="idle"`, never ahead with
// `preload="none"`; and the real preloadMedia() fetches the chunk once, for every call after it.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { preloadMedia } from '../../src/call/call-session.js';
import { VoiceAgentCall } from '../../src/define.js';
import { preconnect } from '../../src/call/preconnect.js';
import { hover, pointerAway } from '../support/pointer.js';
import { part } from '../support/dom.js';

// The dev server serves every module separately: room for all their timing entries.
performance.setResourceTimingBufferSize(10000);

const realPreloader = VoiceAgentCall.mediaPreloader;
const realIdleDelay = VoiceAgentCall.idlePreloadDelayMs;
let preloads = 0;

/** Requests for the media chunk (the module that imports livekit-client). */
function chunkRequests(): PerformanceResourceTiming[] {
  return (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((entry) =>
    entry.name.includes('livekit-media'),
  );
}

describe('<voice-agent-call> preload', () => {
  beforeEach(async () => {
    preloads = 0;
    VoiceAgentCall.mediaPreloader = async () => {
      preloads += 1;
    };
    await pointerAway();
  });

  afterEach(() => {
    VoiceAgentCall.mediaPreloader = realPreloader;
    VoiceAgentCall.idlePreloadDelayMs = realIdleDelay;
  });

  it('loads the media library once when the pointer enters the call button, not before', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    expect(preloads).to.equal(0);
    await hover(part(el, 'call-button'));
    await waitUntil(() => preloads === 1, 'hovering the call button preloads');
    await pointerAway();
    await hover(part(el, 'call-button'));
    part(el, 'call-button').focus();
    expect(preloads).to.equal(1);
  });

  it('loads it when focus reaches the call button (keyboard visitors)', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    part(el, 'call-button').focus();
    expect(preloads).to.equal(1);
  });

  it('loads it when the pointer enters the floating launcher', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/x" layout="floating"></voice-agent-call>`,
    );
    await hover(part(el, 'launcher'));
    await waitUntil(() => preloads === 1, 'hovering the launcher preloads');
  });

  it('does not load it ahead with preload="none"', async () => {
    const wrapper = await fixture<HTMLDivElement>(html`<div>
      <voice-agent-call endpoint="/x" preload="none"></voice-agent-call>
      <voice-agent-call endpoint="/x"></voice-agent-call>
    </div>`);
    const [off, on] = [...wrapper.querySelectorAll('voice-agent-call')] as [VoiceAgentCall, VoiceAgentCall];
    await hover(part(off, 'call-button'));
    part(off, 'call-button').focus();
    // Pointer events arrive in order: once the second element saw its hover, the first saw its own.
    await hover(part(on, 'call-button'));
    await waitUntil(() => preloads === 1, 'the element with the default preload loads');
    expect(preloads).to.equal(1);
  });

  /**
   * Runs `body` with matchMedia answering `hover` and `pointer` queries (alone or joined by `and`)
   * as a device with these values would; any other query goes to the real matchMedia.
   */
  async function asDevice(device: { hover: string; pointer: string }, body: () => Promise<void>): Promise<void> {
    const realMatchMedia = window.matchMedia;
    window.matchMedia = (query: string) => {
      const features = [...query.matchAll(/\((hover|pointer):\s*([a-z]+)\)/g)];
      const answered = features.length > 0 && query.replace(/\((hover|pointer):\s*[a-z]+\)|\s|and/g, '') === '';
      if (!answered) return realMatchMedia.call(window, query);
      const matches = features.every(([, name, value]) => device[name as 'hover' | 'pointer'] === value);
      return { matches } as MediaQueryList;
    };
    try {
      await body();
    } finally {
      window.matchMedia = realMatchMedia;
      window.scrollTo(0, 0);
    }
  }

  async function belowTheFold(): Promise<VoiceAgentCall> {
    const wrapper = await fixture<HTMLDivElement>(
      html`<div><div style="height: 300vh"></div><voice-agent-call endpoint="/x"></voice-agent-call></div>`,
    );
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return wrapper.querySelector('voice-agent-call') as VoiceAgentCall;
  }

  it('on a touch screen (no hover, a coarse pointer), the inline card coming into view is intent', async () => {
    await asDevice({ hover: 'none', pointer: 'coarse' }, async () => {
      const el = await belowTheFold();
      expect(preloads, 'below the fold: not yet').to.equal(0);
      el.scrollIntoView();
      await waitUntil(() => preloads === 1, 'the card in view preloads');
    });
  });

  it('on a device without any pointer (hover:none, pointer:none: a TV, a headless browser), a card in view is not intent', async () => {
    // Headless Firefox is such a device: counting the view as intent there loaded the call chunk
    // on every page with a card, before any click or focus.
    await asDevice({ hover: 'none', pointer: 'none' }, async () => {
      const el = await belowTheFold();
      // Nothing to await when nothing happens: once an observer of our own has seen the card, and
      // two frames later (the element's observer may report a frame after ours), it would have loaded.
      const seen = new Promise<void>((resolve) => {
        const observer = new IntersectionObserver(([entry]) => {
          if (!entry?.isIntersecting) return;
          observer.disconnect();
          resolve();
        });
        observer.observe(el);
      });
      el.scrollIntoView();
      await seen;
      for (let frame = 0; frame < 2; frame++) await new Promise((resolve) => requestAnimationFrame(resolve));
      expect(preloads, 'no intent: nothing loaded').to.equal(0);
      part(el, 'call-button').focus();
      expect(preloads, 'focus is its intent').to.equal(1);
    });
  });

  it('warms a companion on another origin with one preconnect link (anonymous, as its fetches go), none for its own', () => {
    const links = () => [...document.head.querySelectorAll<HTMLLinkElement>('link[rel=preconnect]')];
    preconnect('https://companion.example/api/voice-call');
    preconnect('https://companion.example/other');
    preconnect('/api/voice-call');
    preconnect(null);
    expect(links().map((link) => [link.href, link.crossOrigin])).to.deep.equal([
      ['https://companion.example/', 'anonymous'],
    ]);
    for (const link of links()) link.remove();
  });

  it('loads it in idle time after connecting with preload="idle", and not after removal', async () => {
    VoiceAgentCall.idlePreloadDelayMs = 20;
    const removed = document.createElement('voice-agent-call');
    removed.setAttribute('preload', 'idle');
    document.body.append(removed);
    removed.remove();
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x" preload="idle"></voice-agent-call>`);
    await waitUntil(() => preloads === 1, 'idle time preloads without any interaction');
    expect(el.isConnected).to.equal(true);
    // A later intent does not load it again.
    part(el, 'call-button').focus();
    expect(preloads).to.equal(1);
  });
});

describe('preloadMedia() (the real media chunk)', () => {
  it('fetches the media chunk once, when the visitor focuses the call button', async () => {
    expect(chunkRequests().length).to.equal(0);
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/x"></voice-agent-call>`);
    expect(chunkRequests().length).to.equal(0);
    part(el, 'call-button').focus();
    await waitUntil(() => chunkRequests().length > 0, 'the chunk is requested', { timeout: 10000 });
    await preloadMedia();
    await preloadMedia();
    expect(chunkRequests().length).to.equal(1);
  });
});
