// A browser that lacks what a call needs (WebKitGTK has no RTCPeerConnection; here the tests take
// it away in Chromium and Firefox, and WebKit runs them as it is): the visitor is not asked for
// the microphone, no request reaches the companion, and the card says so for good.
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { CallSession } from '../../src/call/call-session.js';
import { missingCapabilities } from '../../src/call/capabilities.js';
import type { CallResult } from '../../src/call/types.js';
import { VoiceAgentCall } from '../../src/define.js';
import { loadedCall } from '../../src/element/call-loader.js';
import { findPart, part, shadow, text } from '../support/dom.js';
import { present } from '../support/present.js';

/** What a call would spend: microphone requests and requests to the companion. */
function spend() {
  const counts = { microphone: 0, companion: 0 };
  const devices = navigator.mediaDevices;
  const getUserMedia = devices?.getUserMedia;
  if (devices && getUserMedia) {
    devices.getUserMedia = (constraints) => {
      counts.microphone += 1;
      return getUserMedia.call(devices, constraints);
    };
  }
  const originalFetch = window.fetch;
  window.fetch = (input, init) => {
    if (String(input instanceof Request ? input.url : input).includes('/api/voice-call')) counts.companion += 1;
    return originalFetch.call(window, input, init);
  };
  const beacon = navigator.sendBeacon;
  navigator.sendBeacon = (url, data) => {
    counts.companion += 1;
    return beacon.call(navigator, url, data);
  };
  const restore = (): void => {
    if (devices && getUserMedia) devices.getUserMedia = getUserMedia;
    window.fetch = originalFetch;
    navigator.sendBeacon = beacon;
  };
  return { counts, restore };
}

/** Takes a global away for one test (a no-op where the browser has none, as in WebKitGTK). */
function without(name: 'RTCPeerConnection' | 'isSecureContext'): () => void {
  const own = Object.getOwnPropertyDescriptor(window, name);
  if (name === 'isSecureContext') Object.defineProperty(window, name, { value: false, configurable: true });
  else delete (window as unknown as Record<string, unknown>)[name];
  return () => {
    if (own) Object.defineProperty(window, name, own);
    else delete (window as unknown as Record<string, unknown>)[name];
  };
}

describe('an unsupported browser is told, and nothing is spent', () => {
  let restoreGlobal: () => void;
  let spent: ReturnType<typeof spend>;

  beforeEach(() => {
    restoreGlobal = without('RTCPeerConnection');
    spent = spend();
  });

  afterEach(() => {
    spent.restore();
    restoreGlobal();
  });

  it('a click before the call logic loaded: no microphone prompt, no dial, a permanent state with the fallback link', async () => {
    expect(loadedCall(), 'this test covers the click that comes before the call chunk').to.equal(null);
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-quick" preload="none" fallback="tel:+15550100"></voice-agent-call>`,
    );
    const errors: HTMLElementEventMap['call-error'][] = [];
    el.addEventListener('call-error', (event) => errors.push(event));
    const ended = oneEvent(el, 'call-ended');
    const button = part(el, 'call-button');
    button.focus();
    button.click();
    const result = (await ended).detail as CallResult;

    expect(result.reason).to.equal('unsupported-browser');
    expect(result.dialId).to.equal(null);
    expect(errors).to.have.length(1);
    const detail = present(errors[0], 'a call-error').detail;
    expect(detail.code).to.equal('unsupported_browser');
    expect(detail.recoverable).to.equal(false);
    expect(detail.missing).to.include('RTCPeerConnection');
    expect(detail.message).to.contain('RTCPeerConnection');
    expect(result.error?.missing).to.deep.equal(detail.missing);
    expect(spent.counts).to.deep.equal({ microphone: 0, companion: 0 });

    await el.updateComplete;
    expect(text(el, 'error')).to.contain('This browser can’t place voice calls');
    expect(text(el, 'error')).to.contain('Open this page in a current version of Chrome, Edge, Firefox or Safari.');
    expect(findPart(el, 'call-button'), 'no "Try again": another try would fail the same way').to.equal(null);
    const link = part<HTMLAnchorElement>(el, 'fallback-link');
    expect(link.getAttribute('href')).to.equal('tel:+15550100');
    expect(link.textContent?.trim()).to.equal('Call us by phone: +15550100');
    // (Compared as a boolean: chai's message for two elements can take the page down.)
    expect(shadow(el).activeElement === link, 'focus moves to what the visitor can do now').to.equal(true);
    // The page's audio element made for the call is gone with it.
    expect(shadow(el).querySelector('audio')).to.equal(null);
  });

  it('with the call logic loaded (intent preloaded it): the same, and a page link or none at all', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" agent="emu-quick" fallback="/contact"></voice-agent-call>`,
    );
    await el.start();
    expect(el.state).to.equal('ended');
    await el.updateComplete;
    expect(loadedCall()).to.not.equal(null);
    const link = part<HTMLAnchorElement>(el, 'fallback-link');
    expect(link.href).to.equal(new URL('/contact', document.baseURI).href);
    expect(link.textContent?.trim()).to.equal('Other ways to reach us');

    // A number written with spaces reads as written, and a malformed escape does not break the card.
    el.setAttribute('fallback', 'tel:+1%20555%200100');
    await el.updateComplete;
    expect(text(el, 'fallback-link')).to.equal('Call us by phone: +1 555 0100');
    el.setAttribute('fallback', 'tel:+1%E0');
    await el.updateComplete;
    expect(text(el, 'fallback-link')).to.equal('Call us by phone: +1%E0');

    // Without a fallback, and with a scheme that is not a way to reach anyone: no link, no button.
    for (const fallback of [null, 'javascript:alert(1)']) {
      const plain = await fixture<VoiceAgentCall>(
        html`<voice-agent-call endpoint="/api/voice-call" agent="emu-quick"></voice-agent-call>`,
      );
      if (fallback) plain.setAttribute('fallback', fallback);
      await plain.start();
      await plain.updateComplete;
      expect(text(plain, 'error')).to.contain('This browser can’t place voice calls');
      expect(findPart(plain, 'fallback-link'), String(fallback)).to.equal(null);
      expect(findPart(plain, 'call-button'), String(fallback)).to.equal(null);
    }
    expect(spent.counts).to.deep.equal({ microphone: 0, companion: 0 });
  });

  it('is translated, and the summary names the reason', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api/voice-call" lang="ar"></voice-agent-call>`,
    );
    await el.start();
    await el.updateComplete;
    expect(text(el, 'error')).to.contain('لا يمكن لهذا المتصفح إجراء مكالمات صوتية');
    expect(text(el, 'summary')).to.contain('المتصفح غير مدعوم');
  });

  it('CallSession on its own: starting → ended (unsupported-browser), no dial', async () => {
    const session = new CallSession({ endpoint: '/api/voice-call', agent: 'emu-quick' });
    const states: string[] = [];
    session.addEventListener('call-state', (event) => states.push(event.detail.state));
    await session.start();
    expect(states).to.deep.equal(['starting', 'ending', 'ended']);
    expect(session.result?.reason).to.equal('unsupported-browser');
    expect(session.dialId).to.equal(null);
    expect(spent.counts).to.deep.equal({ microphone: 0, companion: 0 });
  });
});

// A page or an extension that blocks WebRTC often leaves the name defined: `in` still sees it, so
// the check asks for a constructor (issue 29, item 4).
describe('a constructor set to something that is not one counts as missing', () => {
  for (const [label, value] of [
    ['undefined', undefined],
    ['null', null],
    ['an object', {}],
  ] as const) {
    it(`RTCPeerConnection = ${label}: no microphone prompt, no dial, unsupported-browser`, async () => {
      const own = Object.getOwnPropertyDescriptor(window, 'RTCPeerConnection');
      Object.defineProperty(window, 'RTCPeerConnection', { value, configurable: true, writable: true });
      const spent = spend();
      try {
        expect('RTCPeerConnection' in window, 'the name is still there').to.equal(true);
        expect(missingCapabilities()).to.include('RTCPeerConnection');
        const el = await fixture<VoiceAgentCall>(
          html`<voice-agent-call endpoint="/api/voice-call" agent="emu-quick" preload="none"></voice-agent-call>`,
        );
        const ended = oneEvent(el, 'call-ended');
        part(el, 'call-button').click();
        const result = (await ended).detail as CallResult;
        expect(result.reason).to.equal('unsupported-browser');
        expect(result.error?.missing).to.include('RTCPeerConnection');
        expect(spent.counts).to.deep.equal({ microphone: 0, companion: 0 });
      } finally {
        spent.restore();
        if (own) Object.defineProperty(window, 'RTCPeerConnection', own);
        else delete (window as unknown as Record<string, unknown>)['RTCPeerConnection'];
      }
    });
  }

  it('AudioContext and WebSocket too', () => {
    for (const name of ['AudioContext', 'WebSocket'] as const) {
      const own = Object.getOwnPropertyDescriptor(window, name);
      Object.defineProperty(window, name, { value: undefined, configurable: true, writable: true });
      try {
        expect(missingCapabilities(), name).to.include(name);
      } finally {
        if (own) Object.defineProperty(window, name, own);
      }
    }
    expect(missingCapabilities()).to.not.include('AudioContext');
  });
});

describe('a page that is not https', () => {
  it('says so, since another browser would not help', async () => {
    const restore = without('isSecureContext');
    try {
      expect(missingCapabilities()).to.include('secure-context');
      const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/api/voice-call"></voice-agent-call>`);
      await el.start();
      await el.updateComplete;
      expect(text(el, 'error')).to.contain('This page is not served securely (https)');
    } finally {
      restore();
    }
  });
});
