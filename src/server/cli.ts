// `voice-agent-companion`: the companion endpoint as a process. Config from the environment
// (README: "Run it as a process"); one JSON line `{"url":…}` on stdout once listening; logs on stderr.
import {
  ConfigError,
  ConfigProblems,
  companionConfigFromEnv,
  configWarnings,
  listenOptionsFromEnv,
  type Environment,
} from './env.js';
import type { CompanionConfig } from './handler.js';
import { createCompanionHandler } from './handler.js';
import { createBufferedLogger, type CompanionLogger } from './log.js';
import { listen, stopWhenAsked } from './node.js';
import { createRedisPendingEnds } from './pending-ends.js';
import { createRedisRateLimiters } from './rate-limit.js';

/** How long startup waits for Redis's first answer before it listens anyway. */
const REDIS_CONNECT_WAIT_MS = 5000;

/**
 * COMPANION_REDIS_URL: every instance counts the rate limits in one Redis (ioredis, an optional
 * peer). COMPANION_RATE_LIMIT_ON_STORE_ERROR=closed (default) | open says what happens while it is down.
 */
/** COMPANION_REDIS_URL and COMPANION_RATE_LIMIT_ON_STORE_ERROR, checked with the rest of the configuration. */
function redisSettings(env: Environment): { url: string; onStoreError: 'closed' | 'open' } | undefined {
  const problems = new ConfigProblems();
  const url = env.COMPANION_REDIS_URL;
  const onStoreError = env.COMPANION_RATE_LIMIT_ON_STORE_ERROR || 'closed';
  if (onStoreError !== 'closed' && onStoreError !== 'open')
    problems.add('COMPANION_RATE_LIMIT_ON_STORE_ERROR must be closed or open');
  if (url && (!URL.canParse(url) || !['redis:', 'rediss:'].includes(new URL(url).protocol)))
    problems.add('COMPANION_REDIS_URL must be a redis:// or rediss:// URL');
  problems.finish();
  return url ? { url, onStoreError: onStoreError as 'closed' | 'open' } : undefined;
}

/**
 * COMPANION_REDIS_URL: every instance counts the rate limits in one Redis (ioredis, an optional
 * peer), and keeps the pending ends of dials whose visitor left there (pending-ends.ts).
 * COMPANION_RATE_LIMIT_ON_STORE_ERROR=closed (default) | open says what the limits do while it is down.
 */
async function useRedisLimits(
  redis: { url: string; onStoreError: 'closed' | 'open' } | undefined,
  config: CompanionConfig,
  logger: CompanionLogger,
): Promise<(() => void) | undefined> {
  if (!redis) return undefined;
  const { url, onStoreError } = redis;
  let Redis: typeof import('ioredis').Redis;
  try {
    ({ Redis } = await import('ioredis'));
  } catch {
    throw new ConfigError('COMPANION_REDIS_URL needs the ioredis package: npm install ioredis');
  }
  // No offline queue: while the connection is down a take fails at once (and the limiters answer
  // as configured) instead of waiting for a reconnect; ioredis keeps reconnecting on its own.
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1000 });
  // The limiters log when the store stops and starts answering; the URL may hold a password, so it is never logged.
  client.on('error', () => {});
  config.rateLimiters = createRedisRateLimiters(client, { ...config.rateLimit, onStoreError, logger });
  // Dials whose visitor left wait in Redis too, so whichever instance is alive ends them, once.
  const pendingEnds = createRedisPendingEnds(client, { logger });
  config.pendingEnds = pendingEnds;
  // Listen only once the store answers (bounded): without the offline queue, requests that arrive
  // while the first connection is still being made would all be refused or let through as if
  // Redis were down. A store that is down at startup does not stop the companion.
  const connected = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), REDIS_CONNECT_WAIT_MS);
    client.once('ready', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  if (!connected) {
    logger({
      time: new Date().toISOString(),
      level: 'warn',
      code: 'rate_limit_store_unreachable',
      message: `the rate limit store (Redis) did not answer within ${REDIS_CONNECT_WAIT_MS} ms of startup: listening anyway, failing ${onStoreError} until it answers`,
    });
  }
  return () => {
    pendingEnds.close();
    client.disconnect();
  };
}

/** Every configuration problem of this run, each on its own line, then exit 1. */
function refuse(error: ConfigError): never {
  const lines = error.problems.map((problem) => `voice-agent-companion: ${problem}\n`).join('');
  process.stderr.write(lines);
  process.exit(1);
}

async function main(): Promise<void> {
  const problems = new ConfigProblems();
  const config = problems.check(() => companionConfigFromEnv(process.env));
  const listenOptions = problems.check(() => listenOptionsFromEnv(process.env));
  const redis = problems.check(() => redisSettings(process.env));
  try {
    problems.finish();
  } catch (error) {
    if (error instanceof ConfigError) refuse(error);
    throw error;
  }
  if (!config || !listenOptions) return;
  // One write per batch of log lines instead of a blocking write per request (see log.ts).
  const logger = createBufferedLogger((text) => process.stderr.write(text));
  process.on('exit', () => logger.flush());
  config.logger = logger;
  let closeRedis: (() => void) | undefined;
  try {
    closeRedis = await useRedisLimits(redis, config, logger);
  } catch (error) {
    if (error instanceof ConfigError) refuse(error);
    throw error;
  }
  let handler;
  try {
    handler = createCompanionHandler(config);
  } catch (error) {
    process.stderr.write(
      `voice-agent-companion: ${error instanceof Error ? error.message : 'invalid configuration'}\n`,
    );
    process.exit(1);
  }
  for (const message of configWarnings(config, listenOptions))
    logger({ time: new Date().toISOString(), level: 'warn', message });
  const server = await listen(handler, listenOptions);
  // Ready to be stopped before it says it is ready: a supervisor may stop it the moment it reads
  // the line, and under `npx` the parent this watches may be gone by the next statement.
  stopWhenAsked(() => {
    closeRedis?.();
    return server.close();
  });
  process.stdout.write(JSON.stringify({ url: server.url }) + '\n');
}

main().catch((error: unknown) => {
  process.stderr.write(
    `voice-agent-companion: failed to start (${error instanceof Error ? error.message : 'unknown error'})\n`,
  );
  process.exit(1);
});
