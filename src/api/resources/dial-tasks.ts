// `api.dialTasks`: /tasks and a task's attempts.
import { Resource, segment, type RequestOptions } from '../resource.js';
import type {
  CreateDialTaskInput,
  CreateTaskAttemptInput,
  DialTask,
  MarkTaskCompleteInput,
  TaskAttemptOutput,
} from '../types/dial-tasks.js';

export class DialTasksResource extends Resource {
  /** `POST /tasks`. */
  create(input: CreateDialTaskInput, options?: RequestOptions): Promise<DialTask> {
    return this.client.call('POST', '/tasks', { body: input }, options);
  }

  /** `GET /tasks/{taskId}`: the emulator's own read; the seed lists no such operation. */
  get(taskId: string, options?: RequestOptions): Promise<DialTask> {
    return this.client.call('GET', `/tasks/${segment(taskId)}`, {}, options);
  }

  /** `POST /tasks/{taskId}/attempt`: places a phone dial for the task. */
  createAttempt(taskId: string, input: CreateTaskAttemptInput, options?: RequestOptions): Promise<TaskAttemptOutput> {
    return this.client.call('POST', `/tasks/${segment(taskId)}/attempt`, { body: input }, options);
  }

  /** `POST /tasks/{taskId}/complete`: marks the task done by one of its attempts. */
  complete(taskId: string, input: MarkTaskCompleteInput, options?: RequestOptions): Promise<DialTask> {
    return this.client.call('POST', `/tasks/${segment(taskId)}/complete`, { body: input }, options);
  }
}
