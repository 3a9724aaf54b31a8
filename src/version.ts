// The package version, apart so that the idle CDN entry can export it without the rest of index.ts.
// Builds put package.json's version in: vite's `define` for the CDN files, scripts/stamp-version.ts
// over tsc's dist/version.js. Run from source (tests, the demo), it reads as a development build.
declare const __VOICE_AGENT_CALL_VERSION__: string | undefined;

export const VERSION: string =
  typeof __VOICE_AGENT_CALL_VERSION__ === 'string' ? __VOICE_AGENT_CALL_VERSION__ : '0.0.0-development';
