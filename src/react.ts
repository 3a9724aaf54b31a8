// `voice-agent-call/react`: <voice-agent-call> as a React component, made with @lit/react, with
// typed event props (`onCallEnded={(event) => event.detail.reason}`). Importing it registers the
// tag (through define.ts), so the component works without a second import; on a server (SSR)
// Lit's own DOM shim makes that registration harmless.
import * as React from 'react';
import { createComponent, type EventName } from '@lit/react';
import { TAG_NAME, VoiceAgentCall as VoiceAgentCallElement } from './define.js';
import { PUBLIC_CALL_EVENTS, type PublicCallEventName } from './call/event-names.js';
import type { PublicCallEvents } from './call/events.js';

/** `call-ended` → `CallEnded`. */
type PascalCase<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Capitalize<Head>}${PascalCase<Tail>}`
  : Capitalize<S>;

/** The React prop of an element event: `call-ended` → `onCallEnded`. */
export type EventPropName<N extends string> = `on${PascalCase<N>}`;

function eventPropName<N extends string>(name: N): EventPropName<N> {
  return `on${name.replace(/(?:^|-)(\w)/g, (_match, letter: string) => letter.toUpperCase())}` as EventPropName<N>;
}

/** React prop name → DOM event name, each with its event class for the handler's type; one per public event. */
export const voiceAgentCallEvents = Object.fromEntries(
  PUBLIC_CALL_EVENTS.map((name) => [eventPropName(name), name]),
) as { [K in PublicCallEventName as EventPropName<K>]: EventName<PublicCallEvents[K]> };

/**
 * Attribute spellings beside the element's properties (which are props already, `consentStorage`
 * and `rememberDevices` among them): `consent-storage` and `remember-devices` written with their
 * hyphens, as in HTML, and set as attributes.
 */
export interface VoiceAgentCallAttributeProps {
  /** Where an agreement is remembered beyond the page (the `consentStorage` property). */
  'consent-storage'?: VoiceAgentCallElement['consentStorage'];
  /** Keep the chosen microphone and speaker for later calls (the `rememberDevices` property). */
  'remember-devices'?: boolean;
}

/**
 * The element's string attributes a server should render, so the tag carries them before
 * hydration (the consent disclosure, the rating, the controls). @lit/react sets every prop the
 * element class has as a property, which a server does not render: it is shown a prototype without
 * these, and passes them to React, which renders them as attributes on the server and (React 19)
 * sets the element's properties in the browser.
 */
const RENDERED_ATTRIBUTES: ReadonlySet<PropertyKey> = new Set(['controls', 'consent', 'feedback']);
const elementClass = {
  name: VoiceAgentCallElement.name,
  prototype: new Proxy(VoiceAgentCallElement.prototype, {
    has: (target, key) => !RENDERED_ATTRIBUTES.has(key) && Reflect.has(target, key),
  }),
} as typeof VoiceAgentCallElement;

const component = createComponent({
  react: React,
  tagName: TAG_NAME,
  elementClass,
  events: voiceAgentCallEvents,
  displayName: 'VoiceAgentCall',
});

/**
 * `<VoiceAgentCall endpoint="/api/voice-call" agent="default" onCallEnded={…} />`. Attributes and
 * properties (`inputs`, `strings`) are props; a `ref` gets the element (for `start()`,
 * `hangup()`, `setMuted()`).
 */
export const VoiceAgentCall = component as React.ForwardRefExoticComponent<
  React.ComponentProps<typeof component> & VoiceAgentCallAttributeProps
>;

export type VoiceAgentCallProps = React.ComponentProps<typeof VoiceAgentCall>;
export type { VoiceAgentCallElement };
export type * from './call/public-events.js';
export type {
  CallConsentDetail,
  CallFeedbackDetail,
  CallRating,
  CallResult,
  CallState,
  EndReason,
  TranscriptEntry,
} from './call/types.js';
export type { CallErrorCode } from './call/error-codes.js';
