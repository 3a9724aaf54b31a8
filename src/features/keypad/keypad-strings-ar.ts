// The keypad in Arabic: strings-ar.ts spreads these into its language (its own chunk).
import type { KeypadStrings } from './keypad-strings.js';

export const keypadAr: KeypadStrings = {
  keypad: 'لوحة المفاتيح',
};
