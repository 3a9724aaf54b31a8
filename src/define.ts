// Registers <voice-agent-call>. Guarded: if the tag is already taken (two copies of the widget on
// one page), the first registration stays and this one only warns.
import { VoiceAgentCall } from './element/voice-agent-call.js';

export const TAG_NAME = 'voice-agent-call';

export function defineVoiceAgentCall(tagName: string = TAG_NAME): void {
  const existing = customElements.get(tagName);
  if (existing) {
    const other = existing === VoiceAgentCall ? '' : ' by another element (another copy of voice-agent-call?)';
    console.warn(`<${tagName}> is already registered${other}; keeping the first registration.`);
    return;
  }
  customElements.define(tagName, VoiceAgentCall);
}

defineVoiceAgentCall();

export { VoiceAgentCall };
