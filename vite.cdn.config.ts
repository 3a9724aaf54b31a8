// The CDN build: dist/cdn/voice-agent-call.js, one ES module for a `<script type="module">` that
// registers <voice-agent-call>. It holds only what the idle card needs (Lit, the element shell,
// idle styles, the idle card's English strings); the rest are lazy chunks the browser fetches
// next to the entry (by URL relative to it): the call chunk (call logic, in-call UI and styles,
// the rest of English) on intent, in idle time or on the click; the media chunk (livekit-client)
// and the small chunk of error classes both share beside it; other languages when `lang` asks
// for one. scripts/build-sizes.ts measures each; test/node/package-cdn.test.ts holds the entry to
// 12 KB gzip.
import MagicString from 'magic-string';
import { defineConfig, parseAst, type Plugin } from 'vite';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PACKAGE_VERSION = (
  JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }
).version;
const ENTRY_ID = 'virtual:voice-agent-call-cdn';
/** The chunk every call runs from the click on: compiled as it loads (the compile hint below). */
const COMPILED_ON_LOAD = new Set(['in-call']);
const RESOLVED_ENTRY_ID = `\0${ENTRY_ID}`;
const src = (path: string): string => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

/**
 * The entry: the element, its registration, and loaders for the rest. `CallSession` and the
 * event classes stay lazy: `await loadCallApi()` gives them to a page that uses them directly.
 */
function cdnEntry(): Plugin {
  return {
    name: 'voice-agent-call-cdn-entry',
    resolveId: (id) => (id === ENTRY_ID ? RESOLVED_ENTRY_ID : undefined),
    load: (id) =>
      id === RESOLVED_ENTRY_ID
        ? [
            `export { TAG_NAME, VoiceAgentCall, defineVoiceAgentCall } from ${JSON.stringify(src('define.ts'))};`,
            `export { VERSION } from ${JSON.stringify(src('version.ts'))};`,
            `export { preloadMedia } from ${JSON.stringify(src('call/media-loader.ts'))};`,
            `export { loadCallApi } from ${JSON.stringify(src('element/call-loader.ts'))};`,
            '',
          ].join('\n')
        : undefined,
  };
}

interface Node {
  type: string;
  [key: string]: unknown;
}
interface TemplateElement {
  start: number;
  end: number;
}

/** CSS without comments and without the whitespace the source keeps for reading. */
export function minifyCss(css: string): string {
  return (
    css
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\s+/g, ' ')
      .replace(/\s*([{};,])\s*/g, '$1')
      .replace(/:\s+/g, ':')
      .replace(/;}/g, '}')
      // `0.5` is `.5` (not after a digit or a dot: `10.5` stays), and `!important` needs no space.
      .replace(/(^|[^\d.])0\.(\d)/g, '$1.$2')
      .replace(/\s+!important/g, '!important')
      // `#ffffff` is `#fff`; `[theme='dark']` needs no quotes around an identifier.
      .replace(/#([\da-f])\1([\da-f])\2([\da-f])\3\b/gi, '#$1$2$3')
      .replace(/\[([\w-]+)='([a-z][\w-]*)'\]/gi, '[$1=$2]')
      .trim()
  );
}

/** Markup whose line breaks and indentation are only for reading: each run with a line break becomes one space, none between tags or before a tag's closing `>`. */
export function minifyMarkup(markup: string): string {
  // A tag's `>` that the formatter put on a line of its own closes the tag without the space.
  return markup
    .replace(/\s*\n\s*>/g, '>')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/>\s+</g, '><');
}

/**
 * Lit's templates and styles are template literals, which the JS minifier keeps verbatim: this
 * drops their comments, indentation and line breaks in the element's and the features' modules (the static parts
 * of `html`, `svg` and `css` literals only; a `css` literal with `${}` is left alone). Whitespace
 * inside a line is kept, so text and inline spacing render as before.
 */
function minifyTemplates(): Plugin {
  return {
    name: 'voice-agent-call-minify-templates',
    transform(code, id) {
      if (!/[\\/]src[\\/](element|features[\\/][\w-]+)[\\/][\w-]+\.ts$/.test(id) || !/\b(html|svg|css)`/.test(code))
        return undefined;
      const out = new MagicString(code);
      const visit = (node: unknown): void => {
        if (Array.isArray(node)) return node.forEach(visit);
        if (!node || typeof node !== 'object') return;
        const n = node as Node;
        if (n.type === 'TaggedTemplateExpression') {
          const tag = n.tag as Node;
          const quasis = (n.quasi as { quasis: TemplateElement[] }).quasis;
          const name = tag.type === 'Identifier' ? (tag.name as string) : '';
          const minify =
            name === 'css'
              ? quasis.length === 1
                ? minifyCss
                : null
              : name === 'html' || name === 'svg'
                ? minifyMarkup
                : null;
          if (minify) {
            for (const quasi of quasis) {
              const raw = code.slice(quasi.start, quasi.end);
              const small = minify(raw);
              if (small !== raw) out.overwrite(quasi.start, quasi.end, small || ' ');
            }
          }
        }
        for (const value of Object.values(n)) if (value && typeof value === 'object') visit(value);
      };
      visit(parseAst(code));
      return out.hasChanged() ? { code: out.toString(), map: out.generateMap({ hires: true, source: id }) } : undefined;
    },
  };
}

/**
 * Vite wraps each `import()` in its preload helper, which adds `<link>` tags for a chunk's
 * dependencies (CSS, modulepreload) before importing it. This build has neither (no CSS files,
 * `modulePreload: false`), so every call passes no dependencies and only the helper's error path
 * is ever used: this is that path alone (a failed load fires Vite's cancelable `vite:preloadError`
 * on window, as before), about 1.3 KB minified less in the idle entry.
 */
function slimPreloadHelper(): Plugin {
  const id = '\0vite/preload-helper.js';
  return {
    name: 'voice-agent-call-slim-preload-helper',
    enforce: 'pre',
    load: (loaded) =>
      loaded === id
        ? [
            'export const __vitePreload = (load) =>',
            '  load().catch((error) => {',
            "    const event = new Event('vite:preloadError', { cancelable: true });",
            '    event.payload = error;',
            '    window.dispatchEvent(event);',
            '    if (!event.defaultPrevented) throw error;',
            '  });',
            '',
          ].join('\n')
        : undefined,
  };
}

export default defineConfig({
  configFile: false,
  publicDir: false,
  clearScreen: false,
  logLevel: 'warn',
  plugins: [cdnEntry(), minifyTemplates(), slimPreloadHelper()],
  define: {
    // livekit-client and its dependencies test NODE_ENV; a script tag has no `process`.
    'process.env.NODE_ENV': JSON.stringify('production'),
    // src/version.ts: the package's version, from package.json (no hand-kept copy).
    __VOICE_AGENT_CALL_VERSION__: JSON.stringify(PACKAGE_VERSION),
  },
  build: {
    outDir: fileURLToPath(new URL('./dist/cdn', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    sourcemap: true,
    reportCompressedSize: false,
    // The media chunk is livekit-client (about 540 KiB minified), loaded only for a call, and its
    // size is measured and budgeted by build-sizes.ts: Vite's 500 kB warning would only be noise.
    chunkSizeWarningLimit: 1024,
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
        // Six characters of content hash (36 bits) keep a new build's chunks apart from the last
        // one's in a cache; the eight Vite's default gives are bytes the entry and the call chunk
        // carry in every chunk name they import, and that gzip cannot shrink.
        chunkFileNames: 'chunks/[name]-[hash:6].js',
        // V8's explicit compile hint (Chrome 136+; other engines read a comment): the call chunk
        // runs from the click on, and a function V8 compiles only when first called is compiled
        // then, on the main thread, holding up the click's `POST /dials` and the room's join. With
        // the hint the whole chunk is compiled as it loads, off the main thread. Not the media chunk:
        // compiling all of livekit-client took a trace's background threads about 0.9 s of CPU
        // (0.1 s without the hint), on 2 cores beside the main thread, and its evaluation waited for
        // it; without the hint the first call and hover, then click, both reached the agent sooner
        // (docs/embedding.md).
        postBanner: (chunk) => (COMPILED_ON_LOAD.has(chunk.name) ? '//# allFunctionsCalledOnLoad' : ''),
      },
    },
  },
});
