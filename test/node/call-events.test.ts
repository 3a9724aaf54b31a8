// A call's events are named once (src/call/event-names.ts). What derives from that list is checked
// here at run time (the event classes, the element's re-dispatch list, the React props, the public
// exports); what cannot derive from it (the JSDoc `@fires` tags the manifest is generated from)
// fails here when it drifts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  CALL_EVENT_NAMES,
  CALL_EVENTS,
  PUBLIC_CALL_EVENTS,
  SESSION_EVENT_NAMES,
  isPublicCallEvent,
} from '../../src/call/event-names.js';
import { CALL_EVENT_CLASSES, createCallEvent } from '../../src/call/events.js';
import type { CallEventMap } from '../../src/call/types.js';
import * as api from '../../src/index.js';
import * as publicEvents from '../../src/call/public-events.js';
import { voiceAgentCallEvents } from '../../src/react.js';
import { eventClasses } from '../../scripts/build-manifest.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The `@fires` tags of the first JSDoc block above `marker` in a source file, in order. */
function firesTags(path: string, marker: string): string[] {
  const source = readFileSync(`${ROOT}${path}`, 'utf8');
  const end = source.indexOf(marker);
  assert.notEqual(end, -1, `${marker} in ${path}`);
  const start = source.lastIndexOf('/**', end);
  return [...source.slice(start, end).matchAll(/@fires\s+([\w-]+)/g)].map((match) => match[1] ?? '');
}

const details: { [K in keyof CallEventMap]: CallEventMap[K] } = {
  'call-state': { state: 'starting', previous: 'idle' },
  'call-connected': { dialId: 'dial-1' },
  'call-resumed': { dialId: 'dial-1', awaySeconds: 2 },
  'call-transcript': {
    entries: [{ id: 't1', speaker: 'AI', text: 'Hi', final: true }],
    changed: { id: 't1', speaker: 'AI', text: 'Hi', final: true },
  },
  'call-mute': { muted: true },
  'call-hold': { held: true },
  'call-dtmf': { digit: '#' },
  'call-device': { kind: 'audioinput', deviceId: 'mic-2', label: 'USB microphone', fallback: false },
  'call-quality': { quality: 'poor', rttMs: 320, jitterMs: 40, packetLoss: 0.08 },
  'call-progress': { stage: 'dial', ms: 310, startMs: 120 },
  'call-transfer': { state: 'connected' },
  'call-error': { code: 'network_lost', message: 'lost', recoverable: true },
  'call-ended': { dialId: null, reason: 'busy', transcript: [] },
  'agent-speaking': { speaking: true },
  'audio-blocked': { blocked: false },
  'call-consent': { accepted: true, at: '2026-01-01T00:00:00.000Z' },
  'call-feedback': { dialId: 'dial-1', rating: 'up', comment: 'Helpful' },
};

test('one class per event name: its eventName, its type, bubbling and composed, carrying its detail', () => {
  assert.deepEqual(Object.keys(CALL_EVENT_CLASSES), [...CALL_EVENT_NAMES]);
  assert.deepEqual(CALL_EVENT_NAMES, Object.keys(CALL_EVENTS));
  for (const name of CALL_EVENT_NAMES) {
    const eventClass = CALL_EVENT_CLASSES[name];
    assert.equal(eventClass.eventName, name);
    const event = createCallEvent(name, details[name]);
    assert.ok(event instanceof eventClass, `${name} is a ${eventClass.name}`);
    assert.ok(event instanceof Event);
    assert.deepEqual([event.type, event.bubbles, event.composed], [name, true, true]);
    assert.equal(event.detail, details[name]);
  }
  // Each class is its own: an event of one name is no instance of another's class.
  assert.equal(new Set(Object.values(CALL_EVENT_CLASSES)).size, CALL_EVENT_NAMES.length);
  assert.ok(!(createCallEvent('call-state', details['call-state']) instanceof CALL_EVENT_CLASSES['call-ended']));
});

test("the public events are the ones marked public and the element's own, in order; the two internal ones are not", () => {
  assert.deepEqual(PUBLIC_CALL_EVENTS, [
    'call-state',
    'call-connected',
    'call-resumed',
    'call-transcript',
    'call-mute',
    'call-hold',
    'call-dtmf',
    'call-device',
    'call-quality',
    'call-progress',
    'call-transfer',
    'call-error',
    'call-ended',
    'call-consent',
    'call-feedback',
  ]);
  assert.deepEqual(
    SESSION_EVENT_NAMES,
    CALL_EVENT_NAMES.filter((name) => name !== 'call-consent' && name !== 'call-feedback'),
  );
  assert.equal(isPublicCallEvent('agent-speaking'), false);
  assert.equal(isPublicCallEvent('audio-blocked'), false);
  assert.equal(isPublicCallEvent('constructor'), false);
});

test("the element's @fires tags name exactly the public events, in order (the manifest is generated from them)", () => {
  assert.deepEqual(firesTags('src/element/voice-agent-call.ts', 'export class VoiceAgentCall'), [
    ...PUBLIC_CALL_EVENTS,
  ]);
});

test("CallSession's @fires tags name every event it dispatches, in order (not the element's own)", () => {
  assert.deepEqual(firesTags('src/call/call-session.ts', 'export class CallSession'), [...SESSION_EVENT_NAMES]);
});

test('the manifest names each event by its class', () => {
  assert.deepEqual(
    [...eventClasses()],
    CALL_EVENT_NAMES.map((name) => [name, CALL_EVENT_CLASSES[name].name]),
  );
});

test('the package exports the class of every public event, and public-events.ts lists exactly those', () => {
  for (const name of PUBLIC_CALL_EVENTS) {
    const eventClass = CALL_EVENT_CLASSES[name];
    assert.equal((api as Record<string, unknown>)[eventClass.name], eventClass, `${eventClass.name} is exported`);
  }
  assert.deepEqual(
    Object.keys(publicEvents).sort(),
    PUBLIC_CALL_EVENTS.map((name) => CALL_EVENT_CLASSES[name].name).sort(),
  );
});

test('the React component has one on… prop per public event, named after it', () => {
  assert.deepEqual(Object.values(voiceAgentCallEvents), [...PUBLIC_CALL_EVENTS]);
  for (const [prop, name] of Object.entries(voiceAgentCallEvents)) {
    const words = name.split('-').map((word) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`);
    assert.equal(prop, `on${words.join('')}`);
  }
});
