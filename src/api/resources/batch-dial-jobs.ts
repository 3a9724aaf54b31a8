// `api.batchDialJobs`: /batch_dial_jobs, many phone dials from a list of rows.
import { Resource, segment, type RequestOptions } from '../resource.js';
import type {
  BatchDialJob,
  BatchDialSpec,
  CreateBatchDialJobInput,
  ListBatchDialJobsOptions,
  UpdateBatchDialJobInput,
} from '../types/batch-dial-jobs.js';
import type { Dial } from '../types/dials.js';
import type { ListOptions, Page } from '../types/pagination.js';

const job = (jobId: string) => `/batch_dial_jobs/${segment(jobId)}`;

export class BatchDialJobsResource extends Resource {
  /** `GET /batch_dial_jobs?status=&callAgentId=&userId=`. */
  list(list: ListBatchDialJobsOptions = {}, options?: RequestOptions): Promise<Page<BatchDialJob>> {
    return this.client.page('/batch_dial_jobs', list, options);
  }

  /** `POST /batch_dial_jobs`: created `INIT`; nothing is dialled until `resume`. */
  create(input: CreateBatchDialJobInput, options?: RequestOptions): Promise<BatchDialJob> {
    return this.client.call('POST', '/batch_dial_jobs', { body: input }, options);
  }

  /** `GET /batch_dial_jobs/{id}`. */
  get(jobId: string, options?: RequestOptions): Promise<BatchDialJob> {
    return this.client.call('GET', job(jobId), {}, options);
  }

  /** `PUT /batch_dial_jobs/{id}`. */
  update(jobId: string, input: UpdateBatchDialJobInput, options?: RequestOptions): Promise<BatchDialJob> {
    return this.client.call('PUT', job(jobId), { body: input }, options);
  }

  /** `POST /batch_dial_jobs/{id}/paused`: `true` pauses, `false` starts or resumes. */
  setPaused(jobId: string, paused: boolean, options?: RequestOptions): Promise<BatchDialJob> {
    return this.client.call('POST', `${job(jobId)}/paused`, { body: { paused } }, options);
  }

  /** Pauses the job (`setPaused(id, true)`). */
  pause(jobId: string, options?: RequestOptions): Promise<BatchDialJob> {
    return this.setPaused(jobId, true, options);
  }

  /** Starts or resumes the job (`setPaused(id, false)`). */
  resume(jobId: string, options?: RequestOptions): Promise<BatchDialJob> {
    return this.setPaused(jobId, false, options);
  }

  /** `GET /batch_dial_jobs/{id}/queue`: rows not dialled yet. */
  listQueue(jobId: string, list: ListOptions = {}, options?: RequestOptions): Promise<Page<BatchDialSpec>> {
    return this.client.page(`${job(jobId)}/queue`, list, options);
  }

  /** `GET /batch_dial_jobs/{id}/dials`: the job's completed dials. */
  listDials(jobId: string, list: ListOptions = {}, options?: RequestOptions): Promise<Page<Dial>> {
    return this.client.page(`${job(jobId)}/dials`, list, options);
  }
}
