// Agents, their versioned prompts and their extractors. An agent created here is dialable at
// once; `metadata.scenario` naming a scenario agent id picks its behaviour (default `emu-demo`).
// A dial's `agentOverrides` go through the same checks (`agentWithOverrides`).
import { SCENARIO_AGENT_IDS } from '../agents.js';
import { ApiError, unprocessable } from '../errors.js';
import { page } from '../pagination.js';
import type {
  AgentRecord,
  ExtractorRecord,
  FlowDefinition,
  ModelOptionValue,
  VersionedPromptRecord,
} from '../records.js';
import { checkBody, isObject, requireNonEmpty, type Body, type FieldSpec } from '../validate.js';
import type { ResourceRoute } from './route.js';
import { found, type Workspace } from './workspace.js';

const promptSpec: Record<string, FieldSpec> = {
  aiModelId: { type: 'string', required: true },
  agentType: { type: 'string', required: true, oneOf: ['STANDARD', 'CUSTOM_FLOW'] },
  name: { type: 'string', required: true },
  prompt: { type: 'string', nullable: true },
  flowDefinition: { type: 'object', nullable: true },
  modelOptionValues: { type: 'array' },
};

const extractorSpec: Record<string, FieldSpec> = {
  name: { type: 'string', required: true },
  extractorFieldsJsonSchema: { type: 'string', required: true },
};

const agentSpec: Record<string, FieldSpec> = {
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
};

const updateSpec: Record<string, FieldSpec> = {
  ...agentSpec,
  defaultVersionedPromptId: { type: 'string' },
  callAgentExtractorId: { type: 'string' },
};

/** Sub-objects of an agent: each checked for its own required fields and enums. */
const subSpecs: Record<string, Record<string, FieldSpec>> = {
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

/** `where` prefixes field names in messages (e.g. `agentOverrides.defaultVersionedPrompt.`). */
export function buildPrompt(
  ws: Workspace,
  body: unknown,
  existing?: VersionedPromptRecord,
  where = '',
): VersionedPromptRecord {
  const input = checkBody(body, promptSpec, {
    partial: existing !== undefined,
    ...(where ? { where: where.replace(/\.$/, '') } : {}),
  });
  const merged = { ...existing, ...input } as Body;
  requireNonEmpty(merged.name, `${where}name`);
  const model = ws.models.get(merged.aiModelId as string);
  if (!model)
    throw unprocessable(`${where}aiModelId names no model (${JSON.stringify(merged.aiModelId)})`, `${where}aiModelId`);
  const options = (merged.modelOptionValues ?? []) as unknown[];
  for (const option of options) {
    if (!isObject(option) || typeof option.optionId !== 'string' || typeof option.value !== 'string') {
      throw new ApiError(
        400,
        'invalid_request',
        `${where}modelOptionValues must be an array of {optionId, value} strings`,
      );
    }
    if (!model.modelOptions.some((known) => known.id === option.optionId)) {
      throw unprocessable(
        `model ${model.id} has no option ${JSON.stringify(option.optionId)}`,
        `${where}modelOptionValues`,
      );
    }
  }
  const flow = (merged.flowDefinition ?? null) as Body | null;
  if (flow !== null && !Array.isArray(flow.nodes)) throw unprocessable(`${where}flowDefinition.nodes must be an array`);
  if (merged.agentType === 'CUSTOM_FLOW' && flow === null)
    throw unprocessable(`a CUSTOM_FLOW prompt needs a flowDefinition`, `${where}flowDefinition`);
  return {
    id: existing?.id ?? ws.newId(),
    name: merged.name as string,
    agentType: merged.agentType as VersionedPromptRecord['agentType'],
    prompt: (merged.prompt as string | null | undefined) ?? null,
    flowDefinition: flow === null ? null : withResponseFields(flow),
    aiModelId: model.id,
    modelOptionValues: structuredClone(options) as ModelOptionValue[],
  };
}

/**
 * The flow as the seed's responses show it: `openingLineType`, each node's `outputSchema`, each
 * transition rule's `conditionType` and `arrayConditionType` are always there, whether or not
 * the request had them. Where the request left one out, the emulator fills it in (its own
 * defaults): `openingLineType` INBOUND_OUTBOUND, `outputSchema` null, `conditionType` `in` when
 * the rule has `values`, `equal` when it has a `value`, else `always`; `arrayConditionType` null.
 */
function withResponseFields(flow: Body): FlowDefinition {
  const copy = structuredClone(flow) as FlowDefinition;
  copy.openingLineType ??= 'INBOUND_OUTBOUND';
  copy.nodes = (copy.nodes as unknown[]).map((node) => {
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
  return copy;
}

function buildExtractor(ws: Workspace, body: unknown, existing?: ExtractorRecord): ExtractorRecord {
  const input = checkBody(body, extractorSpec, { partial: existing !== undefined });
  const merged = { ...existing, ...input } as Body;
  requireNonEmpty(merged.name, 'name');
  let schema: unknown;
  try {
    schema = JSON.parse(merged.extractorFieldsJsonSchema as string);
  } catch {
    throw unprocessable('extractorFieldsJsonSchema must be a JSON schema, as text');
  }
  if (!isObject(schema)) throw unprocessable('extractorFieldsJsonSchema must be a JSON object schema, as text');
  return {
    id: existing?.id ?? ws.newId(),
    name: merged.name as string,
    extractorFieldsJsonSchema: merged.extractorFieldsJsonSchema as string,
  };
}

/** Applies the optional agent fields of a create or update body onto `agent`; `where` prefixes field names in messages. */
function applyAgentFields(ws: Workspace, agent: AgentRecord, input: Body, where = ''): void {
  for (const [name, spec] of Object.entries(subSpecs)) {
    if (input[name] !== undefined && input[name] !== null) checkBody(input[name], spec, { where: `${where}${name}` });
  }
  if (input.name !== undefined) {
    requireNonEmpty(input.name, `${where}name`);
    agent.name = input.name as string;
  }
  if (input.defaultVoiceId !== undefined) {
    if (!ws.voices.has(input.defaultVoiceId as string)) {
      throw unprocessable(
        `${where}defaultVoiceId names no voice (${JSON.stringify(input.defaultVoiceId)})`,
        `${where}defaultVoiceId`,
      );
    }
    agent.defaultVoiceId = input.defaultVoiceId as string;
  }
  if (typeof input.maxDurationSeconds === 'number') {
    if (input.maxDurationSeconds < 1)
      throw unprocessable(`${where}maxDurationSeconds must be at least 1`, `${where}maxDurationSeconds`);
    agent.maxDurationSeconds = input.maxDurationSeconds;
  }
  if (typeof input.language === 'string') agent.language = input.language;
  if (input.metadata !== undefined) agent.metadata = structuredClone((input.metadata ?? {}) as Record<string, unknown>);
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
  if (input.voicemailConfig !== undefined)
    agent.voicemailConfig = structuredClone(input.voicemailConfig as Record<string, unknown> | null);
  if (input.ivrSilenceHangupConfiguration !== undefined) {
    agent.ivrSilenceHangupConfiguration = structuredClone(
      input.ivrSilenceHangupConfiguration as Record<string, unknown> | null,
    );
  }
  if (input.timeoutMessage !== undefined) agent.timeoutMessage = input.timeoutMessage as string | null;
  const links = input.linkedFunctionDefinitionInputs ?? input.linkedFunctionDefinitionIds;
  if (Array.isArray(links)) {
    agent.linkedFunctionDefinitions = links.map((link: unknown) => {
      const id = typeof link === 'string' ? link : isObject(link) ? link.functionDefinitionId : undefined;
      if (typeof id !== 'string')
        throw new ApiError(
          400,
          'invalid_request',
          `${where}linkedFunctionDefinitionInputs items need functionDefinitionId`,
        );
      if (!ws.functions.has(id))
        throw unprocessable(`no function with id ${JSON.stringify(id)}`, `${where}linkedFunctionDefinitionInputs`);
      const override = isObject(link) && isObject(link.lifecycleMessagesOverride) ? link.lifecycleMessagesOverride : {};
      const lists = checkBody(
        override,
        { started: { type: 'string[]' }, waiting: { type: 'string[]' }, awaitSpeech: { type: 'string[]' } },
        {
          where: `${where}linkedFunctionDefinitionInputs[].lifecycleMessagesOverride`,
        },
      );
      return {
        functionDefinitionId: id,
        lifecycleMessagesOverride: {
          ...structuredClone(lists),
          started: [...((lists.started as string[] | undefined) ?? [])],
        },
      };
    });
  }
}

/** Agent fields a dial's `agentOverrides` may carry (the seed's list); other keys are ignored. */
const overrideSpec: Record<string, FieldSpec> = {
  ...Object.fromEntries(Object.entries(agentSpec).filter(([name]) => name !== 'name' && name !== 'defaultExtractor')),
  defaultVoiceId: { type: 'string' },
  defaultVersionedPrompt: { type: 'object' },
};

/**
 * A copy of `agent` with a dial's `agentOverrides` applied, checked like an agent update (400 for a
 * wrong type, 422 naming the field for an id that names nothing). An override prompt is checked
 * and gets its own id on the dial's agent; it is not added to the agent's prompts.
 */
export function agentWithOverrides(ws: Workspace, agent: AgentRecord, overrides: Body): AgentRecord {
  const where = 'agentOverrides.';
  const input = checkBody(overrides, overrideSpec, { partial: true, where: 'agentOverrides' });
  const next = structuredClone(agent);
  applyAgentFields(ws, next, input, where);
  if (input.defaultVersionedPrompt !== undefined) {
    next.defaultVersionedPromptId = buildPrompt(
      ws,
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

export function agentRoutes(ws: Workspace): ResourceRoute[] {
  const promptsOf = (agentId: string) => {
    ws.agent(agentId);
    return ws.prompts.get(agentId)!;
  };
  const extractorsOf = (agentId: string) => {
    ws.agent(agentId);
    return ws.extractors.get(agentId)!;
  };

  function createAgent(body: unknown): AgentRecord {
    const input = checkBody(body, agentSpec);
    const id = ws.newId();
    const prompt = buildPrompt(ws, input.defaultVersionedPrompt, undefined, 'defaultVersionedPrompt.');
    const extractor = input.defaultExtractor ? buildExtractor(ws, input.defaultExtractor) : null;
    const agent: AgentRecord = {
      id,
      name: '',
      language: 'en',
      transcriberParams: { type: 'deepgram', keywords: [] },
      metadata: {},
      utteranceDetectorConfig: { sensitivity: 'MEDIUM', interruptionPlayTimeMs: 500 },
      endpointDetectorConfig: { type: 'SIMPLE', mode: 'DEFAULT' },
      ivrConfiguration: { detectionType: 'NONE', versionedPromptId: null, aiVoiceId: null, taggingText: null },
      idleMessageConfig: { enabled: false, messages: [], idleDurationMilliseconds: 5000, maxIdleMessages: 1 },
      maxDurationSeconds: 10800,
      defaultVoiceId: '',
      defaultVersionedPromptId: prompt.id,
      defaultExtractorId: extractor?.id ?? null,
      linkedFunctionDefinitions: [],
      fillEmptyStringVariables: false,
      silenceHangupConfiguration: { type: 'DISABLED', silenceDurationSeconds: 0 },
      voiceOptionValues: [],
      timeoutMessage: null,
      timeoutBehaviorConfiguration: { behavior: 'HANGUP', transferNumber: null },
      voicemailConfig: null,
      ivrSilenceHangupConfiguration: null,
    };
    applyAgentFields(ws, agent, input);
    checkScenario(agent);
    ws.agents.set(id, agent);
    ws.prompts.set(id, new Map([[prompt.id, prompt]]));
    ws.extractors.set(id, new Map(extractor ? [[extractor.id, extractor]] : []));
    return structuredClone(agent);
  }

  function updateAgent(agentId: string, body: unknown): AgentRecord {
    const current = ws.agent(agentId);
    const input = checkBody(body, updateSpec, { partial: true });
    const next = structuredClone(current);
    applyAgentFields(ws, next, input);
    if (input.defaultVersionedPromptId !== undefined) {
      if (!ws.prompts.get(agentId)!.has(input.defaultVersionedPromptId as string)) {
        throw unprocessable(
          `agent ${agentId} has no versioned prompt ${JSON.stringify(input.defaultVersionedPromptId)}`,
        );
      }
      next.defaultVersionedPromptId = input.defaultVersionedPromptId as string;
    }
    if (input.callAgentExtractorId !== undefined) {
      const extractorId = input.callAgentExtractorId as string;
      if (extractorId !== '' && !ws.extractors.get(agentId)!.has(extractorId)) {
        throw unprocessable(`agent ${agentId} has no extractor ${JSON.stringify(extractorId)}`);
      }
      next.defaultExtractorId = extractorId === '' ? null : extractorId;
    }
    checkScenario(next);
    ws.agents.set(agentId, next);
    return structuredClone(next);
  }

  function deleteAgent(agentId: string): AgentRecord {
    const agent = ws.agent(agentId);
    if ((SCENARIO_AGENT_IDS as readonly string[]).includes(agentId)) {
      throw unprocessable('the emulator keeps its scenario agents; delete an agent you created');
    }
    ws.agents.delete(agentId);
    ws.prompts.delete(agentId);
    ws.extractors.delete(agentId);
    for (const number of ws.phoneNumbers.values()) if (number.agentId === agentId) number.agentId = null;
    return agent;
  }

  return [
    {
      pattern: /^\/agents$/,
      methods: {
        GET: (request) => page([...ws.agents.values()], request),
        POST: ({ body }) => createAgent(body),
      },
    },
    {
      pattern: /^\/agents\/([^/]+)$/,
      methods: {
        GET: ({ params }) => structuredClone(ws.agent(params[0]!)),
        PUT: ({ params, body }) => updateAgent(params[0]!, body),
        DELETE: ({ params }) => deleteAgent(params[0]!),
      },
    },
    {
      pattern: /^\/agents\/([^/]+)\/versioned_prompts$/,
      methods: {
        GET: (request) => page([...promptsOf(request.params[0]!).values()], request),
        POST: ({ params, body }) => {
          const prompts = promptsOf(params[0]!);
          const prompt = buildPrompt(ws, body);
          prompts.set(prompt.id, prompt);
          return structuredClone(prompt);
        },
      },
    },
    {
      pattern: /^\/agents\/([^/]+)\/versioned_prompts\/([^/]+)$/,
      methods: {
        GET: ({ params }) => structuredClone(found(promptsOf(params[0]!).get(params[1]!), 'versioned prompt')),
        PUT: ({ params, body }) => {
          const prompts = promptsOf(params[0]!);
          const prompt = buildPrompt(ws, body, found(prompts.get(params[1]!), 'versioned prompt'));
          prompts.set(prompt.id, prompt);
          return structuredClone(prompt);
        },
      },
    },
    {
      pattern: /^\/agents\/([^/]+)\/extractors$/,
      methods: {
        // The seed's one listing without pagination.
        GET: ({ params }) => ({ extractors: structuredClone([...extractorsOf(params[0]!).values()]) }),
        POST: ({ params, body }) => {
          const extractors = extractorsOf(params[0]!);
          const extractor = buildExtractor(ws, body);
          extractors.set(extractor.id, extractor);
          return structuredClone(extractor);
        },
      },
    },
    {
      pattern: /^\/agents\/([^/]+)\/extractors\/([^/]+)$/,
      methods: {
        GET: ({ params }) => structuredClone(found(extractorsOf(params[0]!).get(params[1]!), 'extractor')),
        PUT: ({ params, body }) => {
          const extractors = extractorsOf(params[0]!);
          const extractor = buildExtractor(ws, body, found(extractors.get(params[1]!), 'extractor'));
          extractors.set(extractor.id, extractor);
          return structuredClone(extractor);
        },
      },
    },
  ];
}
