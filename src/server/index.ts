// `voice-agent-call/server`: the companion endpoint. Everything except the Node adapter uses Web
// APIs only; node.ts is the one module here that imports `node:` builtins.
export { createCompanionHandler } from './handler.js';
export type { CompanionConfig, CompanionHandler, CompanionRequestContext } from './handler.js';
export { createNodeListener, listen } from './node.js';
export type { CompanionServer, NodeListenerOptions, NodeServerLimits } from './node.js';
export { createServiceClient, ServiceError } from './service-client.js';
export type {
  CallOptions,
  CreateDialInput,
  CreateDialOutput,
  DialTokenOutput,
  ServiceClient,
  ServiceClientOptions,
  ServiceDial,
  ServiceErrorCode,
  ServiceTranscriptLine,
} from './service-client.js';
export { createMemoryRateLimiter, createRedisRateLimiters } from './rate-limit.js';
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
export type { CompanionErrorCode } from './errors.js';
export { VoiceAgentApi } from './api/client.js';
export type { RequestOptions, VoiceAgentApiOptions } from './api/client.js';
export { paginate } from './api/paginate.js';
export type { PaginateOptions } from './api/paginate.js';
export type * from './api/types.js';
