// A plain static server inside the test server, for pages that must work without a dev server's
// help: these paths answer files as they are, never through web-test-runner's plugins (which would
// resolve bare imports such as 'lit' and hide a page that fails in a browser on its own).
//   /node_modules/voice-agent-call/<file>  -> <repo>/<file> as it is, where npm installs the package
//                                             (the package is not in its own node_modules)
//   /__plain/readme-first-snippet.html      -> the README's first ```html block, verbatim
import { readFile } from 'node:fs/promises';
import { extname, normalize, resolve } from 'node:path';

const TYPES = { '.js': 'text/javascript', '.json': 'application/json', '.html': 'text/html', '.css': 'text/css' };

/** The README's first ```html block: what a reader copies first. */
export async function readmeFirstSnippet() {
  const readme = await readFile('README.md', 'utf8');
  const match = /```html\n([\s\S]*?)```/.exec(readme);
  if (!match) throw new Error('README.md has no ```html block');
  return match[1];
}

export async function plainStatic(ctx, next) {
  if (ctx.path === '/__plain/readme-first-snippet.html') {
    ctx.type = 'text/html';
    ctx.body = `<!doctype html><meta charset="utf-8"><title>README snippet</title><body>${await readmeFirstSnippet()}</body>`;
    return undefined;
  }
  const prefix = '/node_modules/voice-agent-call/';
  if (!ctx.path.startsWith(prefix)) return next();
  const root = resolve('.');
  const file = resolve(root, normalize(ctx.path.slice(prefix.length)));
  if (!file.startsWith(root + '/') || file.includes('/node_modules/')) {
    ctx.status = 404;
    return undefined;
  }
  try {
    ctx.body = await readFile(file);
    ctx.type = TYPES[extname(file)] ?? 'application/octet-stream';
  } catch {
    ctx.status = 404;
  }
  return undefined;
}
