// `/tasks`: dial tasks (the bodies follow the service's GraphQL twins) and their attempts.

export interface CreateDialTaskInput {
  callAgentId: string;
  inputData: Record<string, unknown>;
  /** Keys of `inputData` that identify the task. */
  keyInputs: string[];
}

export interface DialTask {
  id: string;
  createdAt: string;
  inputData: Record<string, unknown>;
  keyInputs: string[];
  results?: Record<string, unknown> | null;
  status: 'PENDING' | 'RUNNING' | 'COMPLETED';
  completedDialId?: string | null;
  [field: string]: unknown;
}

export interface CreateTaskAttemptInput {
  fromPhoneNumberId: string;
  toNumber: string;
  webhookUrl?: string;
}

export interface TaskAttemptOutput {
  dialId: string;
  dialToken: string;
  sessionId: string;
  telephonyProvider?: string;
  [field: string]: unknown;
}

export interface MarkTaskCompleteInput {
  dialId: string;
}
