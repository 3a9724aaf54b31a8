// The keypad's digits (DTMF): what the element's keypad, `sendDigits()` and the media connection
// accept, checked once. Pure, no imports.

/** One keypad digit: `0`-`9`, `*`, `#`. */
export function isDtmfDigit(key: string): boolean {
  return key.length === 1 && isDtmfDigits(key);
}

/** One or more keypad digits, nothing else. */
export function isDtmfDigits(digits: string): boolean {
  return /^[0-9*#]+$/.test(digits);
}
