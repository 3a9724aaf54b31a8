// The element's attributes as the frameworks' types see them: `controls`, `consent`,
// `consent-storage`, `feedback`, `remember-devices` and `metrics` are declared properties of the element, so
// the React props and the Vue template types take them from the class. A TSX app and a Vue
// template's props, compiled against the published .d.ts files (skipLibCheck off); each
// `@ts-expect-error` fails the compile if a wrong value were accepted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const REACT_APP = `
import { VoiceAgentCall } from 'voice-agent-call/react';

export const everyControl = <VoiceAgentCall endpoint="/api/voice-call" controls="mute devices keypad hold transfer" />;
export const attributes = (
  <VoiceAgentCall
    endpoint="/api/voice-call"
    controls="mute"
    consent="Calls are recorded."
    consent-storage="local"
    feedback="server"
    remember-devices
    metrics="server"
  />
);
export const properties = (
  <VoiceAgentCall endpoint="/api/voice-call" consentStorage="session" feedback rememberDevices={false} />
);
export const bareFeedback = <VoiceAgentCall feedback="" />;
// @ts-expect-error consent-storage is 'session' | 'local'
export const badStorage = <VoiceAgentCall consent-storage="cookie" />;
// @ts-expect-error consentStorage is 'session' | 'local'
export const badStorageProperty = <VoiceAgentCall consentStorage="cookie" />;
// @ts-expect-error feedback is '', 'server' or a boolean
export const badFeedback = <VoiceAgentCall feedback="always" />;
// @ts-expect-error controls is a string of tokens
export const badControls = <VoiceAgentCall controls={['mute']} />;
// @ts-expect-error rememberDevices is a boolean
export const badRemember = <VoiceAgentCall rememberDevices="yes" />;
// @ts-expect-error metrics is 'server'
export const badMetrics = <VoiceAgentCall metrics="client" />;
`;

const VUE_APP = `
import type {} from 'voice-agent-call/vue';
import type { GlobalComponents } from 'vue';

type Props = InstanceType<GlobalComponents['voice-agent-call']>['$props'];
export const attributes: Props = {
  controls: 'mute devices keypad hold transfer',
  consent: 'Calls are recorded.',
  'consent-storage': 'session',
  feedback: 'server',
  'remember-devices': true,
  metrics: 'server',
};
export const properties: Props = { consentStorage: 'local', feedback: true, rememberDevices: true };
// @ts-expect-error consent-storage is 'session' | 'local'
export const badStorage: Props = { 'consent-storage': 'cookie' };
// @ts-expect-error feedback is '', 'server' or a boolean
export const badFeedback: Props = { feedback: 'always' };
// @ts-expect-error controls is a string of tokens
export const badControls: Props = { controls: 42 };
// @ts-expect-error metrics is 'server'
export const badMetrics: Props = { metrics: 'client' };
`;

function compile(name: string, file: string, source: string, options: Record<string, unknown>): Promise<string> {
  // Inside the package directory, so `voice-agent-call` resolves to itself through `exports`.
  const dir = `${ROOT}.cache/consumer-types/`;
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}${file}`, source);
  writeFileSync(
    `${dir}${name}.tsconfig.json`,
    JSON.stringify({
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        types: [],
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        ...options,
      },
      files: [file],
    }),
  );
  return new Promise<string>((resolve) => {
    execFile(
      process.execPath,
      [`${ROOT}node_modules/typescript/bin/tsc`, '-p', `${dir}${name}.tsconfig.json`],
      { cwd: ROOT, timeout: 60_000 },
      (_error, stdout, stderr) => resolve(`${stdout}${stderr}`),
    );
  });
}

test('a TSX app sets controls, consent, consent-storage, feedback and remember-devices on <VoiceAgentCall>', async () => {
  assert.ok(existsSync(`${ROOT}dist/react.d.ts`), 'dist/ is missing: run `npm run build` first');
  const output = await compile('react-attributes', 'react-attributes.tsx', REACT_APP, { jsx: 'react-jsx' });
  assert.equal(output.trim(), '', output);
});

test("a Vue template's props take the same attributes, typed from the element", async () => {
  assert.ok(existsSync(`${ROOT}dist/vue.d.ts`), 'dist/ is missing: run `npm run build` first');
  const output = await compile('vue-attributes', 'vue-attributes.ts', VUE_APP, {});
  assert.equal(output.trim(), '', output);
});
