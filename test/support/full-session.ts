// Scripted sessions with the in-call controls a real CallSession has: hold, and with it the
// keypad and the microphone and speaker choice. For the element tests that render those controls.
import { CallHoldEvent } from '../../src/call/events.js';
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
