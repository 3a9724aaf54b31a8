// Public browser-side API. Importing this module has no side effects: it defines no element.
export const VERSION = '0.1.0';
