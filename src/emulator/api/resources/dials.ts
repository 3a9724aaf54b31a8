// The dials: create (idempotent), read, token, hang up. Their state and lifecycle live in the
// store (`store.dials`); the body is the seed's CreateDialInput (dial-input.ts).
import { parseCreateDial, type DialLookup } from '../dial-input.js';
import { isTerminal } from '../dial-lifecycle.js';
import { ApiError, badRequest, notFound } from '../errors.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../idempotency.js';
import type { CreateDialOutput, DialRecord, DialTokenOutput } from '../records.js';
import type { Store } from '../store.js';
import { agentWithOverrides } from './agents.js';
import type { ResourceRequest, ResourceRoute } from './route.js';

/** What `POST /dials` checks its ids against, and its agent with `agentOverrides` applied. */
function dialLookup(store: Store): DialLookup {
  return {
    agentForDial(id, overrides) {
      const agent = store.agentForDial(id);
      return agent && overrides ? agentWithOverrides(store, agent, overrides) : agent;
    },
    hasPhoneNumber: (id) => store.phoneNumbers.has(id),
    hasPhoneNumberPool: (id) => store.pools.has(id),
    hasVoice: (id) => store.voices.has(id),
    hasPrompt: (agentId, promptId) => store.prompts.get(agentId)?.has(promptId) ?? false,
    hasExtractor: (agentId, extractorId) => store.extractors.get(agentId)?.has(extractorId) ?? false,
  };
}

export function dialRoutes(store: Store): ResourceRoute[] {
  const lookup = dialLookup(store);

  function createDial({ body, header }: ResourceRequest): Promise<CreateDialOutput> {
    const parsed = parseCreateDial(body, lookup);
    const headerKey = header('idempotency-key') ?? null;
    if (headerKey !== null && (headerKey === '' || headerKey.length > MAX_IDEMPOTENCY_KEY_LENGTH)) {
      throw badRequest(`Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
    }
    if (headerKey !== null && parsed.idempotencyKey !== null && headerKey !== parsed.idempotencyKey) {
      throw badRequest('the Idempotency-Key header and the idempotencyKey body field differ');
    }
    const key = headerKey ?? parsed.idempotencyKey;
    const create = () => {
      const { dialId, sessionId } = store.dials.create(parsed.input);
      const answer = store.issueDialToken(dialId).then((dialToken) => ({ dialToken, sessionId, dialId }));
      return { dialId, sessionId, answer };
    };
    return key === null ? create().answer : store.idempotency.run(key, parsed.fingerprint, create);
  }

  function getDial({ param }: ResourceRequest): DialRecord {
    const record = store.dials.record(param(0));
    if (!record) throw notFound('no such dial');
    return record;
  }

  async function dialToken({ param }: ResourceRequest): Promise<DialTokenOutput> {
    const dialId = param(0);
    const { status } = store.dialStates.require(dialId);
    if (isTerminal(status)) {
      throw new ApiError('dial_ended', `the dial has already ended (${status})`, { status });
    }
    const token = await store.issueDialToken(dialId);
    store.dials.tokenIssued(dialId);
    return { dialToken: token };
  }

  async function hangupDial({ param }: ResourceRequest) {
    const dialId = param(0);
    store.dialStates.require(dialId);
    // Answered once the room has let go of the call (see DialLifecycle.hangup).
    await store.dials.hangup(dialId);
    return { success: true } satisfies { success: boolean };
  }

  return [
    { pattern: /^\/dials$/, methods: { POST: createDial } },
    { pattern: /^\/dials\/([^/]+)$/, methods: { GET: getDial } },
    { pattern: /^\/dials\/([^/]+)\/token$/, bodyType: 'none', methods: { POST: dialToken } },
    { pattern: /^\/dials\/([^/]+)\/hangup$/, bodyType: 'none', methods: { POST: hangupDial } },
  ];
}
