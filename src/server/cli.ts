// `voice-agent-companion`: the companion endpoint as a process. Config from the environment
// (CONTRACT.md §2); one JSON line `{"url":…}` on stdout once listening; logs on stderr.
import { ConfigError, companionConfigFromEnv, configWarnings, listenOptionsFromEnv } from './env.js';
import { createCompanionHandler } from './handler.js';
import { consoleLogger } from './log.js';
import { listen } from './node.js';

async function main(): Promise<void> {
  let config;
  let listenOptions;
  try {
    config = companionConfigFromEnv(process.env);
    listenOptions = listenOptionsFromEnv(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`voice-agent-companion: ${error.message}\n`);
    process.exit(1);
  }
  let handler;
  try {
    handler = createCompanionHandler(config);
  } catch (error) {
    process.stderr.write(`voice-agent-companion: ${error instanceof Error ? error.message : 'invalid configuration'}\n`);
    process.exit(1);
  }
  for (const message of configWarnings(config, listenOptions)) consoleLogger({ time: new Date().toISOString(), level: 'warn', message });
  const server = await listen(handler, listenOptions);
  process.stdout.write(JSON.stringify({ url: server.url }) + '\n');
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`voice-agent-companion: failed to start (${error instanceof Error ? error.message : 'unknown error'})\n`);
  process.exit(1);
});
