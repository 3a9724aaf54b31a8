// `api.evals`: evaluation configs, their records and runs, and result reruns.
import { Resource, segment, type RequestOptions } from '../resource.js';
import type {
  CreateEvalConfigInput,
  CreateEvalRecordInput,
  EvalConfig,
  EvalRecord,
  EvalRun,
  ListEvalRecordsOptions,
  RerunEvalResultOutput,
  RunEvalInput,
} from '../types/evals.js';
import type { ListOptions, Page } from '../types/pagination.js';

const config = (configId: string) => `/eval_configs/${segment(configId)}`;

export class EvalsResource extends Resource {
  /** `POST /eval_configs`. */
  createConfig(input: CreateEvalConfigInput, options?: RequestOptions): Promise<EvalConfig> {
    return this.client.call('POST', '/eval_configs', { body: input }, options);
  }

  /** `POST /eval_configs/{id}/records`: a dial (`DIAL`, with `dialId`) or a prompt (`PROMPT`) to evaluate. */
  createRecord(configId: string, input: CreateEvalRecordInput, options?: RequestOptions): Promise<EvalRecord> {
    return this.client.call('POST', `${config(configId)}/records`, { body: input }, options);
  }

  /** `GET /eval_configs/{id}/records?search=`. */
  listRecords(
    configId: string,
    list: ListEvalRecordsOptions = {},
    options?: RequestOptions,
  ): Promise<Page<EvalRecord>> {
    return this.client.page(`${config(configId)}/records`, list, options);
  }

  /** `DELETE /eval_configs/{id}/records/{recordId}`: answers `{ id }` of the deleted record. */
  deleteRecord(configId: string, recordId: string, options?: RequestOptions): Promise<{ id: string }> {
    return this.client.call('DELETE', `${config(configId)}/records/${segment(recordId)}`, {}, options);
  }

  /** `POST /eval_configs/{id}/runs`: evaluates every record of the config. */
  run(configId: string, input: RunEvalInput, options?: RequestOptions): Promise<EvalRun> {
    return this.client.call('POST', `${config(configId)}/runs`, { body: input }, options);
  }

  /** `GET /eval_configs/{id}/runs`. */
  listRuns(configId: string, list: ListOptions = {}, options?: RequestOptions): Promise<Page<EvalRun>> {
    return this.client.page(`${config(configId)}/runs`, list, options);
  }

  /** `GET /eval_runs/{id}`: the emulator's own read; the seed lists no such operation. */
  getRun(runId: string, options?: RequestOptions): Promise<EvalRun> {
    return this.client.call('GET', `/eval_runs/${segment(runId)}`, {}, options);
  }

  /** `POST /eval_runs/{id}/cancel`: a pending run becomes `CANCELLED`. */
  cancelRun(runId: string, options?: RequestOptions): Promise<EvalRun> {
    return this.client.call('POST', `/eval_runs/${segment(runId)}/cancel`, {}, options);
  }

  /** `POST /eval_results/{id}/rerun`: re-judges the result (same id) and answers `{ numAlerts, results: [{ index, accurate, modelOutput, reason }] }`. */
  rerunResult(resultId: string, options?: RequestOptions): Promise<RerunEvalResultOutput> {
    return this.client.call('POST', `/eval_results/${segment(resultId)}/rerun`, {}, options);
  }
}
