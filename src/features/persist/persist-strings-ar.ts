// Calls that survive the page, in Arabic: strings-ar.ts spreads these into its language (its own chunk).
import type { PersistStrings } from './persist-strings.js';

export const persistAr: PersistStrings = {
  resumeMicrophoneHint: 'مكالمتك ما زالت مستمرة. اسمح باستخدام الميكروفون في هذه الصفحة لمتابعة الحديث.',
  resumeContinue: 'انقر لمتابعة المكالمة',
};
