// The CDN build: dist/cdn/voice-agent-call.js, one ES module for a `<script type="module">` that
// registers <voice-agent-call> and exports the public API. livekit-client stays out of it: the
// call session imports the media module dynamically, so it becomes a separate chunk that the
// browser fetches (next to the entry, by URL relative to it) only when the first call starts.
import { defineConfig, type Plugin } from 'vite';
import { fileURLToPath } from 'node:url';

const ENTRY_ID = 'virtual:voice-agent-call-cdn';
const RESOLVED_ENTRY_ID = `\0${ENTRY_ID}`;
const src = (path: string): string => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

/** The entry: everything `voice-agent-call` exports, plus the registration of the tag. */
function cdnEntry(): Plugin {
  return {
    name: 'voice-agent-call-cdn-entry',
    resolveId: (id) => (id === ENTRY_ID ? RESOLVED_ENTRY_ID : undefined),
    load: (id) =>
      id === RESOLVED_ENTRY_ID
        ? `export * from ${JSON.stringify(src('index.ts'))};\nexport { TAG_NAME, defineVoiceAgentCall } from ${JSON.stringify(src('define.ts'))};\n`
        : undefined,
  };
}

export default defineConfig({
  configFile: false,
  publicDir: false,
  clearScreen: false,
  logLevel: 'warn',
  plugins: [cdnEntry()],
  // livekit-client and its dependencies test NODE_ENV; a script tag has no `process`.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: fileURLToPath(new URL('./dist/cdn', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    sourcemap: true,
    reportCompressedSize: false,
    // Not library mode: that leaves ES output unminified.
    modulePreload: false,
    rolldownOptions: {
      input: ENTRY_ID,
      // Lets the bundler merge the modules the media chunk shares with the entry into the entry
      // (the chunk then imports them from it) instead of a third file on the critical path.
      preserveEntrySignatures: 'allow-extension',
      output: {
        format: 'es',
        entryFileNames: 'voice-agent-call.js',
        chunkFileNames: 'chunks/[name]-[hash].js',
      },
    },
  },
});
