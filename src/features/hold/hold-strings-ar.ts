// Hold in Arabic: strings-ar.ts spreads these into its language (its own chunk).
import type { HoldStrings } from './hold-strings.js';

export const holdAr: HoldStrings = {
  hold: 'انتظار',
  resume: 'استئناف',
  statusOnHold: 'المكالمة في الانتظار',
  holdResumed: 'استُؤنفت المكالمة',
  holdFailed: 'تعذّر وضع المكالمة في الانتظار أو استئنافها. حاول مرة أخرى.',
};
