// Agents, their versioned prompts and their extractors. An agent created here is dialable at
// once; `metadata.scenario` naming a scenario agent id picks its behaviour (default `emu-demo`).
// A dial's `agentOverrides` go through the same checks (`agentWithOverrides`).
import type { ExtractorList } from '../../../api/types/index.js';
import { newAgentRecord, SCENARIO_AGENT_IDS } from '../agents.js';
import { badRequest, unprocessable } from '../errors.js';
import { page } from '../pagination.js';
import type { AgentRecord, ExtractorRecord, FlowDefinition, VersionedPromptRecord } from '../records.js';
import type { Store } from '../store.js';
import {
  checkBody,
  checkPatch,
  isObject,
  requireNonEmpty,
  type Body,
  type CheckedPatch,
  type Schema,
} from '../validate.js';
import { Table } from '../table.js';
import { recordHandlers, type ResourceRequest, type ResourceRoute } from './route.js';

const promptSchema = {
  aiModelId: { type: 'string', required: true },
  agentType: { type: 'string', required: true, oneOf: ['STANDARD', 'CUSTOM_FLOW'] },
  name: { type: 'string', required: true },
  prompt: { type: 'string', nullable: true },
  flowDefinition: { type: 'object', nullable: true },
  modelOptionValues: { type: 'array', stringFields: ['optionId', 'value'] },
} as const satisfies Schema;

const extractorSchema = {
  name: { type: 'string', required: true },
  extractorFieldsJsonSchema: { type: 'string', required: true },
} as const satisfies Schema;

const agentSchema = {
  name: { type: 'string', required: true },
  defaultVoiceId: { type: 'string', required: true },
  defaultVersionedPrompt: { type: 'object', required: true },
  defaultExtractor: { type: 'object', nullable: true },
  inboundWebhookResponse: { type: 'boolean', nullable: true },
  inboundWebhookUrl: { type: 'string', nullable: true },
  maxDurationSeconds: { type: 'integer', nullable: true },
  openingLine: { type: 'object', nullable: true },
  voiceVolumeLevel: { type: 'integer', nullable: true },
  backgroundNoiseType: { type: 'string', nullable: true, oneOf: ['noise', 'office', 'silence'] },
  linkedFunctionDefinitionIds: { type: 'string[]', nullable: true },
  linkedFunctionDefinitionInputs: { type: 'array', nullable: true },
  metadata: { type: 'object', nullable: true },
  transcriberParams: { type: 'object', nullable: true },
  idleMessageConfig: { type: 'object', nullable: true },
  utteranceDetectorConfig: { type: 'object', nullable: true },
  endpointDetectorConfig: { type: 'object', nullable: true },
  ivrConfiguration: { type: 'object', nullable: true },
  language: { type: 'string', nullable: true },
  fillEmptyStringVariables: { type: 'boolean', nullable: true },
  silenceHangupConfiguration: { type: 'object', nullable: true },
  voicemailConfig: { type: 'object', nullable: true },
  ivrSilenceHangupConfiguration: { type: 'object', nullable: true },
  timeoutMessage: { type: 'string', nullable: true },
} as const satisfies Schema;

const updateSchema = {
  ...agentSchema,
  defaultVersionedPromptId: { type: 'string' },
  callAgentExtractorId: { type: 'string' },
} as const satisfies Schema;

/** Agent fields a dial's `agentOverrides` may carry (the seed's list); other keys are ignored. */
const { name: _name, defaultExtractor: _defaultExtractor, ...overridable } = agentSchema;
const overrideSchema = {
  ...overridable,
  defaultVoiceId: { type: 'string' },
  defaultVersionedPrompt: { type: 'object' },
} as const satisfies Schema;

/** Sub-objects of an agent: each checked for its own required fields and enums. */
const subSchemas: Record<string, Schema> = {
  transcriberParams: {
    type: { type: 'string', required: true, oneOf: ['deepgram', 'openai'] },
    keywords: { type: 'string[]' },
  },
  utteranceDetectorConfig: {
    sensitivity: { type: 'string', required: true, oneOf: ['ULTRA_FAST', 'FAST', 'MEDIUM', 'SLOW'] },
    interruptionPlayTimeMs: { type: 'integer' },
  },
  endpointDetectorConfig: {
    type: { type: 'string', required: true, oneOf: ['SIMPLE', 'SEMANTIC'] },
    mode: { type: 'string', nullable: true, oneOf: ['CONSERVATIVE', 'DEFAULT', 'AGGRESSIVE'] },
  },
  idleMessageConfig: {
    enabled: { type: 'boolean', required: true },
    messages: { type: 'string[]' },
    idleDurationMilliseconds: { type: 'integer' },
    maxIdleMessages: { type: 'integer' },
  },
  ivrConfiguration: {
    detectionType: { type: 'string', required: true, oneOf: ['NONE', 'STANDARD'] },
    versionedPromptId: { type: 'string', nullable: true },
    aiVoiceId: { type: 'string', nullable: true },
    taggingText: { type: 'string', nullable: true },
  },
  openingLine: {
    lineType: { type: 'string', required: true, oneOf: ['INBOUND_ONLY', 'INBOUND_OUTBOUND', 'NONE'] },
    content: { type: 'string', required: true },
  },
  silenceHangupConfiguration: {
    type: { type: 'string', required: true, oneOf: ['DISABLED', 'FIRST_MESSAGE_ONLY', 'WHOLE_CALL'] },
    silenceDurationSeconds: { type: 'integer' },
  },
};

const lifecycleOverrideSchema = {
  started: { type: 'string[]' },
  waiting: { type: 'string[]' },
  awaitSpeech: { type: 'string[]' },
} as const satisfies Schema;

/** `where` prefixes field names in messages (e.g. `agentOverrides.defaultVersionedPrompt.`). */
export function buildPrompt(
  store: Store,
  body: unknown,
  existing?: VersionedPromptRecord,
  where = '',
): VersionedPromptRecord {
  const options = where ? { where: where.replace(/\.$/, '') } : {};
  const input = existing ? checkPatch(body, promptSchema, options) : checkBody(body, promptSchema, options);
  const merged: Body = { ...existing, ...input };
  requireNonEmpty(merged.name, `${where}name`);
  const model = store.models.get(String(merged.aiModelId));
  if (!model)
    throw unprocessable(`${where}aiModelId names no model (${JSON.stringify(merged.aiModelId)})`, `${where}aiModelId`);
  const values = input.modelOptionValues ?? existing?.modelOptionValues ?? [];
  for (const option of values) {
    if (!model.modelOptions.some((known) => known.id === option.optionId)) {
      throw unprocessable(
        `model ${model.id} has no option ${JSON.stringify(option.optionId)}`,
        `${where}modelOptionValues`,
      );
    }
  }
  const flow = (merged.flowDefinition ?? null) as Body | null;
  if (flow !== null && !hasNodes(flow)) throw unprocessable(`${where}flowDefinition.nodes must be an array`);
  if (merged.agentType === 'CUSTOM_FLOW' && flow === null)
    throw unprocessable(`a CUSTOM_FLOW prompt needs a flowDefinition`, `${where}flowDefinition`);
  return {
    id: existing?.id ?? store.newId(),
    name: merged.name as string,
    agentType: merged.agentType as VersionedPromptRecord['agentType'],
    prompt: (merged.prompt as string | null | undefined) ?? null,
    flowDefinition: flow === null ? null : withResponseFields(flow),
    aiModelId: model.id,
    modelOptionValues: structuredClone(values),
  };
}

/**
 * The flow as the seed's responses show it: `openingLineType`, each node's `outputSchema`, each
 * transition rule's `conditionType` and `arrayConditionType` are always there, whether or not
 * the request had them. Where the request left one out, the emulator fills it in (its own
 * defaults): `openingLineType` INBOUND_OUTBOUND, `outputSchema` null, `conditionType` `in` when
 * the rule has `values`, `equal` when it has a `value`, else `always`; `arrayConditionType` null.
 */
function withResponseFields(flow: Body & { nodes: unknown[] }): FlowDefinition {
  const copy = structuredClone(flow);
  const nodes = copy.nodes.map((node) => {
    if (!isObject(node)) return node as Record<string, unknown>;
    const rules = Array.isArray(node.transitionRules) ? node.transitionRules : [];
    return {
      ...node,
      outputSchema: node.outputSchema ?? null,
      transitionRules: rules.map((rule: unknown) => {
        if (!isObject(rule)) return rule;
        const conditionType =
          rule.conditionType ?? (Array.isArray(rule.values) ? 'in' : rule.value !== undefined ? 'equal' : 'always');
        return { ...rule, conditionType, arrayConditionType: rule.arrayConditionType ?? null };
      }),
    };
  });
  const openingLineType = (copy.openingLineType ?? 'INBOUND_OUTBOUND') as FlowDefinition['openingLineType'];
  return { ...copy, nodes, openingLineType };
}

const hasNodes = (flow: Body): flow is Body & { nodes: unknown[] } => Array.isArray(flow.nodes);

function buildExtractor(store: Store, body: unknown, existing?: ExtractorRecord): ExtractorRecord {
  const input = existing ? checkPatch(body, extractorSchema) : checkBody(body, extractorSchema);
  const merged: Body = { ...existing, ...input };
  requireNonEmpty(merged.name, 'name');
  let schema: unknown;
  try {
    schema = JSON.parse(merged.extractorFieldsJsonSchema as string);
  } catch {
    throw unprocessable('extractorFieldsJsonSchema must be a JSON schema, as text');
  }
  if (!isObject(schema)) throw unprocessable('extractorFieldsJsonSchema must be a JSON object schema, as text');
  return {
    id: existing?.id ?? store.newId(),
    name: merged.name as string,
    extractorFieldsJsonSchema: merged.extractorFieldsJsonSchema as string,
  };
}

/** Applies the optional agent fields of a create or update body onto `agent`; `where` prefixes field names in messages. */
function applyAgentFields(store: Store, agent: AgentRecord, input: CheckedPatch<typeof agentSchema>, where = ''): void {
  for (const [name, schema] of Object.entries(subSchemas)) {
    if (input[name] !== undefined && input[name] !== null) checkBody(input[name], schema, { where: `${where}${name}` });
  }
  if (input.name !== undefined) {
    requireNonEmpty(input.name, `${where}name`);
    agent.name = input.name;
  }
  if (input.defaultVoiceId !== undefined) {
    if (!store.voices.has(input.defaultVoiceId)) {
      throw unprocessable(
        `${where}defaultVoiceId names no voice (${JSON.stringify(input.defaultVoiceId)})`,
        `${where}defaultVoiceId`,
      );
    }
    agent.defaultVoiceId = input.defaultVoiceId;
  }
  if (typeof input.maxDurationSeconds === 'number') {
    if (input.maxDurationSeconds < 1)
      throw unprocessable(`${where}maxDurationSeconds must be at least 1`, `${where}maxDurationSeconds`);
    agent.maxDurationSeconds = input.maxDurationSeconds;
  }
  if (typeof input.language === 'string') agent.language = input.language;
  if (input.metadata !== undefined) agent.metadata = structuredClone(input.metadata ?? {});
  if (typeof input.fillEmptyStringVariables === 'boolean')
    agent.fillEmptyStringVariables = input.fillEmptyStringVariables;
  const objects = [
    'transcriberParams',
    'utteranceDetectorConfig',
    'endpointDetectorConfig',
    'idleMessageConfig',
    'ivrConfiguration',
    'silenceHangupConfiguration',
  ] as const;
  for (const name of objects) {
    if (isObject(input[name])) Object.assign(agent[name], structuredClone(input[name]));
  }
  // Kept as sent: the emulator does not act on them.
  if (input.voicemailConfig !== undefined) agent.voicemailConfig = structuredClone(input.voicemailConfig);
  if (input.ivrSilenceHangupConfiguration !== undefined)
    agent.ivrSilenceHangupConfiguration = structuredClone(input.ivrSilenceHangupConfiguration);
  if (input.timeoutMessage !== undefined) agent.timeoutMessage = input.timeoutMessage;
  const links = input.linkedFunctionDefinitionInputs ?? input.linkedFunctionDefinitionIds;
  if (Array.isArray(links)) {
    agent.linkedFunctionDefinitions = links.map((link: unknown) => {
      const id = typeof link === 'string' ? link : isObject(link) ? link.functionDefinitionId : undefined;
      if (typeof id !== 'string')
        throw badRequest(`${where}linkedFunctionDefinitionInputs items need functionDefinitionId`);
      if (!store.functions.has(id))
        throw unprocessable(`no function with id ${JSON.stringify(id)}`, `${where}linkedFunctionDefinitionInputs`);
      const override = isObject(link) && isObject(link.lifecycleMessagesOverride) ? link.lifecycleMessagesOverride : {};
      const lists = checkBody(override, lifecycleOverrideSchema, {
        where: `${where}linkedFunctionDefinitionInputs[].lifecycleMessagesOverride`,
      });
      return {
        functionDefinitionId: id,
        lifecycleMessagesOverride: { ...structuredClone(lists), started: [...(lists.started ?? [])] },
      };
    });
  }
}

/**
 * A copy of `agent` with a dial's `agentOverrides` applied, checked like an agent update (400 for a
 * wrong type, 422 naming the field for an id that names nothing). An override prompt is checked
 * and gets its own id on the dial's agent; it is not added to the agent's prompts.
 */
export function agentWithOverrides(store: Store, agent: AgentRecord, overrides: Body): AgentRecord {
  const where = 'agentOverrides.';
  const input = checkPatch(overrides, overrideSchema, { where: 'agentOverrides' });
  const next = structuredClone(agent);
  applyAgentFields(store, next, input, where);
  if (input.defaultVersionedPrompt !== undefined) {
    next.defaultVersionedPromptId = buildPrompt(
      store,
      input.defaultVersionedPrompt,
      undefined,
      `${where}defaultVersionedPrompt.`,
    ).id;
  }
  checkScenario(next, where);
  return next;
}

function checkScenario(agent: AgentRecord, where = ''): void {
  const scenario = agent.metadata.scenario;
  if (scenario !== undefined && !(SCENARIO_AGENT_IDS as readonly unknown[]).includes(scenario)) {
    throw unprocessable(
      `${where}metadata.scenario must be one of ${SCENARIO_AGENT_IDS.join(', ')}`,
      `${where}metadata.scenario`,
    );
  }
}

export function agentRoutes(store: Store): ResourceRoute[] {
  function createAgent({ body }: ResourceRequest): AgentRecord {
    const input = checkBody(body, agentSchema);
    const id = store.newId();
    const prompt = buildPrompt(store, input.defaultVersionedPrompt, undefined, 'defaultVersionedPrompt.');
    const extractor = input.defaultExtractor ? buildExtractor(store, input.defaultExtractor) : null;
    const agent = newAgentRecord({
      id,
      name: '',
      defaultVoiceId: '',
      defaultVersionedPromptId: prompt.id,
      defaultExtractorId: extractor?.id ?? null,
    });
    applyAgentFields(store, agent, input);
    checkScenario(agent);
    store.agents.set(id, agent);
    store.prompts.set(id, new Table('versioned prompt', [[prompt.id, prompt]]));
    store.extractors.set(id, new Table('extractor', extractor ? [[extractor.id, extractor]] : []));
    return structuredClone(agent);
  }

  function updateAgent({ param, body }: ResourceRequest): AgentRecord {
    const agentId = param(0);
    const current = store.agents.require(agentId);
    const input = checkPatch(body, updateSchema);
    const next = structuredClone(current);
    applyAgentFields(store, next, input);
    if (input.defaultVersionedPromptId !== undefined) {
      if (!store.prompts.require(agentId).has(input.defaultVersionedPromptId)) {
        throw unprocessable(
          `agent ${agentId} has no versioned prompt ${JSON.stringify(input.defaultVersionedPromptId)}`,
        );
      }
      next.defaultVersionedPromptId = input.defaultVersionedPromptId;
    }
    const extractorId = input.callAgentExtractorId;
    if (extractorId !== undefined) {
      if (extractorId !== '' && !store.extractors.require(agentId).has(extractorId)) {
        throw unprocessable(`agent ${agentId} has no extractor ${JSON.stringify(extractorId)}`);
      }
      next.defaultExtractorId = extractorId === '' ? null : extractorId;
    }
    checkScenario(next);
    store.agents.set(agentId, next);
    return structuredClone(next);
  }

  function deleteAgent({ param }: ResourceRequest): AgentRecord {
    const agentId = param(0);
    const agent = store.agents.require(agentId);
    if ((SCENARIO_AGENT_IDS as readonly string[]).includes(agentId)) {
      throw unprocessable('the emulator keeps its scenario agents; delete an agent you created');
    }
    store.agents.delete(agentId);
    store.prompts.delete(agentId);
    store.extractors.delete(agentId);
    for (const number of store.phoneNumbers.values()) if (number.agentId === agentId) number.agentId = null;
    return agent;
  }

  // An agent's prompts and extractors: a 404 `no such agent` for an unknown agent (the path's first group).
  const prompts = recordHandlers(
    (request) => store.prompts.require(request.param(0)),
    (body, existing) => buildPrompt(store, body, existing),
  );
  const extractors = recordHandlers(
    (request) => store.extractors.require(request.param(0)),
    (body, existing) => buildExtractor(store, body, existing),
  );

  return [
    {
      pattern: /^\/agents$/,
      methods: { GET: (request) => page(store.agents.values(), request), POST: createAgent },
    },
    {
      pattern: /^\/agents\/([^/]+)$/,
      methods: { GET: ({ param }) => store.agents.copy(param(0)), PUT: updateAgent, DELETE: deleteAgent },
    },
    {
      pattern: /^\/agents\/([^/]+)\/versioned_prompts$/,
      methods: {
        GET: (request) => page(store.prompts.require(request.param(0)).values(), request),
        POST: prompts.create,
      },
    },
    {
      pattern: /^\/agents\/([^/]+)\/versioned_prompts\/([^/]+)$/,
      methods: { GET: prompts.read, PUT: prompts.update },
    },
    {
      pattern: /^\/agents\/([^/]+)\/extractors$/,
      methods: {
        // The seed's one listing without pagination.
        GET: ({ param }) =>
          ({ extractors: structuredClone(store.extractors.require(param(0)).values()) }) satisfies ExtractorList,
        POST: extractors.create,
      },
    },
    {
      pattern: /^\/agents\/([^/]+)\/extractors\/([^/]+)$/,
      methods: { GET: extractors.read, PUT: extractors.update },
    },
  ];
}
