// Intent (the pointer on the call button) also asks the Permissions API for the microphone, once
// the call chunk is in: at the click a returning visitor's dial goes out beside the microphone's
// request at once, instead of after the Permissions API's answer (about 10 ms in Chromium). Its own
// file: the call it starts loads the real media chunk, which element-preload's tests must not find.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { VoiceAgentCall } from '../../src/define.js';
import '../../src/define.js';
import { hover, pointerAway } from '../support/pointer.js';
import { part } from '../support/dom.js';

describe('<voice-agent-call> intent and the microphone permission', () => {
  it("intent also asks the Permissions API for the microphone: a returning visitor's click sends the dial beside getUserMedia, without asking again", async () => {
    const realQuery = navigator.permissions.query;
    const realGetUserMedia = navigator.mediaDevices.getUserMedia;
    const realFetch = window.fetch;
    const queries: string[] = [];
    const steps: string[] = [];
    let grant: () => void = () => undefined;
    try {
      // A returning visitor: the microphone is granted already (the test browser's own answer may be `prompt`).
      navigator.permissions.query = (descriptor: PermissionDescriptor) => {
        queries.push(descriptor.name);
        return Promise.resolve({ state: 'granted' } as PermissionStatus);
      };
      const el = await fixture<VoiceAgentCall>(html`<voice-agent-call endpoint="/ahead-companion"></voice-agent-call>`);
      await hover(part(el, 'call-button'));
      await waitUntil(() => queries.includes('microphone'), 'intent asks for the microphone permission', {
        timeout: 10000,
      });
      queries.length = 0;
      navigator.mediaDevices.getUserMedia = (constraints) => {
        steps.push('getUserMedia');
        return new Promise(
          (resolve) => (grant = () => resolve(realGetUserMedia.call(navigator.mediaDevices, constraints))),
        );
      };
      window.fetch = (input, init) => {
        const url = String(input instanceof Request ? input.url : input);
        if (url.endsWith('/ahead-companion/dials')) {
          steps.push('POST /dials');
          return Promise.resolve(
            Response.json({ error: { code: 'unavailable', message: 'down for the test' } }, { status: 503 }),
          );
        }
        return realFetch(input, init);
      };
      const ended = new Promise((resolve) => el.addEventListener('call-ended', resolve, { once: true }));
      part(el, 'call-button').click();
      await waitUntil(() => steps.includes('POST /dials'), 'the dial is asked for while the microphone is pending');
      // (The companion's 503 may be tried again: the first two steps tell the order.)
      expect(steps.slice(0, 2), 'the dial goes out before the microphone is granted').to.deep.equal([
        'getUserMedia',
        'POST /dials',
      ]);
      expect(queries, 'no second question to the Permissions API in the click').to.deep.equal([]);
      grant();
      await ended;
      await pointerAway();
    } finally {
      navigator.permissions.query = realQuery;
      navigator.mediaDevices.getUserMedia = realGetUserMedia;
      window.fetch = realFetch;
    }
  });
});
