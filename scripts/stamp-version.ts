// After `tsc`: dist/version.js gets package.json's version as a literal, so the published module
// needs no bundler `define` (src/version.ts reads a development version when nothing is injected).
import { readFileSync, writeFileSync } from 'node:fs';

const ROOT = new URL('../', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { version: string };
const target = new URL('dist/version.js', ROOT);
if (!readFileSync(target, 'utf8').includes('__VOICE_AGENT_CALL_VERSION__'))
  throw new Error('dist/version.js is not the compiled src/version.ts: run tsc first');
writeFileSync(
  target,
  `// Stamped by scripts/stamp-version.ts from package.json.\nexport const VERSION = ${JSON.stringify(version)};\n`,
);
console.log(`dist/version.js: VERSION ${version}`);
