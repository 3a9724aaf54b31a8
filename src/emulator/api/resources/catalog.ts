// The read-mostly catalogue: models, voices (filtered by name and type) and functions.
import type { VoicePage } from '../../../api/types/index.js';
import { unprocessable } from '../errors.js';
import { page, paginate } from '../pagination.js';
import type { FunctionRecord } from '../records.js';
import type { Store } from '../store.js';
import { checkBody, checkPatch, requireE164, requireNonEmpty, type Body, type Schema } from '../validate.js';
import { recordHandlers, type ResourceRoute } from './route.js';

const functionSchema = {
  name: { type: 'string', required: true },
  displayName: { type: 'string', nullable: true },
  description: { type: 'string', required: true },
  type: { type: 'string', required: true, oneOf: ['transfer', 'api'] },
  allowedNumbers: { type: 'array', stringFields: ['number'] },
  lifecycleMessages: { type: 'object' },
} as const satisfies Schema;

const lifecycleSchema = { started: { type: 'string[]', required: true } } as const satisfies Schema;

export function catalogRoutes(store: Store): ResourceRoute[] {
  function buildFunction(body: unknown, existing?: FunctionRecord): FunctionRecord {
    const input = existing ? checkPatch(body, functionSchema) : checkBody(body, functionSchema);
    const merged: Body = { ...structuredClone(existing), ...structuredClone(input) };
    requireNonEmpty(merged.name, 'name');
    const numbers = input.allowedNumbers ?? existing?.allowedNumbers ?? [];
    for (const item of numbers) requireE164(item.number, 'allowedNumbers[].number');
    if (merged.type === 'transfer' && numbers.length === 0)
      throw unprocessable('a transfer function needs allowedNumbers');
    const lifecycle = checkBody(merged.lifecycleMessages ?? { started: [] }, lifecycleSchema, {
      where: 'lifecycleMessages',
    });
    return {
      ...merged,
      id: existing?.id ?? store.newId(),
      name: merged.name as string,
      displayName: (merged.displayName as string | null | undefined) ?? (merged.name as string),
      description: merged.description as string,
      type: merged.type as FunctionRecord['type'],
      allowedNumbers: structuredClone(numbers),
      lifecycleMessages: lifecycle,
    };
  }

  const functions = recordHandlers(() => store.functions, buildFunction);

  return [
    { pattern: /^\/models$/, methods: { GET: (request) => page(store.models.values(), request) } },
    {
      pattern: /^\/voices$/,
      methods: {
        GET: (request) => {
          const { query } = request;
          const name = query.get('name')?.toLowerCase();
          const voiceType = query.get('voiceType');
          const voices = store.voices
            .values()
            .filter(
              (voice) =>
                (!name || voice.name.toLowerCase().includes(name)) && (!voiceType || voice.voiceType === voiceType),
            );
          const { items, cursor } = paginate(voices, request);
          return { voices: items, cursor } satisfies VoicePage;
        },
      },
    },
    {
      pattern: /^\/functions$/,
      methods: {
        GET: (request) => {
          // The seed: an exact match on the display name.
          const displayName = request.query.get('displayName');
          const matching = store.functions
            .values()
            .filter((fn) => displayName === null || fn.displayName === displayName);
          return page(matching, request);
        },
        POST: functions.create,
      },
    },
    {
      pattern: /^\/functions\/([^/]+)$/,
      methods: {
        GET: functions.read,
        PUT: functions.update,
        DELETE: ({ param }) => {
          const fn = store.functions.require(param(0));
          store.functions.delete(fn.id);
          // "Deletes a function, and unlinks it from any agents."
          for (const agent of store.agents.values()) {
            agent.linkedFunctionDefinitions = agent.linkedFunctionDefinitions.filter(
              (link) => link.functionDefinitionId !== fn.id,
            );
          }
          return fn;
        },
      },
    },
  ];
}
