// What a fresh emulator's workspace holds besides the scenario agents: a few models, voices and
// functions, so listings have something to page through and agents something to refer to.
import type {
  AIModelRecord,
  AIVoiceRecord,
  ExtractorRecord,
  FunctionRecord,
  VersionedPromptRecord,
} from '../records.js';

export const SEED_MODELS: readonly AIModelRecord[] = [
  {
    id: 'emu-model-small',
    name: 'Emulator small model',
    modelOptions: [{ id: 'temperature', name: 'Temperature', valueType: 'FLOAT', default: '0.7' }],
  },
  {
    id: 'emu-model-large',
    name: 'Emulator large model',
    modelOptions: [
      { id: 'temperature', name: 'Temperature', valueType: 'FLOAT', default: '0.5' },
      { id: 'max-tokens', name: 'Maximum tokens', valueType: 'INT', default: '512' },
    ],
  },
  {
    id: 'emu-model-flow',
    name: 'Emulator flow model',
    modelOptions: [{ id: 'style', name: 'Style', valueType: 'STRING', default: 'concise' }],
  },
];

export const SEED_VOICES: readonly AIVoiceRecord[] = [
  {
    id: 'emu-voice-espeak-en',
    name: 'eSpeak English',
    voiceType: 'PREBUILT',
    voiceTier: 'STANDARD',
    description: 'The voice the scenario agents speak with (espeak-ng).',
  },
  {
    id: 'emu-voice-espeak-en-us',
    name: 'eSpeak American English',
    voiceType: 'PREBUILT',
    voiceTier: 'STANDARD',
    description: 'espeak-ng, en-us.',
  },
  {
    id: 'emu-voice-espeak-de',
    name: 'eSpeak German',
    voiceType: 'PREBUILT',
    voiceTier: 'STANDARD',
    description: 'espeak-ng, de.',
  },
  {
    id: 'emu-voice-tone',
    name: 'Tone',
    voiceType: 'PREBUILT',
    voiceTier: 'STANDARD',
    description: 'A plain tone, for machines without espeak-ng.',
  },
  {
    id: 'emu-voice-premium',
    name: 'Premium narrator',
    voiceType: 'PREBUILT',
    voiceTier: 'PREMIUM',
    description: 'Listed only: speaks like eSpeak English.',
  },
  {
    id: 'emu-voice-cloned',
    name: 'Cloned sample voice',
    voiceType: 'CLONED',
    voiceTier: 'PREMIUM',
    description: 'Listed only: speaks like eSpeak English.',
  },
];

export const SEED_FUNCTIONS: readonly FunctionRecord[] = [
  {
    id: 'emu-function-transfer',
    name: 'transfer_to_front_desk',
    displayName: 'Transfer to front desk',
    description: 'Transfers the caller to the front desk.',
    type: 'transfer',
    allowedNumbers: [{ number: '+15550100100' }],
    lifecycleMessages: { started: ['One moment, transferring you.'] },
  },
  {
    id: 'emu-function-lookup',
    name: 'lookup_order',
    displayName: 'Look up an order',
    description: 'Looks up an order by its number.',
    type: 'api',
    allowedNumbers: [],
    lifecycleMessages: { started: ['Let me look that up.'] },
  },
  {
    id: 'emu-function-book',
    name: 'book_appointment',
    displayName: 'Book an appointment',
    description: 'Books an appointment slot.',
    type: 'api',
    allowedNumbers: [],
    lifecycleMessages: { started: ['Booking that for you.'] },
  },
];

/** The prompt every scenario agent's `defaultVersionedPromptId` names. */
export function scenarioPrompt(agentId: string): VersionedPromptRecord {
  return {
    id: `${agentId}-prompt-v1`,
    name: `${agentId} v1`,
    agentType: 'STANDARD',
    prompt: `You are the emulator's ${agentId} agent. Your behaviour is scripted.`,
    flowDefinition: null,
    aiModelId: 'emu-model-small',
    modelOptionValues: [],
  };
}

/** The extractor `emu-quick` sets `aiResult` with. */
export const QUICK_EXTRACTOR: ExtractorRecord = {
  id: 'emu-quick-extractor',
  name: 'Quick call summary',
  extractorFieldsJsonSchema: JSON.stringify({ type: 'object', properties: { summary: { type: 'string' } } }),
};
