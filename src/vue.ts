// `voice-agent-call/vue`: template types for <voice-agent-call> in Vue (Volar / vue-tsc check its
// props and `@call-ended` handlers), the shape Vue's guide gives for non-Vue custom elements, and
// the `isCustomElement` check Vue's compiler needs so it leaves the tag to the browser:
//
//   // vite.config.ts
//   vue({ template: { compilerOptions: { isCustomElement: isVoiceAgentCallTag } } })
//   // main.ts
//   import 'voice-agent-call/define';
//   import 'voice-agent-call/vue'; // (types) once, anywhere in the app
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type { VoiceAgentCall } from './element/voice-agent-call.js';
import type { PublicCallEvents } from './call/events.js';

export const VOICE_AGENT_CALL_TAG = 'voice-agent-call';

/** For Vue's `compilerOptions.isCustomElement`: true for `voice-agent-call`. */
export function isVoiceAgentCallTag(tag: string): boolean {
  return tag === VOICE_AGENT_CALL_TAG;
}

/** The element's events, by DOM name (the public events of event-names.ts). */
export type VoiceAgentCallEvents = PublicCallEvents;

/** What a template may set on the element: its attributes and writable properties. */
export type VoiceAgentCallTemplateProps = Partial<
  Pick<
    VoiceAgentCall,
    | 'endpoint'
    | 'agent'
    | 'layout'
    | 'placement'
    | 'theme'
    | 'open'
    | 'preload'
    | 'fallback'
    | 'debug'
    | 'controls'
    | 'consent'
    | 'consentStorage'
    | 'feedback'
    | 'rememberDevices'
    | 'metrics'
    | 'inputs'
    | 'strings'
    | 'lang'
  >
> & {
  /** The `transcript` attribute: `live`, `poll` or `off`. */
  transcript?: VoiceAgentCall['transcriptMode'];
  /** The `consentStorage` property as its attribute. */
  'consent-storage'?: VoiceAgentCall['consentStorage'];
  /** The `rememberDevices` property as its attribute. */
  'remember-devices'?: VoiceAgentCall['rememberDevices'];
};

type VueEmit<T> = EmitFn<{ [K in keyof T]: (event: T[K]) => void }>;

/** A custom element as Vue's template type-checker sees a component. */
export type DefineVoiceAgentCall = new () => VoiceAgentCall & {
  /** @deprecated For template type-checking only; not a property of the element. */
  $props: HTMLAttributes & VoiceAgentCallTemplateProps & PublicProps;
  /** @deprecated For template type-checking only; not a property of the element. */
  $emit: VueEmit<VoiceAgentCallEvents>;
};

declare module 'vue' {
  interface GlobalComponents {
    'voice-agent-call': DefineVoiceAgentCall;
  }
}
