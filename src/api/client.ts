// `VoiceAgentApi`: the calling service's whole REST API, one group per resource
// (`api.dials.create()`, `api.agents.list()`, …). Every call goes through the same
// `requestService` (request.ts): a timeout per call, the caller's AbortSignal, and a
// `ServiceError` for every failure. Outside the dial calls the service's error body is kept as the
// error's `cause` (`{ body }`) for the caller to inspect, never folded into the message.
// Web APIs only (fetch, FormData, AbortSignal): Node, Deno, Bun and Workers.
import { ResourceClient } from './resource.js';
import { AgentsResource } from './resources/agents.js';
import { BatchDialJobsResource } from './resources/batch-dial-jobs.js';
import { DialTasksResource } from './resources/dial-tasks.js';
import { DialsResource } from './resources/dials.js';
import { EvalsResource } from './resources/evals.js';
import { ExtractorsResource } from './resources/extractors.js';
import { FunctionsResource } from './resources/functions.js';
import { ModelsResource } from './resources/models.js';
import { PhoneNumberPoolsResource } from './resources/phone-number-pools.js';
import { PhoneNumbersResource } from './resources/phone-numbers.js';
import { SpeechResource } from './resources/speech.js';
import { VersionedPromptsResource } from './resources/versioned-prompts.js';
import { VoicesResource } from './resources/voices.js';
import { dialTransport, serviceTransport, type ServiceClientOptions } from './transport.js';

export type VoiceAgentApiOptions = ServiceClientOptions;

export class VoiceAgentApi {
  /** `/dials`: create, token, browserDialToken (GraphQL), get, hangup. */
  readonly dials: DialsResource;
  /** `/models`. */
  readonly models: ModelsResource;
  /** `/agents`. */
  readonly agents: AgentsResource;
  /** `/agents/{agentId}/versioned_prompts`. */
  readonly versionedPrompts: VersionedPromptsResource;
  /** `/agents/{agentId}/extractors`. */
  readonly extractors: ExtractorsResource;
  /** `/phone_numbers`. */
  readonly phoneNumbers: PhoneNumbersResource;
  /** `/phone_number_pools`. */
  readonly phoneNumberPools: PhoneNumberPoolsResource;
  /** `/tasks`. */
  readonly dialTasks: DialTasksResource;
  /** `/functions`. */
  readonly functions: FunctionsResource;
  /** `/batch_dial_jobs`. */
  readonly batchDialJobs: BatchDialJobsResource;
  /** `/eval_configs`, `/eval_runs`, `/eval_results`. */
  readonly evals: EvalsResource;
  /** `/voices`. */
  readonly voices: VoicesResource;
  /** `/tts`. */
  readonly speech: SpeechResource;

  constructor(options: VoiceAgentApiOptions) {
    // The dial calls read answers up to `maxResponseBytes` (2 MiB); the other resources up to 8 MiB (64 MiB of audio).
    this.dials = new DialsResource(dialTransport(options, 'VoiceAgentApi'));
    const client = new ResourceClient(serviceTransport(options, 'VoiceAgentApi'));
    this.models = new ModelsResource(client);
    this.agents = new AgentsResource(client);
    this.versionedPrompts = new VersionedPromptsResource(client);
    this.extractors = new ExtractorsResource(client);
    this.phoneNumbers = new PhoneNumbersResource(client);
    this.phoneNumberPools = new PhoneNumberPoolsResource(client);
    this.dialTasks = new DialTasksResource(client);
    this.functions = new FunctionsResource(client);
    this.batchDialJobs = new BatchDialJobsResource(client);
    this.evals = new EvalsResource(client);
    this.voices = new VoicesResource(client);
    this.speech = new SpeechResource(client);
  }
}
