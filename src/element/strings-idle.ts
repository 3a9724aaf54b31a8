// What the idle entry knows of the strings: the English strings the idle card shows, which
// languages run right to left, and how to load another built-in language (a module of its own,
// fetched when `lang` asks for it). The rest of English comes with the call chunk (strings.ts).
import type { VoiceAgentCallStrings } from './strings.js';
import { lazyChunk } from '../call/lazy-chunk.js';

export type IdleStringKey =
  'title' | 'launcherLabel' | 'closePanel' | 'idleHint' | 'statusIdle' | 'statusStarting' | 'startCall';

export const enIdle: Pick<VoiceAgentCallStrings, IdleStringKey> = {
  title: 'Voice assistant',
  launcherLabel: 'Voice assistant',
  closePanel: 'Close',
  idleHint: 'Talk with our AI assistant. Your browser will ask to use the microphone.',
  statusIdle: 'Ready to talk',
  statusStarting: 'Preparing the call…',
  startCall: 'Start call',
};

const RTL_LANGUAGES = new Set(['ar', 'he', 'fa', 'ur', 'ps', 'sd', 'ug', 'yi', 'dv', 'ckb']);

export function primarySubtag(lang: string | null | undefined): string {
  return (lang ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
}

export function isRtlLanguage(lang: string | null | undefined): boolean {
  return RTL_LANGUAGES.has(primarySubtag(lang));
}

/** Built-in languages besides English, each loaded on demand (call/lazy-chunk.ts). */
const LANGUAGES = new Map([['ar', lazyChunk(() => import('./strings-ar.js').then((module) => module.ar))]]);

/** The strings of `lang` if it is a built-in language other than English and has loaded. */
export function loadedLanguage(lang: string | null | undefined): VoiceAgentCallStrings | undefined {
  return LANGUAGES.get(primarySubtag(lang))?.now() ?? undefined;
}

/**
 * Loads `lang`'s strings when it is a built-in language other than English that has not loaded
 * yet; null when nothing needs loading. A failed load settles too (the element shows English)
 * and is tried again next time.
 */
export function loadLanguage(lang: string | null | undefined): Promise<void> | null {
  const chunk = LANGUAGES.get(primarySubtag(lang));
  if (!chunk || chunk.now()) return null;
  return chunk.load().then(
    () => undefined,
    () => undefined,
  );
}
