// The package version, apart so that the idle CDN entry can export it without the rest of index.ts.
export const VERSION = '0.1.0';
