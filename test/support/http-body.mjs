// The whole body of an incoming request, for the test servers and proxies (wtr-services.mjs,
// fault-proxy.mjs, fault-graphql.mjs).

/** Reads `stream` (a Node request) to its end: its bytes, or undefined when it has none. */
export async function readBody(stream) {
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks.length ? Buffer.concat(chunks) : undefined;
}
