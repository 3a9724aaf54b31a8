// A second companion for the fault matrix: the real handler, configured from the environment like
// `voice-agent-companion`, but with a short upstream timeout (FAULT_UPSTREAM_TIMEOUT_MS) so a
// hanging service becomes a 504 quickly. Its service is the fault upstream in fault-proxy.mjs.
import { companionConfigFromEnv } from '../../src/server/env.js';
import { createCompanionHandler } from '../../src/server/handler.js';
import { listen } from '../../src/server/node.js';

const config = companionConfigFromEnv(process.env);
config.upstreamTimeoutMs = Number(process.env.FAULT_UPSTREAM_TIMEOUT_MS ?? 1500);
config.logger = false;
const server = await listen(createCompanionHandler(config), { port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
const stop = () => void server.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
