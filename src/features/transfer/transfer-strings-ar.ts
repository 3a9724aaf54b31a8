// Talk to a person in Arabic: strings-ar.ts spreads these into its language (its own chunk).
import type { TransferStrings } from './transfer-strings.js';

export const transferAr: TransferStrings = {
  talkToPerson: 'التحدث إلى شخص',
  statusTransferring: 'جارٍ تحويلك إلى شخص…',
  statusWithPerson: 'مع شخص',
  transferFailed: 'تعذّر تحويلك إلى شخص. ما زلت تتحدث مع المساعد.',
  speakerPerson: 'شخص',
};
