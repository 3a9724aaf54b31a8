// Phone numbers (search, create three ways, the deprecated purchase, link to an agent) and
// phone number pools. Pools are not in the seed's REST docs: `/phone_number_pools` is the
// emulator's convention, and it answers its listing as a bare array.
import type { PhoneNumberCandidate } from '../../../api/types/index.js';
import { badRequest, unprocessable } from '../errors.js';
import { page } from '../pagination.js';
import type { PhoneNumberPoolRecord, PhoneNumberRecord } from '../records.js';
import type { Store } from '../store.js';
import { checkBody, checkPatch, requireE164, requireNonEmpty, type Schema } from '../validate.js';
import { nowIso, recordHandlers, type ResourceRoute } from './route.js';

/** Calling codes of the countries the emulator's number search knows. */
const CALLING_CODES: Record<string, string> = { US: '1', CA: '1', GB: '44', DE: '49', FR: '33', AU: '61', NL: '31' };

const createSchema = {
  type: { type: 'string', required: true, oneOf: ['purchase', 'sip_import', 'vogent_sip'] },
  purchase: { type: 'object', nullable: true },
  sipImport: { type: 'object', nullable: true },
  vogentSip: { type: 'object', nullable: true },
} as const satisfies Schema;

/** The body field that carries each `type`'s details. */
const VARIANTS = { purchase: 'purchase', sip_import: 'sipImport', vogent_sip: 'vogentSip' } as const;

const purchaseSchema = { number: { type: 'string', required: true } } as const satisfies Schema;

const sipImportSchema = {
  phoneNumber: { type: 'string', required: true },
  terminationUri: { type: 'string', required: true },
  username: { type: 'string', required: true },
  password: { type: 'string', required: true },
} as const satisfies Schema;

const vogentSipSchema = {
  sipPrefix: { type: 'string', required: true },
  username: { type: 'string', required: true },
  password: { type: 'string', required: true },
} as const satisfies Schema;

const searchSchema = {
  prefix: { type: 'string', required: true },
  country: { type: 'string' },
  limit: { type: 'integer' },
} as const satisfies Schema;

const linkSchema = { agentId: { type: 'string', required: true, nullable: true } } as const satisfies Schema;

const poolSchema = {
  name: { type: 'string', required: true },
  phoneNumberIds: { type: 'string[]' },
} as const satisfies Schema;

export function phoneNumberRoutes(store: Store): ResourceRoute[] {
  const owned = (number: string) => store.phoneNumbers.find((record) => record.number === number) !== undefined;

  function add(number: string, type: PhoneNumberRecord['type']): PhoneNumberRecord {
    if (owned(number)) throw unprocessable(`the workspace already has ${number}`);
    const record: PhoneNumberRecord = { id: store.newId(), number, type, agentId: null };
    store.phoneNumbers.set(record.id, record);
    return structuredClone(record);
  }

  function create(body: unknown): PhoneNumberRecord {
    const input = checkBody(body, createSchema);
    const variant = VARIANTS[input.type];
    if (input[variant] === undefined || input[variant] === null)
      throw badRequest(`${variant} is required when type is ${input.type}`);
    if (input.type === 'purchase') {
      const { number } = checkBody(input.purchase, purchaseSchema, { where: 'purchase' });
      requireE164(number, 'purchase.number');
      return add(number, 'PSTN');
    }
    if (input.type === 'sip_import') {
      const sip = checkBody(input.sipImport, sipImportSchema, { where: 'sipImport' });
      requireE164(sip.phoneNumber, 'sipImport.phoneNumber');
      requireNonEmpty(sip.terminationUri, 'sipImport.terminationUri');
      return add(sip.phoneNumber, 'PSTN');
    }
    const sip = checkBody(input.vogentSip, vogentSipSchema, { where: 'vogentSip' });
    if (sip.username.length < 5) throw unprocessable('vogentSip.username must have at least 5 characters');
    if (sip.password.length < 5) throw unprocessable('vogentSip.password must have at least 5 characters');
    return add(`${sip.sipPrefix}${sip.username}`, 'SIP_USERNAME');
  }

  /** Candidates `+<code><prefix><digits>` not already in the workspace, the same for the same query. */
  function search(body: unknown): PhoneNumberCandidate[] {
    const input = checkBody(body, searchSchema);
    const { prefix } = input;
    if (!/^\d{1,6}$/.test(prefix)) throw unprocessable('prefix must be 1 to 6 digits, without the country code');
    const country = (input.country ?? 'US').toUpperCase();
    const code = CALLING_CODES[country];
    if (!code)
      throw unprocessable(
        `the emulator has no numbers in ${country}; try one of ${Object.keys(CALLING_CODES).join(', ')}`,
      );
    const limit = input.limit ?? 5;
    if (limit < 1 || limit > 10) throw unprocessable('limit must be from 1 to 10');
    const length = code === '1' ? 10 : 9;
    const candidates: PhoneNumberCandidate[] = [];
    for (let serial = 0; candidates.length < limit && serial < 10_000; serial++) {
      const rest = String(serial).padStart(length - prefix.length, '0');
      const number = `+${code}${prefix}${rest}`.slice(0, 1 + code.length + length);
      if (!owned(number)) candidates.push({ number });
    }
    return candidates;
  }

  function linkAgent(numberId: string, body: unknown): PhoneNumberRecord {
    const record = store.phoneNumbers.require(numberId);
    // The schema makes it present and not null ("empty string to unlink").
    const { agentId } = checkBody(body, linkSchema);
    if (agentId !== '' && !store.agents.has(agentId))
      throw unprocessable(`no agent with id ${JSON.stringify(agentId)}`);
    record.agentId = agentId === '' ? null : agentId;
    return structuredClone(record);
  }

  function buildPool(body: unknown, existing?: PhoneNumberPoolRecord): PhoneNumberPoolRecord {
    const input = existing ? checkPatch(body, poolSchema) : checkBody(body, poolSchema);
    const name = input.name ?? existing?.name ?? '';
    requireNonEmpty(name, 'name');
    const ids = input.phoneNumberIds ?? existing?.phoneNumberIds ?? [];
    for (const id of ids)
      if (!store.phoneNumbers.has(id)) throw unprocessable(`no phone number with id ${JSON.stringify(id)}`);
    return {
      id: existing?.id ?? store.newId(),
      name,
      phoneNumberIds: [...new Set(ids)],
      createdAt: existing?.createdAt ?? nowIso(),
    };
  }

  const pools = recordHandlers(() => store.pools, buildPool);

  return [
    {
      pattern: /^\/phone_numbers$/,
      methods: {
        GET: (request) => page(store.phoneNumbers.values(), request),
        POST: ({ body }) => create(body),
      },
    },
    { pattern: /^\/phone_numbers\/search$/, methods: { POST: ({ body }) => search(body) } },
    {
      pattern: /^\/phone_numbers\/purchase$/,
      methods: {
        // Deprecated in the seed ("use /phone_numbers instead"); kept for older integrations.
        POST: ({ body }) => {
          const { number } = checkBody(body, purchaseSchema);
          requireE164(number, 'number');
          return add(number, 'PSTN');
        },
      },
    },
    {
      pattern: /^\/phone_numbers\/([^/]+)$/,
      methods: {
        GET: ({ param }) => store.phoneNumbers.copy(param(0)),
        PUT: ({ param, body }) => linkAgent(param(0), body),
        DELETE: ({ param }) => {
          const record = store.phoneNumbers.require(param(0));
          store.phoneNumbers.delete(record.id);
          for (const pool of store.pools.values())
            pool.phoneNumberIds = pool.phoneNumberIds.filter((id) => id !== record.id);
          return record;
        },
      },
    },
    {
      pattern: /^\/phone_number_pools$/,
      methods: { GET: () => structuredClone(store.pools.values()), POST: pools.create },
    },
    { pattern: /^\/phone_number_pools\/([^/]+)$/, methods: { GET: pools.read, PUT: pools.update } },
  ];
}
