// `VoiceAgentApi`: one typed method per operation of the calling service's REST API. The four
// dial methods delegate to the companion's dial client; every method goes through the same
// `requestService` (service-request.ts): a timeout per call, the caller's AbortSignal, and a
// `ServiceError` (same codes) for every failure. Outside the four dial methods the service's
// error body is kept as the error's `cause` (`{ body }`) for the caller to inspect, never folded
// into the message (the dial client keeps no body at all).
// Web APIs only, like the rest of `voice-agent-call/server`.
import {
  createServiceClient,
  ServiceError,
  type CallOptions,
  type CreateDialOutput,
  type DialTokenOutput,
  type ServiceClient,
  type ServiceClientOptions,
} from '../service-client.js';
import { requestService, type ServiceTransport } from '../service-request.js';
import type {
  Agent,
  AIModel,
  BatchDialJob,
  BatchDialSpec,
  CloneVoiceInput,
  CreateAgentInput,
  CreateBatchDialJobInput,
  CreateDialRequest,
  CreateDialTaskInput,
  CreateEvalConfigInput,
  CreateEvalRecordInput,
  CreateExtractorInput,
  CreateFunctionInput,
  CreatePhoneNumberInput,
  CreatePhoneNumberPoolInput,
  CreateTaskAttemptInput,
  CreateVersionedPromptInput,
  Dial,
  DialTask,
  EvalConfig,
  EvalRecord,
  EvalRun,
  Extractor,
  ExtractorList,
  FunctionDefinition,
  ListBatchDialJobsOptions,
  ListEvalRecordsOptions,
  ListFunctionsOptions,
  ListOptions,
  ListVoicesOptions,
  MarkTaskCompleteInput,
  MultispeakerTtsInput,
  Page,
  PhoneNumber,
  PhoneNumberCandidate,
  PhoneNumberPool,
  PhoneNumberSearchInput,
  RerunEvalResultOutput,
  RunEvalInput,
  TaskAttemptOutput,
  TtsInput,
  UpdateAgentInput,
  UpdateBatchDialJobInput,
  UpdateExtractorInput,
  UpdateFunctionInput,
  UpdatePhoneNumberInput,
  UpdatePhoneNumberPoolInput,
  UpdateVersionedPromptInput,
  AIVoice,
  VersionedPrompt,
  VoicePage,
} from './types.js';

export type VoiceAgentApiOptions = ServiceClientOptions;

/** Per call: an AbortSignal (and, for `createDial`, an idempotency key). */
export type RequestOptions = CallOptions;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Query = Record<string, string | number | boolean | null | undefined>;
type Shape = 'object' | 'array' | 'binary';

const segment = (value: string): string => {
  if (typeof value !== 'string' || value === '') throw new TypeError('an id must be a non-empty string');
  return encodeURIComponent(value);
};

export class VoiceAgentApi {
  readonly #transport: ServiceTransport;
  readonly #dials: ServiceClient;

  constructor(options: VoiceAgentApiOptions) {
    this.#dials = createServiceClient(options);
    this.#transport = {
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs ?? 10_000,
      fetch: options.fetch ?? globalThis.fetch,
    };
  }

  // ── dials ──

  /** `POST /dials`: a browser dial (`browserCall: true`) or a phone dial (`toNumber`, `fromNumberId`). */
  createDial(input: CreateDialRequest, options?: RequestOptions): Promise<CreateDialOutput> {
    // The dial client sends the body as given; its narrower input type covers the companion's use.
    return this.#dials.createDial(input as Parameters<ServiceClient['createDial']>[0], options);
  }

  /** `POST /dials/{id}/token`. */
  getDialToken(dialId: string, options?: RequestOptions): Promise<DialTokenOutput> {
    return this.#dials.getDialToken(segmentCheck(dialId), options);
  }

  /** `GET /dials/{id}`. */
  async getDial(dialId: string, options?: RequestOptions): Promise<Dial> {
    return (await this.#dials.getDial(segmentCheck(dialId), options)) as Dial;
  }

  /** `POST /dials/{id}/hangup`. */
  hangupDial(dialId: string, options?: RequestOptions): Promise<{ success: boolean }> {
    return this.#dials.hangupDial(segmentCheck(dialId), options);
  }

  // ── models ──

  /** `GET /models`. */
  listModels(list: ListOptions = {}, options?: RequestOptions): Promise<Page<AIModel>> {
    return this.#page('/models', list, options);
  }

  // ── agents ──

  /** `GET /agents`. */
  listAgents(list: ListOptions = {}, options?: RequestOptions): Promise<Page<Agent>> {
    return this.#page('/agents', list, options);
  }

  /** `POST /agents`. */
  createAgent(input: CreateAgentInput, options?: RequestOptions): Promise<Agent> {
    return this.#call('POST', '/agents', { body: input }, options);
  }

  /** `GET /agents/{id}`. */
  getAgent(agentId: string, options?: RequestOptions): Promise<Agent> {
    return this.#call('GET', `/agents/${segment(agentId)}`, {}, options);
  }

  /** `PUT /agents/{id}`. */
  updateAgent(agentId: string, input: UpdateAgentInput, options?: RequestOptions): Promise<Agent> {
    return this.#call('PUT', `/agents/${segment(agentId)}`, { body: input }, options);
  }

  /** `DELETE /agents/{id}`: irreversible; answers the deleted agent. */
  deleteAgent(agentId: string, options?: RequestOptions): Promise<Agent> {
    return this.#call('DELETE', `/agents/${segment(agentId)}`, {}, options);
  }

  // ── versioned prompts ──

  /** `GET /agents/{agentId}/versioned_prompts`. */
  listVersionedPrompts(
    agentId: string,
    list: ListOptions = {},
    options?: RequestOptions,
  ): Promise<Page<VersionedPrompt>> {
    return this.#page(`/agents/${segment(agentId)}/versioned_prompts`, list, options);
  }

  /** `POST /agents/{agentId}/versioned_prompts`: `STANDARD` with a `prompt`, or `CUSTOM_FLOW` with a `flowDefinition`. */
  createVersionedPrompt(
    agentId: string,
    input: CreateVersionedPromptInput,
    options?: RequestOptions,
  ): Promise<VersionedPrompt> {
    return this.#call('POST', `/agents/${segment(agentId)}/versioned_prompts`, { body: input }, options);
  }

  /** `GET /agents/{agentId}/versioned_prompts/{id}`. */
  getVersionedPrompt(agentId: string, promptId: string, options?: RequestOptions): Promise<VersionedPrompt> {
    return this.#call('GET', `/agents/${segment(agentId)}/versioned_prompts/${segment(promptId)}`, {}, options);
  }

  /** `PUT /agents/{agentId}/versioned_prompts/{id}`. */
  updateVersionedPrompt(
    agentId: string,
    promptId: string,
    input: UpdateVersionedPromptInput,
    options?: RequestOptions,
  ): Promise<VersionedPrompt> {
    return this.#call(
      'PUT',
      `/agents/${segment(agentId)}/versioned_prompts/${segment(promptId)}`,
      { body: input },
      options,
    );
  }

  // ── extractors ──

  /** `GET /agents/{agentId}/extractors`: `{ extractors }`, not paginated. */
  listExtractors(agentId: string, options?: RequestOptions): Promise<ExtractorList> {
    return this.#call('GET', `/agents/${segment(agentId)}/extractors`, {}, options);
  }

  /** `POST /agents/{agentId}/extractors`; the JSON schema travels as text. */
  createExtractor(agentId: string, input: CreateExtractorInput, options?: RequestOptions): Promise<Extractor> {
    return this.#call('POST', `/agents/${segment(agentId)}/extractors`, { body: input }, options);
  }

  /** `GET /agents/{agentId}/extractors/{id}`. */
  getExtractor(agentId: string, extractorId: string, options?: RequestOptions): Promise<Extractor> {
    return this.#call('GET', `/agents/${segment(agentId)}/extractors/${segment(extractorId)}`, {}, options);
  }

  /** `PUT /agents/{agentId}/extractors/{id}`. */
  updateExtractor(
    agentId: string,
    extractorId: string,
    input: UpdateExtractorInput,
    options?: RequestOptions,
  ): Promise<Extractor> {
    return this.#call(
      'PUT',
      `/agents/${segment(agentId)}/extractors/${segment(extractorId)}`,
      { body: input },
      options,
    );
  }

  // ── phone numbers ──

  /** `GET /phone_numbers`. */
  listPhoneNumbers(list: ListOptions = {}, options?: RequestOptions): Promise<Page<PhoneNumber>> {
    return this.#page('/phone_numbers', list, options);
  }

  /** `POST /phone_numbers`: purchase a searched number, import a SIP number, or create a SIP username. */
  createPhoneNumber(input: CreatePhoneNumberInput, options?: RequestOptions): Promise<PhoneNumber> {
    return this.#call('POST', '/phone_numbers', { body: input }, options);
  }

  /** `GET /phone_numbers/{id}`. */
  getPhoneNumber(numberId: string, options?: RequestOptions): Promise<PhoneNumber> {
    return this.#call('GET', `/phone_numbers/${segment(numberId)}`, {}, options);
  }

  /** `PUT /phone_numbers/{id}`: link an agent (`agentId: ''` unlinks). */
  updatePhoneNumber(numberId: string, input: UpdatePhoneNumberInput, options?: RequestOptions): Promise<PhoneNumber> {
    return this.#call('PUT', `/phone_numbers/${segment(numberId)}`, { body: input }, options);
  }

  /** `DELETE /phone_numbers/{id}`: answers the released number. */
  deletePhoneNumber(numberId: string, options?: RequestOptions): Promise<PhoneNumber> {
    return this.#call('DELETE', `/phone_numbers/${segment(numberId)}`, {}, options);
  }

  /** `POST /phone_numbers/search`: numbers available to purchase. */
  searchPhoneNumbers(input: PhoneNumberSearchInput, options?: RequestOptions): Promise<PhoneNumberCandidate[]> {
    return this.#call('POST', '/phone_numbers/search', { body: input, shape: 'array' }, options);
  }

  /** `POST /phone_numbers/purchase`. @deprecated use `createPhoneNumber({ type: 'purchase', purchase: { number } })`. */
  purchasePhoneNumber(input: { number: string }, options?: RequestOptions): Promise<PhoneNumber> {
    return this.#call('POST', '/phone_numbers/purchase', { body: input }, options);
  }

  // ── phone number pools (the path /phone_number_pools is this client's and the emulator's convention) ──

  /** `GET /phone_number_pools`: a bare array, not paginated. */
  listPhoneNumberPools(options?: RequestOptions): Promise<PhoneNumberPool[]> {
    return this.#call('GET', '/phone_number_pools', { shape: 'array' }, options);
  }

  /** `POST /phone_number_pools`. */
  createPhoneNumberPool(input: CreatePhoneNumberPoolInput, options?: RequestOptions): Promise<PhoneNumberPool> {
    return this.#call('POST', '/phone_number_pools', { body: input }, options);
  }

  /** `GET /phone_number_pools/{id}`. */
  getPhoneNumberPool(poolId: string, options?: RequestOptions): Promise<PhoneNumberPool> {
    return this.#call('GET', `/phone_number_pools/${segment(poolId)}`, {}, options);
  }

  /** `PUT /phone_number_pools/{id}`. */
  updatePhoneNumberPool(
    poolId: string,
    input: UpdatePhoneNumberPoolInput,
    options?: RequestOptions,
  ): Promise<PhoneNumberPool> {
    return this.#call('PUT', `/phone_number_pools/${segment(poolId)}`, { body: input }, options);
  }

  // ── dial tasks ──

  /** `POST /tasks`. */
  createDialTask(input: CreateDialTaskInput, options?: RequestOptions): Promise<DialTask> {
    return this.#call('POST', '/tasks', { body: input }, options);
  }

  /** `GET /tasks/{taskId}`: the emulator's own read; the seed lists no such operation. */
  getDialTask(taskId: string, options?: RequestOptions): Promise<DialTask> {
    return this.#call('GET', `/tasks/${segment(taskId)}`, {}, options);
  }

  /** `POST /tasks/{taskId}/attempt`: places a phone dial for the task. */
  createTaskAttempt(
    taskId: string,
    input: CreateTaskAttemptInput,
    options?: RequestOptions,
  ): Promise<TaskAttemptOutput> {
    return this.#call('POST', `/tasks/${segment(taskId)}/attempt`, { body: input }, options);
  }

  /** `POST /tasks/{taskId}/complete`: marks the task done by one of its attempts. */
  markTaskComplete(taskId: string, input: MarkTaskCompleteInput, options?: RequestOptions): Promise<DialTask> {
    return this.#call('POST', `/tasks/${segment(taskId)}/complete`, { body: input }, options);
  }

  // ── functions ──

  /** `GET /functions?displayName=&limit=&cursor=`: `displayName` is an exact match. */
  listFunctions(list: ListFunctionsOptions = {}, options?: RequestOptions): Promise<Page<FunctionDefinition>> {
    return this.#page('/functions', list, options);
  }

  /** `POST /functions`. */
  createFunction(input: CreateFunctionInput, options?: RequestOptions): Promise<FunctionDefinition> {
    return this.#call('POST', '/functions', { body: input }, options);
  }

  /** `GET /functions/{id}`. */
  getFunction(functionId: string, options?: RequestOptions): Promise<FunctionDefinition> {
    return this.#call('GET', `/functions/${segment(functionId)}`, {}, options);
  }

  /** `PUT /functions/{id}`. */
  updateFunction(
    functionId: string,
    input: UpdateFunctionInput,
    options?: RequestOptions,
  ): Promise<FunctionDefinition> {
    return this.#call('PUT', `/functions/${segment(functionId)}`, { body: input }, options);
  }

  /** `DELETE /functions/{id}`: also unlinks it from every agent; answers the deleted function. */
  deleteFunction(functionId: string, options?: RequestOptions): Promise<FunctionDefinition> {
    return this.#call('DELETE', `/functions/${segment(functionId)}`, {}, options);
  }

  // ── batch dial jobs ──

  /** `GET /batch_dial_jobs?status=&callAgentId=&userId=`. */
  listBatchDialJobs(list: ListBatchDialJobsOptions = {}, options?: RequestOptions): Promise<Page<BatchDialJob>> {
    return this.#page('/batch_dial_jobs', list, options);
  }

  /** `POST /batch_dial_jobs`: created `INIT`; nothing is dialled until `resumeBatchDialJob`. */
  createBatchDialJob(input: CreateBatchDialJobInput, options?: RequestOptions): Promise<BatchDialJob> {
    return this.#call('POST', '/batch_dial_jobs', { body: input }, options);
  }

  /** `GET /batch_dial_jobs/{id}`. */
  getBatchDialJob(jobId: string, options?: RequestOptions): Promise<BatchDialJob> {
    return this.#call('GET', `/batch_dial_jobs/${segment(jobId)}`, {}, options);
  }

  /** `PUT /batch_dial_jobs/{id}`. */
  updateBatchDialJob(jobId: string, input: UpdateBatchDialJobInput, options?: RequestOptions): Promise<BatchDialJob> {
    return this.#call('PUT', `/batch_dial_jobs/${segment(jobId)}`, { body: input }, options);
  }

  /** `POST /batch_dial_jobs/{id}/paused`: `true` pauses, `false` starts or resumes. */
  setBatchDialJobPaused(jobId: string, paused: boolean, options?: RequestOptions): Promise<BatchDialJob> {
    return this.#call('POST', `/batch_dial_jobs/${segment(jobId)}/paused`, { body: { paused } }, options);
  }

  /** Pauses the job (`setBatchDialJobPaused(id, true)`). */
  pauseBatchDialJob(jobId: string, options?: RequestOptions): Promise<BatchDialJob> {
    return this.setBatchDialJobPaused(jobId, true, options);
  }

  /** Starts or resumes the job (`setBatchDialJobPaused(id, false)`). */
  resumeBatchDialJob(jobId: string, options?: RequestOptions): Promise<BatchDialJob> {
    return this.setBatchDialJobPaused(jobId, false, options);
  }

  /** `GET /batch_dial_jobs/{id}/queue`: rows not dialled yet. */
  listBatchDialJobQueue(jobId: string, list: ListOptions = {}, options?: RequestOptions): Promise<Page<BatchDialSpec>> {
    return this.#page(`/batch_dial_jobs/${segment(jobId)}/queue`, list, options);
  }

  /** `GET /batch_dial_jobs/{id}/dials`: the job's completed dials. */
  listBatchDialJobDials(jobId: string, list: ListOptions = {}, options?: RequestOptions): Promise<Page<Dial>> {
    return this.#page(`/batch_dial_jobs/${segment(jobId)}/dials`, list, options);
  }

  // ── evaluations ──

  /** `POST /eval_configs`. */
  createEvalConfig(input: CreateEvalConfigInput, options?: RequestOptions): Promise<EvalConfig> {
    return this.#call('POST', '/eval_configs', { body: input }, options);
  }

  /** `POST /eval_configs/{id}/records`: a dial (`DIAL`, with `dialId`) or a prompt (`PROMPT`) to evaluate. */
  createEvalRecord(configId: string, input: CreateEvalRecordInput, options?: RequestOptions): Promise<EvalRecord> {
    return this.#call('POST', `/eval_configs/${segment(configId)}/records`, { body: input }, options);
  }

  /** `GET /eval_configs/{id}/records?search=`. */
  listEvalRecords(
    configId: string,
    list: ListEvalRecordsOptions = {},
    options?: RequestOptions,
  ): Promise<Page<EvalRecord>> {
    return this.#page(`/eval_configs/${segment(configId)}/records`, list, options);
  }

  /** `DELETE /eval_configs/{id}/records/{recordId}`: answers `{ id }` of the deleted record. */
  deleteEvalRecord(configId: string, recordId: string, options?: RequestOptions): Promise<{ id: string }> {
    return this.#call('DELETE', `/eval_configs/${segment(configId)}/records/${segment(recordId)}`, {}, options);
  }

  /** `POST /eval_configs/{id}/runs`: evaluates every record of the config. */
  runEval(configId: string, input: RunEvalInput, options?: RequestOptions): Promise<EvalRun> {
    return this.#call('POST', `/eval_configs/${segment(configId)}/runs`, { body: input }, options);
  }

  /** `GET /eval_configs/{id}/runs`. */
  listEvalRuns(configId: string, list: ListOptions = {}, options?: RequestOptions): Promise<Page<EvalRun>> {
    return this.#page(`/eval_configs/${segment(configId)}/runs`, list, options);
  }

  /** `GET /eval_runs/{id}`: the emulator's own read; the seed lists no such operation. */
  getEvalRun(runId: string, options?: RequestOptions): Promise<EvalRun> {
    return this.#call('GET', `/eval_runs/${segment(runId)}`, {}, options);
  }

  /** `POST /eval_runs/{id}/cancel`: a pending run becomes `CANCELLED`. */
  cancelEvalRun(runId: string, options?: RequestOptions): Promise<EvalRun> {
    return this.#call('POST', `/eval_runs/${segment(runId)}/cancel`, {}, options);
  }

  /** `POST /eval_results/{id}/rerun`: re-judges the result (same id) and answers `{ numAlerts, results: [{ index, accurate, modelOutput, reason }] }`. */
  rerunEvalResult(resultId: string, options?: RequestOptions): Promise<RerunEvalResultOutput> {
    return this.#call('POST', `/eval_results/${segment(resultId)}/rerun`, {}, options);
  }

  // ── voices ──

  /** `GET /voices?name=&voiceType=`: the envelope is `{ voices, cursor }`. */
  listVoices(list: ListVoicesOptions = {}, options?: RequestOptions): Promise<VoicePage> {
    return this.#call('GET', '/voices', { query: { ...list } as Query }, options).then((page) => {
      const voices = (page as { voices?: unknown }).voices;
      if (!Array.isArray(voices)) throw invalid('GET /voices');
      return page as VoicePage;
    });
  }

  /** `POST /voices/clone` (multipart): a new voice from a sample clip. */
  cloneVoice(input: CloneVoiceInput, options?: RequestOptions): Promise<AIVoice> {
    const form = new FormData();
    form.set('name', input.name);
    form.set('clip', input.clip, 'clip');
    form.set('model', input.model);
    if (input.transcription !== undefined) form.set('transcription', input.transcription);
    return this.#call('POST', '/voices/clone', { form }, options);
  }

  // ── voicelab ──

  /** `POST /tts`: the audio bytes (WAV, raw PCM16 or MP3 as `format` asks). */
  textToSpeech(input: TtsInput, options?: RequestOptions): Promise<ArrayBuffer> {
    return this.#call('POST', '/tts', { body: input, shape: 'binary' }, options);
  }

  /** `POST /tts/multispeaker`: several voices, one after another, in one audio file. */
  multispeakerTextToSpeech(input: MultispeakerTtsInput, options?: RequestOptions): Promise<ArrayBuffer> {
    return this.#call('POST', '/tts/multispeaker', { body: input, shape: 'binary' }, options);
  }

  // ── the request helper ──

  async #page<T>(path: string, list: ListOptions, options?: RequestOptions): Promise<Page<T>> {
    const page = await this.#call<Page<T>>('GET', path, { query: { ...list } as Query }, options);
    if (!Array.isArray(page.data)) throw invalid(`GET ${describe(path)}`);
    return { ...page, cursor: page.cursor ?? null };
  }

  async #call<T>(
    method: Method,
    path: string,
    request: { query?: Query; body?: unknown; form?: FormData; shape?: Shape },
    options: RequestOptions = {},
  ): Promise<T> {
    const what = `${method} ${describe(path)}`;
    const withBody =
      request.form === undefined && (request.body !== undefined || method === 'POST' || method === 'PUT');
    const value = await requestService(this.#transport, {
      method,
      path,
      what,
      query: request.query,
      body: withBody ? (request.body ?? {}) : undefined,
      form: request.form,
      binary: request.shape === 'binary',
      keepErrorBody: true,
      ...options,
    });
    if (request.shape === 'binary') return value as T;
    const fits =
      request.shape === 'array'
        ? Array.isArray(value)
        : typeof value === 'object' && value !== null && !Array.isArray(value);
    if (!fits) throw invalid(what);
    return value as T;
  }
}

function segmentCheck(value: string): string {
  segment(value);
  return value;
}

/** The path with ids replaced, so messages do not grow with (or leak) ids. */
function describe(path: string): string {
  return path.replace(
    /\/(agents|versioned_prompts|extractors|phone_numbers|phone_number_pools|tasks|functions|batch_dial_jobs|eval_configs|eval_runs|eval_results|records)\/(?!search$|purchase$)[^/]+/g,
    '/$1/:id',
  );
}

function invalid(what: string): ServiceError {
  return new ServiceError('invalid_response', `the service answered ${what} without the documented fields`, {
    status: 200,
  });
}
