// The keypad: the strings the element shows for it, and their English (strings.ts spreads them
// into its language; the Arabic is keypad-strings-ar.ts, in the Arabic chunk).

export interface KeypadStrings {
  /** The keypad toggle (`controls="keypad"`) and the pad's name; typing digits while it is open sends them. */
  keypad: string;
}

export const keypadEn: KeypadStrings = {
  keypad: 'Keypad',
};
