import { Hono } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { createCompanionHandler, type CompanionConfig } from '../../../src/server/index.js';

export function createApp(config: CompanionConfig): Hono {
  const companion = createCompanionHandler(config);
  const app = new Hono();
  // The client address feeds the per-address rate limit; on other runtimes take it from the
  // platform (Workers: the cf-connecting-ip header, Deno: info.remoteAddr).
  app.all('/api/voice-call/*', (c) => companion(c.req.raw, { clientAddress: getConnInfo(c).remote.address }));
  return app;
}

// import { serve } from '@hono/node-server';
// serve({ fetch: createApp(companionConfigFromEnv(process.env)).fetch, port: 3000 });
