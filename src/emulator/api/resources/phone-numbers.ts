// Phone numbers (search, create three ways, the deprecated purchase, link to an agent) and
// phone number pools. Pools are not in the seed's REST docs: `/phone_number_pools` is the
// emulator's convention, and it answers its listing as a bare array.
import { ApiError, badRequest, unprocessable } from '../errors.js';
import { page } from '../pagination.js';
import type { PhoneNumberPoolRecord, PhoneNumberRecord } from '../records.js';
import { checkBody, requireE164, requireNonEmpty, type FieldSpec } from '../validate.js';
import { nowIso, type ResourceRoute } from './route.js';
import { found, type Workspace } from './workspace.js';

/** Calling codes of the countries the emulator's number search knows. */
const CALLING_CODES: Record<string, string> = { US: '1', CA: '1', GB: '44', DE: '49', FR: '33', AU: '61', NL: '31' };

const createSpec: Record<string, FieldSpec> = {
  type: { type: 'string', required: true, oneOf: ['purchase', 'sip_import', 'vogent_sip'] },
  purchase: { type: 'object', nullable: true },
  sipImport: { type: 'object', nullable: true },
  vogentSip: { type: 'object', nullable: true },
};

const poolSpec: Record<string, FieldSpec> = {
  name: { type: 'string', required: true },
  phoneNumberIds: { type: 'string[]' },
};

export function phoneNumberRoutes(ws: Workspace): ResourceRoute[] {
  const owned = (number: string) => [...ws.phoneNumbers.values()].some((record) => record.number === number);

  function add(number: string, type: PhoneNumberRecord['type']): PhoneNumberRecord {
    if (owned(number)) throw new ApiError(422, 'validation_failed', `the workspace already has ${number}`);
    const record: PhoneNumberRecord = { id: ws.newId(), number, type, agentId: null };
    ws.phoneNumbers.set(record.id, record);
    return structuredClone(record);
  }

  function create(body: unknown): PhoneNumberRecord {
    const input = checkBody(body, createSpec);
    const variant = { purchase: 'purchase', sip_import: 'sipImport', vogent_sip: 'vogentSip' }[input.type as string]!;
    if (input[variant] === undefined || input[variant] === null)
      throw badRequest(`${variant} is required when type is ${input.type as string}`);
    if (input.type === 'purchase') {
      const { number } = checkBody(
        input.purchase,
        { number: { type: 'string', required: true } },
        { where: 'purchase' },
      );
      requireE164(number as string, 'purchase.number');
      return add(number as string, 'PSTN');
    }
    if (input.type === 'sip_import') {
      const sip = checkBody(
        input.sipImport,
        {
          phoneNumber: { type: 'string', required: true },
          terminationUri: { type: 'string', required: true },
          username: { type: 'string', required: true },
          password: { type: 'string', required: true },
        },
        { where: 'sipImport' },
      );
      requireE164(sip.phoneNumber as string, 'sipImport.phoneNumber');
      requireNonEmpty(sip.terminationUri, 'sipImport.terminationUri');
      return add(sip.phoneNumber as string, 'PSTN');
    }
    const sip = checkBody(
      input.vogentSip,
      {
        sipPrefix: { type: 'string', required: true },
        username: { type: 'string', required: true },
        password: { type: 'string', required: true },
      },
      { where: 'vogentSip' },
    );
    if ((sip.username as string).length < 5) throw unprocessable('vogentSip.username must have at least 5 characters');
    if ((sip.password as string).length < 5) throw unprocessable('vogentSip.password must have at least 5 characters');
    return add(`${sip.sipPrefix as string}${sip.username as string}`, 'SIP_USERNAME');
  }

  /** Candidates `+<code><prefix><digits>` not already in the workspace, the same for the same query. */
  function search(body: unknown): { number: string }[] {
    const input = checkBody(body, {
      prefix: { type: 'string', required: true },
      country: { type: 'string' },
      limit: { type: 'integer' },
    });
    const prefix = input.prefix as string;
    if (!/^\d{1,6}$/.test(prefix)) throw unprocessable('prefix must be 1 to 6 digits, without the country code');
    const country = ((input.country as string | undefined) ?? 'US').toUpperCase();
    const code = CALLING_CODES[country];
    if (!code)
      throw unprocessable(
        `the emulator has no numbers in ${country}; try one of ${Object.keys(CALLING_CODES).join(', ')}`,
      );
    const limit = (input.limit as number | undefined) ?? 5;
    if (limit < 1 || limit > 10) throw unprocessable('limit must be from 1 to 10');
    const length = code === '1' ? 10 : 9;
    const candidates: { number: string }[] = [];
    for (let serial = 0; candidates.length < limit && serial < 10_000; serial++) {
      const rest = String(serial).padStart(length - prefix.length, '0');
      const number = `+${code}${prefix}${rest}`.slice(0, 1 + code.length + length);
      if (!owned(number)) candidates.push({ number });
    }
    return candidates;
  }

  function linkAgent(numberId: string, body: unknown): PhoneNumberRecord {
    const record = found(ws.phoneNumbers.get(numberId), 'phone number');
    const { agentId } = checkBody(body, { agentId: { type: 'string', required: true, nullable: true } });
    // "empty string to unlink"
    if (agentId !== '' && agentId !== null && !ws.agents.has(agentId as string))
      throw unprocessable(`no agent with id ${JSON.stringify(agentId)}`);
    record.agentId = agentId === '' || agentId === null ? null : (agentId as string);
    return structuredClone(record);
  }

  function buildPool(body: unknown, existing?: PhoneNumberPoolRecord): PhoneNumberPoolRecord {
    const input = checkBody(body, poolSpec, { partial: existing !== undefined });
    const name = (input.name as string | undefined) ?? existing!.name;
    requireNonEmpty(name, 'name');
    const ids = (input.phoneNumberIds as string[] | undefined) ?? existing?.phoneNumberIds ?? [];
    for (const id of ids)
      if (!ws.phoneNumbers.has(id)) throw unprocessable(`no phone number with id ${JSON.stringify(id)}`);
    return {
      id: existing?.id ?? ws.newId(),
      name,
      phoneNumberIds: [...new Set(ids)],
      createdAt: existing?.createdAt ?? nowIso(),
    };
  }

  return [
    {
      pattern: /^\/phone_numbers$/,
      methods: { GET: (request) => page([...ws.phoneNumbers.values()], request), POST: ({ body }) => create(body) },
    },
    { pattern: /^\/phone_numbers\/search$/, methods: { POST: ({ body }) => search(body) } },
    {
      pattern: /^\/phone_numbers\/purchase$/,
      methods: {
        // Deprecated in the seed ("use /phone_numbers instead"); kept for older integrations.
        POST: ({ body }) => {
          const { number } = checkBody(body, { number: { type: 'string', required: true } });
          requireE164(number as string, 'number');
          return add(number as string, 'PSTN');
        },
      },
    },
    {
      pattern: /^\/phone_numbers\/([^/]+)$/,
      methods: {
        GET: ({ params }) => structuredClone(found(ws.phoneNumbers.get(params[0]!), 'phone number')),
        PUT: ({ params, body }) => linkAgent(params[0]!, body),
        DELETE: ({ params }) => {
          const record = found(ws.phoneNumbers.get(params[0]!), 'phone number');
          ws.phoneNumbers.delete(record.id);
          for (const pool of ws.pools.values())
            pool.phoneNumberIds = pool.phoneNumberIds.filter((id) => id !== record.id);
          return record;
        },
      },
    },
    {
      pattern: /^\/phone_number_pools$/,
      methods: {
        GET: () => structuredClone([...ws.pools.values()]),
        POST: ({ body }) => {
          const pool = buildPool(body);
          ws.pools.set(pool.id, pool);
          return structuredClone(pool);
        },
      },
    },
    {
      pattern: /^\/phone_number_pools\/([^/]+)$/,
      methods: {
        GET: ({ params }) => structuredClone(found(ws.pools.get(params[0]!), 'phone number pool')),
        PUT: ({ params, body }) => {
          const pool = buildPool(body, found(ws.pools.get(params[0]!), 'phone number pool'));
          ws.pools.set(pool.id, pool);
          return structuredClone(pool);
        },
      },
    },
  ];
}
