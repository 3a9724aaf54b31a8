// `/agents/{agentId}/versioned_prompts`: an agent's prompts, `STANDARD` (a prompt text) or
// `CUSTOM_FLOW` (a graph of nodes). Fields the seed shows only in responses are optional in the
// request types and present in the response types.
import type { ModelOptionValue } from './models.js';

export type ConditionType = 'always' | 'equal' | 'in' | 'greater' | 'less' | 'language';

/** A transition rule as sent: `conditionType` and `arrayConditionType` may be left out. */
export interface FlowTransitionRuleInput {
  conditionType?: ConditionType;
  transitionNodeId: string;
  arrayConditionType?: 'any' | 'all' | null;
  field?: string;
  value?: unknown;
  values?: unknown[];
  [field: string]: unknown;
}

/** A transition rule as answered: `conditionType` and `arrayConditionType` are always there. */
export interface FlowTransitionRule extends FlowTransitionRuleInput {
  conditionType: ConditionType;
  arrayConditionType: 'any' | 'all' | null;
}

export interface FlowNodeInput {
  id: string;
  name: string;
  type: string;
  transitionRules: FlowTransitionRuleInput[];
  nodeData?: Record<string, unknown>;
  outputSchema?: unknown;
  [field: string]: unknown;
}

export interface FlowNode extends FlowNodeInput {
  transitionRules: FlowTransitionRule[];
  /** Present in every answer (null when none). */
  outputSchema: unknown;
}

export type OpeningLineType = 'INBOUND_ONLY' | 'INBOUND_OUTBOUND' | 'NONE';

/** The graph of a `CUSTOM_FLOW` prompt, as sent. */
export interface FlowDefinitionInput {
  nodes: FlowNodeInput[];
  globalContext?: unknown;
  /** @deprecated */
  aiOpen?: boolean;
  openingLineType?: OpeningLineType;
  [field: string]: unknown;
}

/** The graph of a `CUSTOM_FLOW` prompt, as answered. */
export interface FlowDefinition extends FlowDefinitionInput {
  nodes: FlowNode[];
  openingLineType: OpeningLineType;
}

export type AgentType = 'STANDARD' | 'CUSTOM_FLOW';

export interface CreateVersionedPromptInput {
  aiModelId: string;
  agentType: AgentType;
  name: string;
  prompt?: string | null;
  /** Required for `CUSTOM_FLOW`. */
  flowDefinition?: FlowDefinitionInput | null;
  modelOptionValues?: ModelOptionValue[];
}

export type UpdateVersionedPromptInput = Partial<CreateVersionedPromptInput>;

export interface VersionedPrompt {
  id: string;
  name: string;
  agentType: AgentType;
  prompt: string | null;
  flowDefinition?: FlowDefinition | null;
  aiModelId?: string;
  modelOptionValues?: ModelOptionValue[];
  [field: string]: unknown;
}
