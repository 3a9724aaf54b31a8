// The consent gate (`consent` attribute or slot) with a fake session: what the visitor sees, the
// keyboard and screen reader path through it, the `call-consent` event, `start()` through it, and
// what is remembered where. With the real companion and emulator (no microphone request and no
// dial before "Agree") in element-consent-e2e.test.ts.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { CallConsentDetail } from '../../src/call/types.js';
import type { VoiceAgentCall } from '../../src/define.js';
import { CONSENT_KEY_PREFIX, hashText } from '../../src/features/consent/consent-gate.js';
import { findPart, part, query, shadow, text } from '../support/dom.js';
import { collect } from '../support/events.js';
import { axeViolations as axeViolationsNow, useFakeSessionsCallLoaded } from '../support/element-fixture.js';

const fake = useFakeSessionsCallLoaded();

afterEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});

/** A disclosure no other test used: the page remembers an agreement per text. */
let texts = 0;
function freshText(): string {
  texts += 1;
  return `Calls are recorded to improve our service (${texts}-${Math.random().toString(36).slice(2)}).`;
}

/** axe after the panel's opening animation (colours mid-fade are not what the visitor reads). */
async function axeViolations(el: HTMLElement): Promise<string[]> {
  const finite = shadow(el)
    .getAnimations()
    .filter((animation) => animation.effect?.getTiming().iterations !== Infinity);
  await Promise.all(finite.map((animation) => animation.finished));
  return axeViolationsNow(el);
}

/** The node focus is on, through the element's shadow root. */
function focused(el: VoiceAgentCall): Element | null {
  return shadow(el).activeElement ?? document.activeElement;
}

/** Shift+Tab, as both engines' key APIs take it (Firefox's BiDi knows no "Shift+Tab" chord). */
async function shiftTab(): Promise<void> {
  await sendKeys({ down: 'Shift' });
  await sendKeys({ press: 'Tab' });
  await sendKeys({ up: 'Shift' });
}

function storedConsentKeys(storage: Storage): string[] {
  return Object.keys(storage).filter((key) => key.startsWith(CONSENT_KEY_PREFIX));
}

describe('<voice-agent-call consent>', () => {
  it('a click shows the disclosure instead of calling; focus moves into it and the live region reads it; axe-clean', async () => {
    const disclosure = freshText();
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api" consent=${disclosure}></voice-agent-call>`,
    );
    part(el, 'call-button').focus();
    part(el, 'call-button').click();
    await el.updateComplete;
    expect(fake().state, 'no call started').to.equal('idle');
    expect(el.state).to.equal('idle');
    expect(text(el, 'consent')).to.contain(disclosure);
    expect(findPart(el, 'call-button')).to.equal(null);
    expect(focused(el)).to.equal(part(el, 'consent-agree'));
    expect(part(el, 'consent-agree').textContent?.trim()).to.equal('Agree and call');
    expect(part(el, 'consent-cancel').textContent?.trim()).to.equal('Cancel');
    // The agree button is described by the disclosure; the group is named by its label.
    const describedBy = part(el, 'consent-agree').getAttribute('aria-describedby') ?? '';
    expect(query(el, `#${describedBy}`).textContent).to.contain(disclosure);
    expect(part(el, 'consent').getAttribute('role')).to.equal('group');
    expect(query(el, '[role=status]').textContent).to.contain(disclosure);
    expect(await axeViolations(el)).to.deep.equal([]);
  });

  it('"Agree and call" fires call-consent { accepted: true, at } and starts the call; call-ended carries consentAt', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api" consent=${freshText()}></voice-agent-call>`,
    );
    const consents = collect(el, 'call-consent', (event) => event.detail);
    const ended = collect(el, 'call-ended', (event) => event.detail);
    const started = el.start();
    await el.updateComplete;
    expect(fake().state).to.equal('idle');
    const before = Date.now();
    part(el, 'consent-agree').click();
    expect(fake().state, 'the call starts inside the click').to.equal('starting');
    await started;
    expect(consents).to.have.length(1);
    const consent = consents[0] as CallConsentDetail;
    expect(consent.accepted).to.equal(true);
    expect(Date.parse(consent.at)).to.be.within(before - 1000, Date.now() + 1000);
    expect(new Date(consent.at).toISOString()).to.equal(consent.at);
    fake().go('connecting');
    fake().go('in-call');
    fake().end('user-hangup');
    expect(ended).to.have.length(1);
    expect(ended[0]?.consentAt).to.equal(consent.at);
    // Asked once per page: the next call starts at once, still reporting when consent was given.
    await el.updateComplete;
    part(el, 'call-button').click();
    expect(fake().state).to.equal('starting');
    expect(consents).to.have.length(1);
    fake().end('user-hangup');
    expect(ended[1]?.consentAt).to.equal(consent.at);
    // Nothing was written to storage without consent-storage.
    expect(storedConsentKeys(sessionStorage)).to.deep.equal([]);
    expect(storedConsentKeys(localStorage)).to.deep.equal([]);
  });

  it('"Cancel" returns to idle with focus on the call button; start() resolves; nothing spent; asked again next time', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api" consent=${freshText()}></voice-agent-call>`,
    );
    const consents = collect(el, 'call-consent', (event) => event.detail);
    const started = el.start();
    await el.updateComplete;
    part(el, 'consent-cancel').click();
    await started;
    await el.updateComplete;
    await el.updateComplete;
    expect(consents.map((c) => c.accepted)).to.deep.equal([false]);
    expect(fake().state).to.equal('idle');
    expect(findPart(el, 'consent')).to.equal(null);
    expect(focused(el)).to.equal(part(el, 'call-button'));
    expect(text(el, 'body')).to.contain('Talk with our AI assistant');
    part(el, 'call-button').click();
    await el.updateComplete;
    expect(findPart(el, 'consent'), 'asked again').to.not.equal(null);
  });

  it('Escape cancels; in the floating panel Tab and Shift+Tab stay inside it', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api" layout="floating" consent=${freshText()}></voice-agent-call>`,
    );
    const consents = collect(el, 'call-consent', (event) => event.detail.accepted);
    part(el, 'launcher').click();
    await el.updateComplete;
    part(el, 'call-button').focus();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(focused(el)).to.equal(part(el, 'consent-agree'));
    // Agree is last in the panel: Tab wraps to its first control (close), Shift+Tab back.
    await sendKeys({ press: 'Tab' });
    expect(focused(el)).to.equal(part(el, 'close-button'));
    await shiftTab();
    expect(focused(el)).to.equal(part(el, 'consent-agree'));
    await shiftTab();
    expect(focused(el)).to.equal(part(el, 'consent-cancel'));
    await sendKeys({ press: 'Escape' });
    await el.updateComplete;
    await el.updateComplete;
    expect(consents).to.deep.equal([false]);
    expect(el.open, 'the panel stays open').to.equal(true);
    expect(findPart(el, 'consent')).to.equal(null);
    expect(focused(el)).to.equal(part(el, 'call-button'));
    expect(fake().state).to.equal('idle');
  });

  it('closing the floating panel while the disclosure shows cancels it', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api" layout="floating" consent=${freshText()}></voice-agent-call>`,
    );
    const consents = collect(el, 'call-consent', (event) => event.detail.accepted);
    const started = el.start();
    await el.updateComplete;
    expect(el.open).to.equal(true);
    part(el, 'close-button').click();
    await started;
    expect(consents).to.deep.equal([false]);
    expect(el.open).to.equal(false);
  });

  it('the consent slot: rich content with links, reachable by Tab inside the panel, announced, axe-clean', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/api" layout="floating">
      <p slot="consent">We record calls. <a href="/terms">Terms</a> and <a href="/privacy">Privacy</a> (${freshText()})</p>
    </voice-agent-call>`);
    void el.start();
    await el.updateComplete;
    expect(findPart(el, 'consent')).to.not.equal(null);
    expect(query(el, '[role=status]').textContent).to.contain('We record calls. Terms and Privacy');
    const [terms, privacy] = [...el.querySelectorAll('a')];
    expect(focused(el)).to.equal(part(el, 'consent-agree'));
    await sendKeys({ press: 'Tab' }); // wraps to the close button
    await sendKeys({ press: 'Tab' });
    expect(document.activeElement).to.equal(terms);
    await sendKeys({ press: 'Tab' });
    expect(document.activeElement).to.equal(privacy);
    await sendKeys({ press: 'Tab' });
    expect(focused(el)).to.equal(part(el, 'consent-cancel'));
    expect(await axeViolations(el)).to.deep.equal([]);
    el.shadowRoot?.querySelector<HTMLElement>('[part~="consent-cancel"]')?.click();
  });

  it('consent-storage="session": the agreement is kept under a key with the text hash; a changed text asks again', async () => {
    const disclosure = freshText();
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api" consent=${disclosure} consent-storage="session"></voice-agent-call>`,
    );
    void el.start();
    await el.updateComplete;
    part(el, 'consent-agree').click();
    const key = `${CONSENT_KEY_PREFIX}${hashText(disclosure)}`;
    expect(storedConsentKeys(sessionStorage)).to.deep.equal([key]);
    expect(storedConsentKeys(localStorage)).to.deep.equal([]);
    const at = sessionStorage.getItem(key);
    expect(at).to.match(/^\d{4}-\d\d-\d\dT/);
    fake().end('user-hangup');
  });

  it('an agreement in storage (another page load) starts at once with its time; another text, or the other storage, asks', async () => {
    const remembered = freshText();
    const at = '2026-01-02T03:04:05.000Z';
    localStorage.setItem(`${CONSENT_KEY_PREFIX}${hashText(remembered)}`, at);
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api" consent=${remembered} consent-storage="local"></voice-agent-call>`,
    );
    const ended = collect(el, 'call-ended', (event) => event.detail);
    part(el, 'call-button').click();
    expect(fake().state, 'no gate: the agreement was stored').to.equal('starting');
    fake().end('user-hangup');
    expect(ended[0]?.consentAt).to.equal(at);

    // The same stored text but session storage named: asked.
    const session = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api" consent=${remembered} consent-storage="session"></voice-agent-call>`,
    );
    part(session, 'call-button').click();
    await session.updateComplete;
    expect(findPart(session, 'consent')).to.not.equal(null);
    part(session, 'consent-cancel').click();

    // A changed text: asked again, even with local storage named.
    const changed = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api" consent=${`${remembered} Updated.`} consent-storage="local"></voice-agent-call>`,
    );
    part(changed, 'call-button').click();
    await changed.updateComplete;
    expect(findPart(changed, 'consent')).to.not.equal(null);
    part(changed, 'consent-agree').click();
    expect(storedConsentKeys(localStorage).sort()).to.deep.equal(
      [hashText(remembered), hashText(`${remembered} Updated.`)].map((hash) => CONSENT_KEY_PREFIX + hash).sort(),
    );
    fake().end('user-hangup');
  });

  it('dark theme, inline and floating: the gate is axe-clean', async () => {
    for (const layout of ['inline', 'floating']) {
      const el = await fixture<VoiceAgentCall>(
        html`<voice-agent-call endpoint="/api" theme="dark" layout=${layout} consent=${freshText()}></voice-agent-call>`,
      );
      void el.start();
      await el.updateComplete;
      expect(findPart(el, 'consent'), layout).to.not.equal(null);
      expect(await axeViolations(el), layout).to.deep.equal([]);
      part(el, 'consent-cancel').click();
    }
  });

  it('Arabic: the gate in Arabic, right to left, axe-clean', async () => {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api" lang="ar" consent="تُسجَّل المكالمات لتحسين خدمتنا."></voice-agent-call>`,
    );
    void el.start();
    await el.updateComplete;
    expect(part(el, 'consent-agree').textContent?.trim()).to.equal('أوافق وأتصل');
    expect(part(el, 'consent-cancel').textContent?.trim()).to.equal('إلغاء');
    expect(query(el, '.root').getAttribute('dir')).to.equal('rtl');
    expect(query(el, '[role=status]').textContent).to.contain('قبل أن تتصل');
    expect(await axeViolations(el)).to.deep.equal([]);
    part(el, 'consent-cancel').click();
  });

  it('without consent the call button calls at once and call-ended has no consentAt', async () => {
    const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/api"></voice-agent-call>`);
    const ended = collect(el, 'call-ended', (event) => event.detail);
    part(el, 'call-button').click();
    expect(fake().state).to.equal('starting');
    fake().end('user-hangup');
    expect(ended[0]).to.not.have.property('consentAt');
  });
});
