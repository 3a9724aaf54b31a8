// The demo's dev server (`npm start` adds the companion proxy): demo/ is the root, and the
// widget is served from src/ as the page's own module.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: fileURLToPath(new URL('./demo', import.meta.url)),
  server: { host: '127.0.0.1', fs: { allow: [fileURLToPath(new URL('.', import.meta.url))] } },
  // Lit's production build, as a site's bundle gets it: the dev build warns "Lit is in dev mode" in
  // the console of every demo page.
  resolve: { conditions: ['module', 'browser', 'production'] },
  clearScreen: false,
  logLevel: 'warn',
});
