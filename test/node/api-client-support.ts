// Shared by the api-client tests: an in-process emulator with short timings, a client for it,
// and helpers to assert typed errors and to poll for an eventual state.
import type { CreateAgentInput } from '../../src/api/types/index.js';
import assert from 'node:assert/strict';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { VoiceAgentApi } from '../../src/api/client.js';
import { ServiceError, type ServiceErrorCode } from '../../src/api/service-error.js';

export { present } from '../support/present.js';

export const API_KEY = 'api-client-test-key-5c4b3a';

export async function startApi(options: EmulatorOptions = {}): Promise<{ emu: Emulator; api: VoiceAgentApi }> {
  const emu = await startEmulator({
    apiKey: API_KEY,
    logger: false,
    phoneRingMs: 150,
    phoneTalkMs: 250,
    evalRunMs: 60,
    ...options,
  });
  return { emu, api: new VoiceAgentApi({ baseUrl: emu.apiUrl, apiKey: emu.apiKey, timeoutMs: 5000 }) };
}

/** Awaits `promise` and asserts it fails with a ServiceError of this code and status. */
export async function rejectsWith(
  promise: Promise<unknown>,
  code: ServiceErrorCode,
  status: number,
): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ServiceError, `expected a ServiceError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    assert.equal(error.status, status);
    assert.ok(!error.message.includes(API_KEY));
    return error;
  }
  assert.fail(`expected a ${code} (${status}) failure`);
}

/** Polls `check` until it returns a value other than undefined, or fails after `ms`. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  ms = 3000,
  what = 'the condition',
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`${what} did not happen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
}

/** Reads a record until its `status` is `status` (or fails after `ms`), and answers it then. */
export function reaches<T extends { status: string }>(
  read: () => Promise<T>,
  status: T['status'],
  ms: number,
  what: string,
): Promise<T> {
  return eventually(
    async () => {
      const current = await read();
      return current.status === status ? current : undefined;
    },
    ms,
    what,
  );
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** A new agent's input: espeak voice, a short STANDARD prompt on the small model; `extra` replaces fields. */
export const newAgent = (name: string, extra: Partial<CreateAgentInput> = {}): CreateAgentInput => ({
  name,
  defaultVoiceId: 'emu-voice-espeak-en',
  defaultVersionedPrompt: {
    aiModelId: 'emu-model-small',
    agentType: 'STANDARD',
    name: `${name} v1`,
    prompt: 'Be brief.',
  },
  ...extra,
});
