// Builds the demo pages (script tag, React, Vue) into dist/demo/ with the demo's own Vite config,
// so the browser tests load them as a visitor would: bundled, React's CommonJS converted, nothing
// resolved at run time. dist/demo is not published (package.json `files`).
import { build } from 'vite';
import { fileURLToPath } from 'node:url';

const root = (path: string): string => fileURLToPath(new URL(`../${path}`, import.meta.url));

await build({
  configFile: root('vite.config.ts'),
  base: './',
  logLevel: 'warn',
  build: {
    outDir: root('dist/demo'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    reportCompressedSize: false,
    // livekit-client is one lazy chunk of ~525 KiB; that is expected.
    chunkSizeWarningLimit: 1024,
    rolldownOptions: {
      input: {
        index: root('demo/index.html'),
        react: root('demo/react.html'),
        vue: root('demo/vue.html'),
      },
    },
  },
});
console.log('built the demo pages into dist/demo/');
