// `POST /dials`' body, the seed's `CreateDialInput`: a schema like every other body (a wrong JSON
// type is a 400), then the checks of what its values name (a well-typed but unusable value is a
// 422, the seed's "Validation exception", with `error.field`).
import { badRequest, unprocessable } from './errors.js';
import { canonicalJson, MAX_IDEMPOTENCY_KEY_LENGTH } from './idempotency.js';
import type { AgentRecord } from './records.js';
import { checkBody, requireE164, type Schema } from './validate.js';

/**
 * What `parseCreateDial` asks of the store. Every id field of the body must name something
 * (422 naming the field otherwise); `agentForDial` answers a copy of the agent with the body's
 * `agentOverrides` applied (and throws their own 400/422), or undefined for an unknown agent.
 */
export interface DialLookup {
  agentForDial(id: string, overrides: Record<string, unknown> | null): AgentRecord | undefined;
  hasPhoneNumber(id: string): boolean;
  hasPhoneNumberPool(id: string): boolean;
  hasVoice(id: string): boolean;
  /** A versioned prompt of this agent. */
  hasPrompt(agentId: string, promptId: string): boolean;
  /** An extractor of this agent. */
  hasExtractor(agentId: string, extractorId: string): boolean;
}

/** The fields of the seed's `CreateDialInput` the emulator acts on; others are type-checked and ignored. */
export interface DialInput {
  agent: AgentRecord;
  browserCall: boolean;
  toNumber: string | null;
  fromNumberId: string | null;
  callAgentInput: Record<string, unknown>;
  timeoutMinutes: number | null;
  aiVoiceId: string | null;
  versionedModelId: string | null;
  /** Set when the dial is an attempt of a dial task. */
  dialTaskId: string | null;
}

export interface ParsedCreateDial {
  input: DialInput;
  /** The body field `idempotencyKey`, if any. */
  idempotencyKey: string | null;
  /** The body without `idempotencyKey`, canonicalised: equal requests give equal fingerprints. */
  fingerprint: string;
}

/**
 * The longest time cap a dial may ask for: a day. The emulator's bound (the seed documents none);
 * past about 35 791 minutes the dial's timer would overflow and end the dial at once.
 */
export const MAX_TIMEOUT_MINUTES = 1440;

/** `CreateDialInput`: every field but `callAgentId` may also be null (the same as absent). */
const createDialSchema = {
  callAgentId: { type: 'string', required: true },
  webhookUrl: { type: 'string', nullable: true },
  browserCall: { type: 'boolean', nullable: true },
  toNumber: { type: 'string', nullable: true },
  fromNumberId: { type: 'string', nullable: true },
  fromNumberPoolId: { type: 'string', nullable: true },
  aiVoiceId: { type: 'string', nullable: true },
  voiceOptionValues: { type: 'array', stringFields: ['optionId', 'value'], nullable: true },
  voiceVolumeLevel: { type: 'integer', nullable: true },
  versionedModelId: { type: 'string', nullable: true },
  ivrVersionedPromptId: { type: 'string', nullable: true },
  overrideTranscriberFinalDurationMs: { type: 'integer', nullable: true },
  timeoutMinutes: { type: 'integer', nullable: true },
  callAgentExtractorId: { type: 'string', nullable: true },
  callAgentInput: { type: 'object', nullable: true },
  agentOverrides: { type: 'object', nullable: true },
  keywords: { type: 'string[]', nullable: true },
  advancedBrowserInteraction: { type: 'boolean', nullable: true },
  idempotencyKey: { type: 'string', nullable: true },
} as const satisfies Schema;

export function parseCreateDial(body: unknown, lookup: DialLookup): ParsedCreateDial {
  const fields = checkBody(body, createDialSchema);
  const { callAgentId } = fields;
  const idempotencyKey = fields.idempotencyKey ?? null;
  if (idempotencyKey !== null && (idempotencyKey === '' || idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH)) {
    throw badRequest(`idempotencyKey must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
  }
  const { idempotencyKey: _omitted, ...rest } = fields;

  // Checked before the overrides, so an unknown agent is named as such.
  if (!lookup.agentForDial(callAgentId, null))
    throw unprocessable(`callAgentId names no agent (${JSON.stringify(callAgentId)})`, 'callAgentId');
  const browserCall = fields.browserCall === true;
  const toNumber = fields.toNumber ?? null;
  const fromNumberId = fields.fromNumberId ?? null;
  if (!browserCall) {
    if (!toNumber) throw unprocessable('a phone dial (browserCall not true) needs toNumber', 'toNumber');
    if (!fromNumberId && !fields.fromNumberPoolId)
      throw unprocessable('a phone dial (browserCall not true) needs fromNumberId', 'fromNumberId');
  }
  if (toNumber) requireE164(toNumber, 'toNumber', 'toNumber');
  const timeoutMinutes = fields.timeoutMinutes ?? null;
  if (timeoutMinutes !== null && (timeoutMinutes <= 0 || timeoutMinutes > MAX_TIMEOUT_MINUTES))
    throw unprocessable(`timeoutMinutes must be 1 to ${MAX_TIMEOUT_MINUTES} (a day)`, 'timeoutMinutes');
  const named = (name: keyof typeof createDialSchema, exists: (id: string) => boolean, what: string): void => {
    const id = fields[name];
    if (typeof id === 'string' && !exists(id))
      throw unprocessable(`${name} names no ${what} (${JSON.stringify(id)})`, name);
  };
  named('fromNumberId', (id) => lookup.hasPhoneNumber(id), 'phone number of this workspace');
  named('fromNumberPoolId', (id) => lookup.hasPhoneNumberPool(id), 'phone number pool of this workspace');
  named('aiVoiceId', (id) => lookup.hasVoice(id), 'voice');
  named('versionedModelId', (id) => lookup.hasPrompt(callAgentId, id), `versioned prompt of agent ${callAgentId}`);
  named('ivrVersionedPromptId', (id) => lookup.hasPrompt(callAgentId, id), `versioned prompt of agent ${callAgentId}`);
  named('callAgentExtractorId', (id) => lookup.hasExtractor(callAgentId, id), `extractor of agent ${callAgentId}`);
  const agent = lookup.agentForDial(callAgentId, fields.agentOverrides ?? null);
  // The agent was there a moment ago; only a lookup that forgets it could get here.
  if (!agent) throw unprocessable(`callAgentId names no agent (${JSON.stringify(callAgentId)})`, 'callAgentId');

  return {
    input: {
      agent,
      browserCall,
      toNumber,
      fromNumberId,
      callAgentInput: fields.callAgentInput ?? {},
      timeoutMinutes,
      aiVoiceId: fields.aiVoiceId ?? null,
      versionedModelId: fields.versionedModelId ?? null,
      dialTaskId: null,
    },
    idempotencyKey,
    fingerprint: canonicalJson(rest),
  };
}
