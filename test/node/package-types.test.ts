// The framework typings. Most of this file is checked by `npm run typecheck` (the
// `@ts-expect-error` lines fail the type-check if a wrong handler or value were accepted); the
// tests check the runtime half.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GlobalComponents } from 'vue';
import { isVoiceAgentCallTag, VOICE_AGENT_CALL_TAG } from '../../src/vue.js';
import type { VoiceAgentCallProps } from '../../src/react.js';
import type { CallEndedEvent, CallStateEvent } from '../../src/call/events.js';
import type { EndReason } from '../../src/call/types.js';

type VueInstance = InstanceType<GlobalComponents['voice-agent-call']>;
type VueProps = VueInstance['$props'];

/** Never called: its body is the type test. */
export function vueTemplateTypes(emit: VueInstance['$emit'], ended: CallEndedEvent, state: CallStateEvent): VueProps[] {
  emit('call-ended', ended);
  emit('call-state', state);
  // @ts-expect-error call-ended carries a CallEndedEvent, not a CallStateEvent
  emit('call-ended', state);
  const ok: VueProps = { endpoint: '/api/voice-call', agent: 'default', layout: 'floating', placement: 'bottom-left', transcript: 'poll', theme: 'dark', inputs: { name: 'Ada' }, class: 'call' };
  // @ts-expect-error layout is 'inline' | 'floating'
  const badLayout: VueProps = { layout: 'sideways' };
  // @ts-expect-error transcript is 'live' | 'poll' | 'off'
  const badTranscript: VueProps = { transcript: 'sometimes' };
  return [ok, badLayout, badTranscript];
}

/** Never called: typed React event props. */
export function reactPropTypes(): VoiceAgentCallProps[] {
  const ok: VoiceAgentCallProps = {
    endpoint: '/api/voice-call',
    agent: 'default',
    layout: 'inline',
    inputs: { topic: 'billing' },
    onCallEnded: (event) => {
      const reason: EndReason = event.detail.reason;
      void reason;
    },
    onCallState: (event) => void event.detail.previous,
    onCallTranscript: (event) => void event.detail.entries.length,
  };
  // @ts-expect-error onCallEnded receives a CallEndedEvent
  const wrongEvent: VoiceAgentCallProps = { onCallEnded: (event: CallStateEvent) => void event };
  // @ts-expect-error layout is 'inline' | 'floating'
  const wrongLayout: VoiceAgentCallProps = { layout: 'sideways' };
  return [ok, wrongEvent, wrongLayout];
}

test("Vue's isCustomElement check accepts the tag and nothing else", () => {
  assert.equal(VOICE_AGENT_CALL_TAG, 'voice-agent-call');
  assert.equal(isVoiceAgentCallTag('voice-agent-call'), true);
  for (const tag of ['div', 'voice-agent', 'voice-agent-call-x', 'VoiceAgentCall']) assert.equal(isVoiceAgentCallTag(tag), false, tag);
});
