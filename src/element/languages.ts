// Every built-in language at once, for the package API (`builtInStrings`, `resolveStrings`). The
// element does not import this module: it loads a language other than English only when asked.
import { ar } from './strings-ar.js';
import { primarySubtag } from './strings-idle.js';
import { en as callEn, type VoiceAgentCallStrings } from './strings.js';
import { consentEn } from '../features/consent/consent-strings.js';
import { feedbackEn } from '../features/feedback/feedback-strings.js';
import { persistEn } from '../features/persist/persist-strings.js';

/** English whole: the consent gate's, the rating's and persist's strings are in their own chunks. */
const en: VoiceAgentCallStrings = { ...callEn, ...consentEn, ...feedbackEn, ...persistEn };

/** Built-in languages, by primary language subtag. */
export const builtInStrings: Readonly<Record<string, VoiceAgentCallStrings>> = { en, ar };

/** The strings for `lang` (`ar-EG` → `ar`; unknown → English) with `overrides` on top. */
export function resolveStrings(
  lang: string | null | undefined,
  overrides?: Partial<VoiceAgentCallStrings> | null,
): VoiceAgentCallStrings {
  const base = builtInStrings[primarySubtag(lang)] ?? en;
  return overrides ? { ...base, ...overrides } : base;
}
