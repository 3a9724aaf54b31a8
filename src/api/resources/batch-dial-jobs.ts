// `api.batchDialJobs`: /batch_dial_jobs, many phone dials from a list of rows; `list` filters by
// `status`, `callAgentId` and `userId`.
import { ListedResource, segment, type RequestOptions } from '../resource.js';
import type {
  BatchDialJob,
  BatchDialSpec,
  CreateBatchDialJobInput,
  ListBatchDialJobsOptions,
  UpdateBatchDialJobInput,
} from '../types/batch-dial-jobs.js';
import type { Dial } from '../types/dials.js';
import type { ListOptions, Page } from '../types/pagination.js';

export class BatchDialJobsResource extends ListedResource<
  BatchDialJob,
  CreateBatchDialJobInput,
  UpdateBatchDialJobInput,
  ListBatchDialJobsOptions
> {
  // `create` makes the job `INIT`: nothing is dialled until `resume`.
  protected readonly path = '/batch_dial_jobs';

  /** `POST /batch_dial_jobs/{id}/paused`: `true` pauses, `false` starts or resumes. */
  setPaused(jobId: string, paused: boolean, options?: RequestOptions): Promise<BatchDialJob> {
    return this.client.call('POST', `${this.path}/${segment(jobId)}/paused`, { body: { paused } }, options);
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
    return this.client.page(`${this.path}/${segment(jobId)}/queue`, list, options);
  }

  /** `GET /batch_dial_jobs/{id}/dials`: the job's completed dials. */
  listDials(jobId: string, list: ListOptions = {}, options?: RequestOptions): Promise<Page<Dial>> {
    return this.client.page(`${this.path}/${segment(jobId)}/dials`, list, options);
  }
}
