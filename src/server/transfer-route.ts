// Talk to a person, the companion's side: `POST /dials/:id/transfer` asks the service to hand the
// live call to the number the site owner configured for the dial's agent (`transferNumber`,
// `transferNumbers`), through its GraphQL `hangupCall(dialId, transferNumber)`. Guarded like the
// hang-up (host, origin, handle, per-dial limit); at most one transfer per dial; nothing in the
// request chooses the number. Without a number for the dial's agent the route answers 404.
import type { CompanionSettings } from './config.js';
import { authorize, limitDialCall, rateLimited, type Exchange } from './dial-routes.js';
import { HttpError, jsonAnswer } from './errors.js';
import type { CompanionAnswer } from './exchange.js';
import { upstreamFailure } from './upstream-errors.js';
import { ServiceError } from '../api/service-error.js';
import { redactTokens } from '../api/redact.js';

const NOT_OFFERED = 'talking to a person is not offered for this call';

/** `POST /dials/:id/transfer`: the service accepted the transfer (`{ success: true }`), or an error answer. */
export async function transfer(
  settings: CompanionSettings,
  exchange: Exchange,
  dialId: string,
): Promise<CompanionAnswer> {
  const { service } = settings;
  const transferCall = service.transferCall?.bind(service);
  if (settings.transferNumbers.size === 0 || !transferCall)
    throw new HttpError('not_found', NOT_OFFERED, { reason: 'no transfer number configured' });
  await authorize(settings, exchange, dialId);
  await limitDialCall(settings, exchange, dialId, 'transfer');
  const { signal } = exchange.request;
  let dial;
  try {
    dial = await service.getDial(dialId, { signal });
  } catch (error) {
    throw upstreamFailure(error, 'read');
  }
  // The record names its agent (`agent.id`, the seed's getDial); the number is the one configured for it.
  const agent: unknown = dial.agent;
  const agentId = typeof agent === 'object' && agent !== null ? (agent as { id?: unknown }).id : undefined;
  const number = typeof agentId === 'string' ? settings.transferNumbers.get(agentId) : undefined;
  if (number === undefined)
    throw new HttpError('not_found', NOT_OFFERED, { reason: "no transfer number for the dial's agent" });
  if (dial.status !== 'in-progress')
    throw new HttpError('duplicate_request', 'the call is not live; there is nothing to transfer', {
      reason: `transfer asked for a dial that is ${String(dial.status).slice(0, 20)}`,
    });
  const verdict = await settings.limiters.transferPerDial.take(dialId);
  if (!verdict.allowed) {
    // Nothing says the dial was transferred while the store cannot be asked: a 429, not a 409.
    if (verdict.storeUnreachable)
      throw rateLimited('transfers cannot be taken right now; try again later', verdict, 'transfer-per-dial');
    throw new HttpError('duplicate_request', 'this call was already handed to a person once', {
      reason: 'transfer-per-dial limit',
    });
  }
  let answer;
  try {
    answer = await transferCall(dialId, number, { signal });
  } catch (error) {
    throw transferFailure(error);
  }
  if (!answer.success)
    throw new HttpError('upstream_error', 'the calling service did not transfer the call', {
      reason: 'hangupCall with a transferNumber answered false',
    });
  exchange.reason = 'transferred to the configured number';
  return jsonAnswer(200, { success: true });
}

/** The service refused or failed the transfer: the visitor reads that it did not happen; the log reads why. */
function transferFailure(error: unknown): HttpError {
  if (!(error instanceof ServiceError) || error.code !== 'graphql_error') return upstreamFailure(error, 'hangup');
  const said = error.serviceMessages.map((message) => redactTokens(message)).join(' | ');
  return new HttpError('upstream_error', 'the calling service did not transfer the call', {
    reason: `hangupCall with a transferNumber: ${error.message}${said ? `; the service said: ${said}` : ''}`,
  });
}
