// The read-mostly catalogue: models, voices (filtered by name and type) and functions.
import { badRequest, unprocessable } from '../errors.js';
import { page, paginate } from '../pagination.js';
import type { FunctionRecord } from '../records.js';
import { checkBody, isObject, requireE164, requireNonEmpty, type FieldSpec } from '../validate.js';
import type { ResourceRoute } from './route.js';
import { found, type Workspace } from './workspace.js';

const functionSpec: Record<string, FieldSpec> = {
  name: { type: 'string', required: true },
  displayName: { type: 'string', nullable: true },
  description: { type: 'string', required: true },
  type: { type: 'string', required: true, oneOf: ['transfer', 'api'] },
  allowedNumbers: { type: 'array' },
  lifecycleMessages: { type: 'object' },
};

export function catalogRoutes(ws: Workspace): ResourceRoute[] {
  function buildFunction(body: unknown, existing?: FunctionRecord): FunctionRecord {
    const input = checkBody(body, functionSpec, { partial: existing !== undefined });
    const merged = { ...structuredClone(existing), ...structuredClone(input) } as Record<string, unknown>;
    requireNonEmpty(merged.name, 'name');
    const numbers = (merged.allowedNumbers ?? []) as unknown[];
    for (const item of numbers) {
      if (!isObject(item) || typeof item.number !== 'string')
        throw badRequest('allowedNumbers must be an array of {number} strings');
      requireE164(item.number, 'allowedNumbers[].number');
    }
    if (merged.type === 'transfer' && numbers.length === 0)
      throw unprocessable('a transfer function needs allowedNumbers');
    const lifecycle = (merged.lifecycleMessages ?? { started: [] }) as Record<string, unknown>;
    checkBody(lifecycle, { started: { type: 'string[]', required: true } }, { where: 'lifecycleMessages' });
    return {
      ...merged,
      id: existing?.id ?? ws.newId(),
      name: merged.name as string,
      displayName: (merged.displayName as string | null | undefined) ?? (merged.name as string),
      description: merged.description as string,
      type: merged.type as FunctionRecord['type'],
      allowedNumbers: numbers as FunctionRecord['allowedNumbers'],
      lifecycleMessages: lifecycle as FunctionRecord['lifecycleMessages'],
    };
  }

  return [
    { pattern: /^\/models$/, methods: { GET: (request) => page([...ws.models.values()], request) } },
    {
      pattern: /^\/voices$/,
      methods: {
        GET: (request) => {
          const { query } = request;
          const name = query.get('name')?.toLowerCase();
          const voiceType = query.get('voiceType');
          const voices = [...ws.voices.values()].filter(
            (voice) =>
              (!name || voice.name.toLowerCase().includes(name)) && (!voiceType || voice.voiceType === voiceType),
          );
          const { items, cursor } = paginate(voices, request);
          return { voices: items, cursor };
        },
      },
    },
    {
      pattern: /^\/functions$/,
      methods: {
        GET: (request) => {
          // The seed: an exact match on the display name.
          const displayName = request.query.get('displayName');
          return page(
            [...ws.functions.values()].filter((fn) => displayName === null || fn.displayName === displayName),
            request,
          );
        },
        POST: ({ body }) => {
          const fn = buildFunction(body);
          ws.functions.set(fn.id, fn);
          return structuredClone(fn);
        },
      },
    },
    {
      pattern: /^\/functions\/([^/]+)$/,
      methods: {
        GET: ({ params }) => structuredClone(found(ws.functions.get(params[0]!), 'function')),
        PUT: ({ params, body }) => {
          const fn = buildFunction(body, found(ws.functions.get(params[0]!), 'function'));
          ws.functions.set(fn.id, fn);
          return structuredClone(fn);
        },
        DELETE: ({ params }) => {
          const fn = found(ws.functions.get(params[0]!), 'function');
          ws.functions.delete(fn.id);
          // "Deletes a function, and unlinks it from any agents."
          for (const agent of ws.agents.values()) {
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
