// The consent gate's English (its chunk shows before the call chunk and its English arrive); a
// built-in language (strings-ar.ts) and the `strings` property override them.
import type { VoiceAgentCallStrings } from '../../element/strings.js';

export type ConsentStringKey = 'consentLabel' | 'consentAgree' | 'consentCancel';
export type ConsentStrings = Pick<VoiceAgentCallStrings, ConsentStringKey>;

export const consentEn: ConsentStrings = {
  consentLabel: 'Before you call',
  consentAgree: 'Agree and call',
  consentCancel: 'Cancel',
};
