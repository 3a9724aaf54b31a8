// `/functions`: the functions an agent can call during a dial (transfers, API calls).
import type { ListOptions } from './pagination.js';

export interface CreateFunctionInput {
  name: string;
  description: string;
  type: 'transfer' | 'api';
  displayName?: string;
  /** Required (non-empty) for `transfer`. */
  allowedNumbers?: { number: string }[];
  lifecycleMessages?: { started: string[] };
  /** The API variant's fields are not shown by the seed; they pass through. */
  [field: string]: unknown;
}

export type UpdateFunctionInput = Partial<CreateFunctionInput>;

export interface FunctionDefinition {
  id: string;
  name: string;
  displayName?: string;
  description: string;
  type: 'transfer' | 'api';
  allowedNumbers?: { number: string }[];
  lifecycleMessages?: { started: string[] };
  [field: string]: unknown;
}

export interface ListFunctionsOptions extends ListOptions {
  /** Only the functions whose display name is exactly this. */
  displayName?: string;
}
