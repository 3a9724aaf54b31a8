// The options an element's session is made and configured with, from its attributes (call chunk:
// only a session needs them).
import type { CallSessionOptions, OptionalFeature, TranscriptMode } from '../call/types.js';
import { OPTIONAL_FEATURES } from '../features/registry.js';
import { shownControls } from './call-part.js';

/** The controls whose session side comes in a chunk of its own (features/registry.ts). */
const OPTIONAL: ReadonlySet<string> = new Set(OPTIONAL_FEATURES);

/** What a session's options come from: the element's attributes. */
export interface SessionSource {
  readonly endpoint?: string | undefined;
  readonly agent?: string | undefined;
  readonly inputs?: Record<string, string> | undefined;
  readonly shadowRoot: ShadowRoot | null;
  readonly debug: boolean;
  readonly metrics?: string | undefined;
  /** The `transcript` attribute. */
  readonly transcriptMode?: TranscriptMode | undefined;
  readonly persist?: boolean;
  /** The `controls` attribute: the optional features it names load with the session. */
  readonly controls?: string | null;
}

/** The `transcript` attribute as a mode: `live` unless it says `poll` or `off`. */
export function transcriptOf(mode: string | undefined): TranscriptMode {
  return mode === 'poll' || mode === 'off' ? mode : 'live';
}

/** The options an element's session is made or configured with, from its attributes (and when its consent gate was agreed to). */
export function sessionOptions(element: SessionSource, consentAt?: string): CallSessionOptions {
  const options: CallSessionOptions = {
    endpoint: element.endpoint ?? '',
    transcript: transcriptOf(element.transcriptMode),
  };
  if (element.agent) options.agent = element.agent;
  if (element.inputs) options.inputs = { ...element.inputs };
  if (element.shadowRoot) options.audioContainer = element.shadowRoot;
  // Always set: configure() merges, so a removed attribute must say false.
  options.debug = element.debug;
  options.metrics = element.metrics === 'server' ? 'server' : 'off';
  options.persist = element.persist ?? false;
  options.features = [...shownControls(element.controls)].filter((name): name is OptionalFeature => OPTIONAL.has(name));
  if (consentAt) options.consentAt = consentAt;
  return options;
}
