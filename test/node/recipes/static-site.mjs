// A plain static site and the companion on one origin, with Node alone: serves `root` and passes
// /api/voice-call/… to the companion process, run beside it with
//   HOST=127.0.0.1 COMPANION_TRUST_PROXY=1 … npx voice-agent-companion
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, request as forward } from 'node:http';
import { extname, join, normalize } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

export function createStaticSite({ root, companionUrl, prefix = '/api/voice-call' }) {
  const companion = new URL(companionUrl);
  return createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://site');
    if (url.pathname.startsWith(`${prefix}/`)) {
      // The companion matches routes by the end of the path; it trusts the last X-Forwarded-* value,
      // so set them here (the visitor's address is what its rate limits count).
      const upstream = forward(
        {
          host: companion.hostname,
          port: companion.port,
          method: request.method,
          path: url.pathname + url.search,
          headers: {
            ...request.headers,
            'x-forwarded-for': request.socket.remoteAddress,
            'x-forwarded-proto': 'http',
            'x-forwarded-host': request.headers.host,
          },
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on('error', () => (response.headersSent ? response.destroy() : response.writeHead(502).end()));
      request.pipe(upstream);
      return;
    }
    let path;
    try {
      path = join(root, normalize(`/${decodeURIComponent(url.pathname)}`)); // never above root
    } catch {
      return response.writeHead(400).end();
    }
    const info = await stat(path).catch(() => null);
    if (info?.isDirectory()) path = join(path, 'index.html');
    if (!info || !(await stat(path).catch(() => null))?.isFile()) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' });
    createReadStream(path).pipe(response);
  });
}

// node static-site.mjs public http://127.0.0.1:8787   (then open http://localhost:8080/)
if (import.meta.url === `file://${process.argv[1]}`) {
  createStaticSite({
    root: process.argv[2] ?? 'public',
    companionUrl: process.argv[3] ?? 'http://127.0.0.1:8787',
  }).listen(8080);
}
