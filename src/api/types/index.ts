// The shapes of the calling service's REST API, as its seed document shows them. Where the seed
// marks a shape "not shown" (phone number pools, dial tasks, evaluation results, the API-variant
// fields of a function), the type names the fields the emulator answers and stays an open record
// (`[field: string]: unknown`): the live service may send more. Fields the seed shows only in
// responses (a flow's `openingLineType`, a node's `outputSchema`, a rule's `conditionType` and
// `arrayConditionType`) are optional in the request types and present in the response types.
export type * from './pagination.js';
export type * from './models.js';
export type * from './versioned-prompts.js';
export type * from './extractors.js';
export type * from './agents.js';
export type * from './dials.js';
export type * from './voices.js';
export type * from './phone-numbers.js';
export type * from './dial-tasks.js';
export type * from './functions.js';
export type * from './batch-dial-jobs.js';
export type * from './evals.js';
export type * from './speech.js';
