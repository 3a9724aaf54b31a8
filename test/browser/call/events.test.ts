// The session's public events (src/call/events.ts): they bubble, cross shadow roots and carry detail.
import { expect } from '@open-wc/testing';
import { CallEndedEvent, CallStateEvent } from '../../../src/call/events.js';

describe('call events', () => {
  it('bubble, cross shadow roots and carry detail', () => {
    const host = document.createElement('div');
    const root = host.attachShadow({ mode: 'open' });
    const inner = document.createElement('span');
    root.append(inner);
    document.body.append(host);
    const seen: string[] = [];
    document.addEventListener('call-state', (event) => seen.push(event.detail.state), { once: true });
    inner.dispatchEvent(new CallStateEvent({ state: 'starting', previous: 'idle' }));
    host.remove();
    expect(seen).to.deep.equal(['starting']);
    const ended = new CallEndedEvent({ dialId: null, reason: 'busy', transcript: [] });
    expect(ended.type).to.equal('call-ended');
    expect(ended.bubbles && ended.composed).to.equal(true);
  });
});
