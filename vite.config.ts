// The demo's dev server (`npm start` adds the companion proxy): demo/ is the root, and the
// widget is served from src/ as the page's own module.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: fileURLToPath(new URL('./demo', import.meta.url)),
  server: { host: '127.0.0.1', fs: { allow: [fileURLToPath(new URL('.', import.meta.url))] } },
  clearScreen: false,
  logLevel: 'warn',
});
