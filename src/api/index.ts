// `voice-agent-call/api`: a typed client of the calling service's REST API, one group per
// resource (`api.dials.create()`, `api.agents.list()`, …), with `paginate` for cursor listings.
// Web APIs only. The companion (`voice-agent-call/server`) uses only the dial calls (dials.ts).
export { VoiceAgentApi } from './client.js';
export type { VoiceAgentApiOptions } from './client.js';
export { paginate } from './paginate.js';
export type { PaginateOptions } from './paginate.js';
export { ServiceError } from './service-error.js';
export type { ConflictingDial, ServiceErrorCode } from './service-error.js';
export type { CallOptions, ServiceClientOptions, TraceContext } from './transport.js';
export type { RequestOptions } from './resource.js';
export type { AgentsResource } from './resources/agents.js';
export type { BatchDialJobsResource } from './resources/batch-dial-jobs.js';
export type { DialTasksResource } from './resources/dial-tasks.js';
export type { DialsResource } from './resources/dials.js';
export type { EvalsResource } from './resources/evals.js';
export type { ExtractorsResource } from './resources/extractors.js';
export type { FunctionsResource } from './resources/functions.js';
export type { ModelsResource } from './resources/models.js';
export type { PhoneNumberPoolsResource } from './resources/phone-number-pools.js';
export type { PhoneNumbersResource } from './resources/phone-numbers.js';
export type { SpeechResource } from './resources/speech.js';
export type { VersionedPromptsResource } from './resources/versioned-prompts.js';
export type { VoicesResource } from './resources/voices.js';
export type * from './types/index.js';
