// `CreateDialInput` parsing: a wrong JSON type is a 400 (the body is malformed for the schema),
// a well-typed but unusable value is a 422 (the seed's "Validation exception").
import { badRequest, unprocessable } from './errors.js';
import type { AgentRecord } from './records.js';

/**
 * What `parseCreateDial` asks of the workspace. Every id field of the body must name something
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

type Check = (value: unknown) => boolean;
const isString: Check = (value) => typeof value === 'string';
const isBoolean: Check = (value) => typeof value === 'boolean';
const isInteger: Check = (value) => typeof value === 'number' && Number.isInteger(value);
const isObject: Check = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringArray: Check = (value) => Array.isArray(value) && value.every(isString);
const isVoiceOptions: Check = (value) =>
  Array.isArray(value) && value.every((item) => isObject(item) && isString(item.optionId) && isString(item.value));

/** Field → [type check, type name for the message, nullable]. */
const fieldTypes: Record<string, [Check, string, boolean]> = {
  callAgentId: [isString, 'a string', false],
  webhookUrl: [isString, 'a string', true],
  browserCall: [isBoolean, 'a boolean', true],
  toNumber: [isString, 'a string', true],
  fromNumberId: [isString, 'a string', true],
  fromNumberPoolId: [isString, 'a string', true],
  aiVoiceId: [isString, 'a string', true],
  voiceOptionValues: [isVoiceOptions, 'an array of {optionId, value} strings', true],
  voiceVolumeLevel: [isInteger, 'an integer', true],
  versionedModelId: [isString, 'a string', true],
  ivrVersionedPromptId: [isString, 'a string', true],
  overrideTranscriberFinalDurationMs: [isInteger, 'an integer', true],
  timeoutMinutes: [isInteger, 'an integer', true],
  callAgentExtractorId: [isString, 'a string', true],
  callAgentInput: [isObject, 'an object', true],
  agentOverrides: [isObject, 'an object', true],
  keywords: [isStringArray, 'an array of strings', true],
  advancedBrowserInteraction: [isBoolean, 'a boolean', true],
  idempotencyKey: [isString, 'a string', true],
};

const E164 = /^\+[1-9]\d{1,14}$/;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** JSON with object keys sorted at every level. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

export function parseCreateDial(body: unknown, lookup: DialLookup): ParsedCreateDial {
  if (!isObject(body)) throw badRequest('the body must be a JSON object');
  const fields = body as Record<string, unknown>;
  for (const [name, [check, typeName, nullable]] of Object.entries(fieldTypes)) {
    const value = fields[name];
    if (value === undefined || (value === null && nullable)) continue;
    if (!check(value)) throw badRequest(`${name} must be ${typeName}`);
  }
  const callAgentId = fields.callAgentId;
  if (typeof callAgentId !== 'string') throw badRequest('callAgentId is required');

  const idempotencyKey = (fields.idempotencyKey as string | null | undefined) ?? null;
  if (idempotencyKey !== null && (idempotencyKey === '' || idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH)) {
    throw badRequest(`idempotencyKey must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
  }
  const { idempotencyKey: _omitted, ...rest } = fields;

  // Checked before the overrides, so an unknown agent is named as such.
  if (!lookup.agentForDial(callAgentId, null))
    throw unprocessable(`callAgentId names no agent (${JSON.stringify(callAgentId)})`, 'callAgentId');
  const browserCall = fields.browserCall === true;
  const toNumber = (fields.toNumber as string | null | undefined) ?? null;
  const fromNumberId = (fields.fromNumberId as string | null | undefined) ?? null;
  const fromNumberPoolId = (fields.fromNumberPoolId as string | null | undefined) ?? null;
  if (!browserCall) {
    if (!toNumber) throw unprocessable('a phone dial (browserCall not true) needs toNumber', 'toNumber');
    if (!fromNumberId && !fromNumberPoolId)
      throw unprocessable('a phone dial (browserCall not true) needs fromNumberId', 'fromNumberId');
  }
  if (toNumber && !E164.test(toNumber))
    throw unprocessable('toNumber must be in E.164 format, e.g. +11234567890', 'toNumber');
  const timeoutMinutes = (fields.timeoutMinutes as number | null | undefined) ?? null;
  if (timeoutMinutes !== null && timeoutMinutes <= 0)
    throw unprocessable('timeoutMinutes must be greater than 0', 'timeoutMinutes');
  const named = (name: string, exists: (id: string) => boolean, what: string): void => {
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
  const agent = lookup.agentForDial(
    callAgentId,
    (fields.agentOverrides as Record<string, unknown> | null | undefined) ?? null,
  )!;

  return {
    input: {
      agent,
      browserCall,
      toNumber,
      fromNumberId,
      callAgentInput: (fields.callAgentInput as Record<string, unknown> | null | undefined) ?? {},
      timeoutMinutes,
      aiVoiceId: (fields.aiVoiceId as string | null | undefined) ?? null,
      versionedModelId: (fields.versionedModelId as string | null | undefined) ?? null,
      dialTaskId: null,
    },
    idempotencyKey,
    fingerprint: canonicalJson(rest),
  };
}
