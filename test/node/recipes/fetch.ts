import { createCompanionHandler, type CompanionConfig } from '../../../src/server/index.js';

/** `(Request) => Promise<Response>`, as Cloudflare Workers, Deno, Bun and Next.js route handlers call it. */
export function createFetchHandler(config: CompanionConfig): (request: Request) => Promise<Response> {
  const companion = createCompanionHandler(config);
  // Pass the client address, or every visitor shares one per-address limit.
  return (request) => companion(request, { clientAddress: request.headers.get('cf-connecting-ip') ?? undefined });
}

// Cloudflare Workers (one handler per isolate, so its limits and caches live across requests):
//   let handler: ((request: Request) => Promise<Response>) | undefined;
//   export default { fetch: (request: Request, env: Record<string, string>) => (handler ??= createFetchHandler(companionConfigFromEnv(env)))(request) };
// Deno: Deno.serve(createFetchHandler(companionConfigFromEnv(Deno.env.toObject())));
// Bun: Bun.serve({ fetch: createFetchHandler(companionConfigFromEnv(process.env)) });
// Next.js, app/api/voice-call/[...path]/route.ts:
//   const handler = createFetchHandler(companionConfigFromEnv(process.env));
//   export { handler as GET, handler as POST, handler as OPTIONS };
