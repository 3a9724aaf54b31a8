// custom-elements.json: generated from the element's source and JSDoc, in step with it, and
// complete against the public API the README documents (attributes, events, methods, parts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  apiReference,
  elementDeclaration,
  generateManifest,
  MANIFEST_PATH,
  replaceReadmeSection,
  type Manifest,
} from '../../scripts/build-manifest.js';
import { PUBLIC_CALL_EVENTS } from '../../src/call/event-names.js';
import { CALL_EVENT_CLASSES } from '../../src/call/events.js';
import { readDoc, REFERENCE_PAGE } from '../../scripts/docs.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function builtManifest(): Manifest {
  assert.ok(existsSync(MANIFEST_PATH), 'dist/custom-elements.json is missing: run `npm run build` first');
  return JSON.parse(readFileSync(MANIFEST_PATH, 'utf8')) as Manifest;
}

test('the built manifest is in step with the element source, and generating it leaves package.json alone', () => {
  const before = readFileSync(`${ROOT}package.json`, 'utf8');
  assert.deepEqual(builtManifest(), generateManifest(), 'run `npm run build:manifest`');
  // The analyzer rewrites "customElements" to its scratch output unless told not to.
  assert.equal(readFileSync(`${ROOT}package.json`, 'utf8'), before);
  assert.equal((JSON.parse(before) as { customElements: string }).customElements, 'dist/custom-elements.json');
});

test('the manifest declares <voice-agent-call>, its module in dist/ and its registration in dist/define.js', () => {
  const manifest = builtManifest();
  const element = elementDeclaration(manifest);
  assert.equal(element.tagName, 'voice-agent-call');
  assert.equal(element.name, 'VoiceAgentCall');
  const definition = manifest.modules.find((module) => module.path === 'dist/define.js')?.exports?.[0];
  assert.deepEqual(definition, {
    kind: 'custom-element-definition',
    name: 'voice-agent-call',
    declaration: { name: 'VoiceAgentCall', module: 'dist/element/voice-agent-call.js' },
  });
  for (const module of manifest.modules) {
    assert.match(module.path, /^dist\/.*\.js$/);
    assert.ok(existsSync(`${ROOT}${module.path}`), `${module.path} is built`);
  }
});

test('the manifest documents every attribute, event, method and styling hook of the public API', () => {
  const element = elementDeclaration(builtManifest());
  const names = (list: { name: string }[] | undefined): string[] => (list ?? []).map((item) => item.name);
  for (const attribute of ['endpoint', 'agent', 'layout', 'placement', 'transcript', 'theme', 'lang', 'state']) {
    assert.ok(names(element.attributes).includes(attribute), `attribute ${attribute}`);
  }
  assert.ok(!names(element.attributes).some((name) => name.startsWith('_')), 'no internal state as attributes');
  // The public events of src/call/event-names.ts, each typed by its class.
  assert.deepEqual(
    (element.events ?? []).map((event) => [event.name, event.type?.text]),
    PUBLIC_CALL_EVENTS.map((name) => [name, CALL_EVENT_CLASSES[name].name]),
  );
  const members = element.members ?? [];
  for (const method of ['start', 'hangup', 'setMuted', 'getTranscript']) {
    assert.ok(
      members.some((member) => member.kind === 'method' && member.name === method),
      `method ${method}`,
    );
  }
  for (const property of ['inputs', 'strings', 'state', 'dialId', 'muted', 'transcript']) {
    assert.ok(
      members.some((member) => member.kind === 'field' && member.name === property),
      `property ${property}`,
    );
  }
  assert.ok(
    !members.some((member) => member.name.startsWith('_') || member.privacy === 'private'),
    'no private members',
  );
  for (const part of [
    'launcher',
    'panel',
    'status',
    'transcript',
    'entry',
    'controls',
    'call-button',
    'hangup-button',
    'mute-button',
  ]) {
    assert.ok(names(element.cssParts).includes(part), `part ${part}`);
  }
  assert.ok(
    (element.cssProperties ?? []).length > 0 &&
      (element.cssProperties ?? []).every((property) => property.name.startsWith('--vac-')),
  );
});

test('the API reference generated from the manifest names every attribute, event, part and custom property', () => {
  const manifest = builtManifest();
  const element = elementDeclaration(manifest);
  const reference = apiReference(manifest);
  for (const name of [
    ...(element.attributes ?? []).map((attribute) => `\`${attribute.name}\``),
    ...(element.events ?? []).map((event) => `\`${event.name}\``),
    ...(element.cssParts ?? []).map((part) => `::part(${part.name})`),
    ...(element.cssProperties ?? []).map((property) => `\`${property.name}\``),
  ]) {
    assert.ok(reference.includes(name), `${name} is in the reference`);
  }
});

test("the docs' element reference is the one generated from the manifest", () => {
  const readme = readDoc(REFERENCE_PAGE);
  assert.equal(
    replaceReadmeSection(readme, apiReference(builtManifest())),
    readme,
    'run `node --import tsx scripts/build-manifest.ts --readme`',
  );
});
