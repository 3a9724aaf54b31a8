// `voice-agent-call/server`: the companion endpoint. Everything except the Node adapter uses Web
// APIs only; node.ts is the one module here that imports `node:` builtins.
export { createCompanionHandler } from './handler.js';
export type {
  CompanionConfig,
  CompanionFeedback,
  CompanionHandler,
  CompanionMetrics,
  CompanionRequestContext,
} from './handler.js';
export { METRIC_PREFIX, REFUSAL_REASONS, SETUP_STAGES } from './metrics.js';
export type { RefusalReason, SetupStage } from './metrics.js';
export { createNodeListener, listen } from './node.js';
export type { CompanionListener, CompanionServer, NodeListenerOptions, NodeServerLimits } from './node.js';
export { createServiceClient } from './service-client.js';
export type { ServiceClient } from './service-client.js';
export { createMemoryRateLimiter, createRedisRateLimiters } from './rate-limit.js';
export { createMemoryPendingEnds, createRedisPendingEnds } from './pending-ends.js';
export type { PendingEnds, PendingEndsRedis, RedisPendingEndsOptions } from './pending-ends.js';
export type {
  CompanionRateLimiters,
  MemoryRateLimiterOptions,
  RateLimiter,
  RateLimitResult,
  RedisRateLimitOptions,
} from './rate-limit.js';
export { createHandleSigner } from './handles.js';
export type { HandleSigner } from './handles.js';
export { companionConfigFromEnv, configWarnings, ConfigError, listenOptionsFromEnv } from './env.js';
export type { Environment, ListenEnvironment } from './env.js';
export { consoleLogger, createBufferedLogger, silentLogger } from './log.js';
export type { BufferedLogger, CompanionLogEntry, CompanionLogger } from './log.js';
export type { CompanionErrorBody, CompanionErrorCode } from './errors.js';
// The service API client's home is `voice-agent-call/api`; its names stay importable from here.
export { ServiceError, VoiceAgentApi, paginate } from '../api/index.js';
export type * from '../api/index.js';
