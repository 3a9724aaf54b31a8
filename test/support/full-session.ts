// Scripted sessions with the in-call controls a real CallSession has: hold, and with it the
// keypad and the microphone and speaker choice. For the element tests that render those controls.
import { fixture, html } from '@open-wc/testing';
import { CallHoldEvent } from '../../src/call/events.js';
import { VoiceAgentCall } from '../../src/define.js';
import { part } from './dom.js';
import { FakeSession } from './fake-session.js';

/** A scripted session that can hold (`setHeld` fires `call-hold` as the real one does). */
export class HoldingSession extends FakeSession {
  canHold = true;
  held = false;
  async setHeld(held: boolean): Promise<void> {
    this.held = held;
    this.dispatchEvent(new CallHoldEvent({ held }));
  }
}

/** A scripted session with every in-call control: hold, keypad, microphone and speaker. */
export class FullSession extends HoldingSession {
  microphoneId: string | null = null;
  speakerId: string | null = null;
  async sendDigits(): Promise<void> {}
  async setMicrophone(deviceId: string): Promise<void> {
    this.microphoneId = deviceId;
  }
  async setSpeaker(deviceId: string): Promise<void> {
    this.speakerId = deviceId;
  }
}

/**
 * Runs `body` with an element (`controls="mute hold"`) whose call is `in-call` on a HoldingSession,
 * and gives the element its own session factory back afterwards.
 */
export async function withHoldingCall(
  body: (el: VoiceAgentCall, session: HoldingSession) => Promise<void>,
): Promise<void> {
  const previous = VoiceAgentCall.sessionFactory;
  let made: HoldingSession | null = null;
  VoiceAgentCall.sessionFactory = (options) => (made = new HoldingSession(options));
  try {
    const el = await fixture<VoiceAgentCall>(
      html`<voice-agent-call endpoint="/api" controls="mute hold"></voice-agent-call>`,
    );
    part(el, 'call-button').click();
    const session = made as HoldingSession | null;
    if (!session) throw new Error('no session was made');
    session.go('connecting');
    session.go('in-call');
    await body(el, session);
  } finally {
    VoiceAgentCall.sessionFactory = previous;
  }
}
