// `/batch_dial_jobs`: many phone dials from a list of rows, on a schedule.
import type { ListOptions } from './pagination.js';

export type BatchDialJobStatus = 'INIT' | 'ACTIVE' | 'PAUSED' | 'COMPLETE' | 'CANCELLED';

export interface BatchSchedule {
  days: { dayOfWeek: number; timeSlots: { startTime: string; endTime: string }[] }[];
  timezone: string;
  disableSchedule?: boolean;
}

export interface CreateBatchDialJobInput {
  callAgentId: string;
  maxConcurrentDials: number;
  name: string;
  rows: { toNumber: string; inputs?: Record<string, string> }[];
  fromPhoneNumberIds?: string[];
  schedule?: BatchSchedule;
}

export interface UpdateBatchDialJobInput {
  maxConcurrentDials?: number;
  fromPhoneNumberIds?: string[];
  schedule?: BatchSchedule | null;
}

export interface BatchDialJob {
  id: string;
  name: string;
  maxConcurrentDials: number;
  status: BatchDialJobStatus;
  callAgentId: string;
  createdAt: string;
  fromPhoneNumberIds?: string[];
  schedule?: BatchSchedule | null;
  [field: string]: unknown;
}

export interface ListBatchDialJobsOptions extends ListOptions {
  status?: BatchDialJobStatus;
  callAgentId?: string;
  userId?: string;
}

/** A row still waiting in a job's queue. */
export interface BatchDialSpec {
  id: string;
  toNumber: string;
  batchDialJobId: string;
  createdAt: string;
  inputs: Record<string, string>;
}
