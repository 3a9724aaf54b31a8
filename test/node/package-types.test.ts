// The framework typings. Most of this file is checked by `npm run typecheck` (the
// `@ts-expect-error` lines fail the type-check if a wrong handler or value were accepted); the
// tests check the runtime half.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GlobalComponents } from 'vue';
import { isVoiceAgentCallTag, VOICE_AGENT_CALL_TAG } from '../../src/vue.js';
import type { VoiceAgentCallProps } from '../../src/react.js';
import { CallConsentEvent, type CallEndedEvent, type CallStateEvent } from '../../src/call/events.js';
import type { EndReason } from '../../src/call/types.js';

type VueInstance = InstanceType<GlobalComponents['voice-agent-call']>;
type VueProps = VueInstance['$props'];

/** Never called: its body is the type test. */
export function vueTemplateTypes(emit: VueInstance['$emit'], ended: CallEndedEvent, state: CallStateEvent): VueProps[] {
  emit('call-ended', ended);
  emit('call-state', state);
  // @ts-expect-error call-ended carries a CallEndedEvent, not a CallStateEvent
  emit('call-ended', state);
  const ok: VueProps = {
    endpoint: '/api/voice-call',
    agent: 'default',
    layout: 'floating',
    placement: 'bottom-left',
    transcript: 'poll',
    theme: 'dark',
    inputs: { name: 'Ada' },
    class: 'call',
    consent: 'Calls are recorded.',
    'consent-storage': 'local',
    feedback: 'server',
  };
  emit('call-consent', new CallConsentEvent({ accepted: true, at: '2026-01-01T00:00:00.000Z' }));
  // @ts-expect-error consent-storage is 'session' | 'local'
  const badStorage: VueProps = { 'consent-storage': 'cookie' };
  // @ts-expect-error layout is 'inline' | 'floating'
  const badLayout: VueProps = { layout: 'sideways' };
  // @ts-expect-error transcript is 'live' | 'poll' | 'off'
  const badTranscript: VueProps = { transcript: 'sometimes' };
  return [ok, badLayout, badTranscript, badStorage];
}

/** Never called: typed React event props. */
export function reactPropTypes(): VoiceAgentCallProps[] {
  const ok: VoiceAgentCallProps = {
    endpoint: '/api/voice-call',
    agent: 'default',
    layout: 'inline',
    inputs: { topic: 'billing' },
    onCallState: (event) => void event.detail.previous,
    onCallTranscript: (event) => void event.detail.entries.length,
    consent: 'Calls are recorded.',
    'consent-storage': 'session',
    feedback: 'server',
    onCallConsent: (event) => void event.detail.accepted,
    onCallFeedback: (event) => {
      const rating: 'up' | 'down' = event.detail.rating;
      void rating;
    },
    onCallEnded: (event) => void event.detail.consentAt,
  };
  // @ts-expect-error onCallEnded receives a CallEndedEvent
  const wrongEvent: VoiceAgentCallProps = { onCallEnded: (event: CallStateEvent) => void event };
  // @ts-expect-error layout is 'inline' | 'floating'
  const wrongLayout: VoiceAgentCallProps = { layout: 'sideways' };
  // @ts-expect-error onCallFeedback receives a CallFeedbackEvent
  const wrongFeedback: VoiceAgentCallProps = { onCallFeedback: (event: CallEndedEvent) => void event };
  const reason: EndReason = 'busy';
  void reason;
  return [ok, wrongEvent, wrongLayout, wrongFeedback];
}

test("Vue's isCustomElement check accepts the tag and nothing else", () => {
  assert.equal(VOICE_AGENT_CALL_TAG, 'voice-agent-call');
  assert.equal(isVoiceAgentCallTag('voice-agent-call'), true);
  for (const tag of ['div', 'voice-agent', 'voice-agent-call-x', 'VoiceAgentCall'])
    assert.equal(isVoiceAgentCallTag(tag), false, tag);
});

// A TypeScript app that installed the package: it sees only dist/*.d.ts through `exports`.
const CONSUMER = `
import type {} from 'voice-agent-call/vue';
import type { GlobalComponents } from 'vue';
import { createElement } from 'react';
import { VoiceAgentCall as VoiceAgentCallComponent } from 'voice-agent-call/react';
import { VoiceAgentCall, type CallEndedEvent, type CallResult } from 'voice-agent-call';
import { defineVoiceAgentCall } from 'voice-agent-call/define';

type VueElement = InstanceType<GlobalComponents['voice-agent-call']>;
export const props: VueElement['$props'] = { endpoint: '/api/voice-call', layout: 'floating' };
export function emitEnded(emit: VueElement['$emit'], event: CallEndedEvent): void {
  emit('call-ended', event);
}
export const element = createElement(VoiceAgentCallComponent, {
  endpoint: '/api/voice-call',
  consent: 'Calls are recorded.',
  feedback: 'server',
  onCallFeedback: (event) => void event.detail.rating,
  onCallEnded: (event) => {
    const result: CallResult = event.detail;
    void result;
  },
});
document.querySelector('voice-agent-call')?.addEventListener('call-ended', (event) => {
  const result: CallResult = event.detail;
  void result;
});
export const api = [VoiceAgentCall, defineVoiceAgentCall];
`;

/** A server (Node types present) mounting the companion. */
const SERVER = `
import { createServer } from 'node:http';
import { createCompanionHandler, createNodeListener, type CompanionConfig } from 'voice-agent-call/server';

const config: CompanionConfig = { apiKey: 'key', baseUrl: 'http://127.0.0.1:1', agentId: 'agent', secret: 'x'.repeat(32) };
const handler: (request: Request) => Promise<Response> = createCompanionHandler(config);
export const server = createServer(createNodeListener(handler));
`;

/** A script (no Node types: the client is Web APIs only) using the service API client, grouped by resource. */
const API_CLIENT = `
import { VoiceAgentApi, ServiceError, paginate, type Agent, type ServiceErrorCode } from 'voice-agent-call/api';

const api = new VoiceAgentApi({ baseUrl: 'https://api.example.com/api', apiKey: 'key' });
export async function names(): Promise<string[]> {
  const names: string[] = [];
  for await (const agent of paginate((options, call) => api.agents.list(options, call))) names.push((agent satisfies Agent).name);
  return names;
}
export async function dial(): Promise<string> {
  try {
    return (await api.dials.create({ callAgentId: 'agent', browserCall: true })).dialId;
  } catch (error) {
    const code: ServiceErrorCode | null = error instanceof ServiceError ? error.code : null;
    return String(code);
  }
}
// @ts-expect-error the flat methods became groups (api.agents.list)
export const old = api.listAgents;
`;

test('a browser app, a server and an API client script type-check against the published .d.ts files (skipLibCheck off)', async () => {
  const { execFile } = await import('node:child_process');
  const { mkdirSync, writeFileSync, existsSync } = await import('node:fs');
  const { fileURLToPath } = await import('node:url');
  const root = fileURLToPath(new URL('../../', import.meta.url));
  assert.ok(existsSync(`${root}dist/index.d.ts`), 'dist/ is missing: run `npm run build` first');
  // Inside the package directory, so `voice-agent-call` resolves to itself through `exports`.
  const dir = `${root}.cache/consumer-types/`;
  mkdirSync(dir, { recursive: true });
  const tsc = `${root}node_modules/typescript/bin/tsc`;
  // The browser app has no Node types: the widget's declarations must not need them.
  for (const [name, source, types] of [
    ['browser-app', CONSUMER, []],
    ['server', SERVER, ['node']],
    ['api-client', API_CLIENT, []],
  ] as const) {
    writeFileSync(`${dir}${name}.ts`, source);
    writeFileSync(
      `${dir}${name}.tsconfig.json`,
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          types,
          strict: true,
          noEmit: true,
          skipLibCheck: false,
        },
        files: [`${name}.ts`],
      }),
    );
    const output = await new Promise<string>((resolve) => {
      execFile(
        process.execPath,
        [tsc, '-p', `${dir}${name}.tsconfig.json`],
        { cwd: root, timeout: 60_000 },
        (_error, stdout, stderr) => resolve(`${stdout}${stderr}`),
      );
    });
    assert.equal(output.trim(), '', `${name}: ${output}`);
  }
});
