// What the companion reads from request bodies: bytes up to the limit as UTF-8 text, JSON, the
// create's `{ agent?, inputs? }` checked against the config, a rating's `{ rating, comment? }`,
// and the handle a `sendBeacon` hang-up carries. Every refusal is an `HttpError` (400 or 413). Web APIs only.
import { isPlainObject } from './checks.js';
import type { CompanionSettings } from './config.js';
import { HttpError } from './errors.js';
import type { CompanionRequest } from './exchange.js';
import { declaredOver } from '../shared/capped-body.js';
import { MAX_FEEDBACK_COMMENT, type FeedbackBody, type LeaveBody, type TokenBody } from '../wire/companion.js';

export { MAX_FEEDBACK_COMMENT };

const BODY_FIELDS = new Set(['agent', 'inputs']);
const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i;

/** The body as text: at most `maxBodyBytes` (413 past it, declared or streamed), UTF-8 (400 otherwise). */
export async function readBody(request: CompanionRequest, maxBodyBytes: number): Promise<string> {
  if (declaredOver(request.header('content-length'), maxBodyBytes))
    throw new HttpError('payload_too_large', `the request body exceeds ${maxBodyBytes} bytes`);
  const bytes = await request.readBody(maxBodyBytes);
  if (bytes === null) throw new HttpError('payload_too_large', `the request body exceeds ${maxBodyBytes} bytes`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError('invalid_request', 'the request body is not UTF-8');
  }
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError('invalid_request', 'the request body is not valid JSON');
  }
}

/** What a create asks for, checked: the agent id its name maps to and the allowed inputs. */
export interface DialRequest {
  callAgentId: string;
  callAgentInput: Record<string, string>;
}

type DialRequestSettings = Pick<CompanionSettings, 'agents' | 'allowedInputs' | 'maxInputLength' | 'maxBodyBytes'>;

/**
 * `POST /dials`'s body: JSON `{ agent?, inputs? }` (or none). Unknown fields and agents are
 * refused; `inputs` keys off the allow-list are dropped, allowed ones must be short strings.
 */
export async function readDialRequest(request: CompanionRequest, settings: DialRequestSettings): Promise<DialRequest> {
  const text = await readBody(request, settings.maxBodyBytes);
  const contentType = request.header('content-type');
  if (text.trim() !== '' && (contentType === null || !JSON_TYPE.test(contentType))) {
    throw new HttpError('invalid_request', 'send the body as application/json');
  }
  const body = text.trim() === '' ? {} : parseJson(text);
  if (!isPlainObject(body)) throw new HttpError('invalid_request', 'the body must be a JSON object');
  const unknownField = Object.keys(body).find((field) => !BODY_FIELDS.has(field));
  if (unknownField !== undefined)
    throw new HttpError('invalid_request', 'the body may only have the fields agent and inputs');
  const agentName = body.agent ?? 'default';
  if (typeof agentName !== 'string') throw new HttpError('invalid_request', 'agent must be a string');
  const callAgentId = Object.hasOwn(settings.agents, agentName) ? settings.agents[agentName] : undefined;
  if (callAgentId === undefined) throw new HttpError('invalid_request', 'unknown agent');
  const inputs = body.inputs ?? {};
  if (!isPlainObject(inputs)) throw new HttpError('invalid_request', 'inputs must be an object of strings');
  const callAgentInput: Record<string, string> = {};
  for (const key of settings.allowedInputs) {
    if (!Object.hasOwn(inputs, key)) continue;
    const value = inputs[key];
    if (typeof value !== 'string') throw new HttpError('invalid_request', `inputs.${key} must be a string`);
    if (value.length > settings.maxInputLength)
      throw new HttpError('invalid_request', `inputs.${key} is longer than ${settings.maxInputLength} characters`);
    callAgentInput[key] = value;
  }
  return { callAgentId, callAgentInput };
}

/**
 * The handle of a hang-up sent without an `Authorization` header: `navigator.sendBeacon` cannot
 * set headers, so it comes in the body (JSON, text/plain or a typed Blob). Undefined when absent.
 */
export async function readBeaconHandle(request: CompanionRequest, maxBodyBytes: number): Promise<string | undefined> {
  const text = await readBody(request, maxBodyBytes);
  if (text.trim() === '') return undefined;
  const body = parseJson(text);
  return isPlainObject(body) && typeof body.handle === 'string' ? body.handle : undefined;
}

/** A time in ms since the epoch as the browser sent it; undefined when absent or not one. */
const timeOrUndefined = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;

/**
 * `POST /dials/:id/leave`'s body (JSON, text/plain or a typed Blob, as a beacon sends it; may be
 * empty with a Bearer header): the handle and when the page left, each undefined when absent.
 */
export async function readLeaveBody(request: CompanionRequest, maxBodyBytes: number): Promise<LeaveBody> {
  const text = await readBody(request, maxBodyBytes);
  if (text.trim() === '') return {};
  const body = parseJson(text);
  if (!isPlainObject(body)) return {};
  const leftAt = timeOrUndefined(body.leftAt);
  return {
    ...(typeof body.handle === 'string' ? { handle: body.handle } : {}),
    ...(leftAt !== undefined ? { leftAt } : {}),
  };
}

/** `POST /dials/:id/token`'s optional body: `{ resumeOf }` (a rejoin after a leave); none is `{}`. */
export async function readTokenBody(request: CompanionRequest, maxBodyBytes: number): Promise<TokenBody> {
  const text = await readBody(request, maxBodyBytes);
  if (text.trim() === '') return {};
  const body = parseJson(text);
  if (!isPlainObject(body) || Object.keys(body).some((field) => field !== 'resumeOf'))
    throw new HttpError('invalid_request', 'the body may only have the field resumeOf');
  if (body.resumeOf === undefined) return {};
  const resumeOf = timeOrUndefined(body.resumeOf);
  if (resumeOf === undefined) throw new HttpError('invalid_request', 'resumeOf must be a time in ms');
  return { resumeOf };
}

const FEEDBACK_FIELDS = new Set(['rating', 'comment']);

/** A visitor's rating of a call, checked; the comment trimmed, absent when none or empty. */
export type FeedbackRequest = FeedbackBody;

/** `POST /dials/:id/feedback`'s body: JSON `{ rating: 'up' | 'down', comment? }` (a string of at most 500 characters), nothing else. */
export async function readFeedbackRequest(request: CompanionRequest, maxBodyBytes: number): Promise<FeedbackRequest> {
  const text = await readBody(request, maxBodyBytes);
  const contentType = request.header('content-type');
  if (contentType === null || !JSON_TYPE.test(contentType)) {
    throw new HttpError('invalid_request', 'send the body as application/json');
  }
  const body = parseJson(text);
  if (!isPlainObject(body)) throw new HttpError('invalid_request', 'the body must be a JSON object');
  if (Object.keys(body).some((field) => !FEEDBACK_FIELDS.has(field)))
    throw new HttpError('invalid_request', 'the body may only have the fields rating and comment');
  const { rating, comment } = body;
  if (rating !== 'up' && rating !== 'down') throw new HttpError('invalid_request', "rating must be 'up' or 'down'");
  if (comment === undefined || comment === null) return { rating };
  if (typeof comment !== 'string') throw new HttpError('invalid_request', 'comment must be a string');
  if (comment.length > MAX_FEEDBACK_COMMENT)
    throw new HttpError('invalid_request', `comment is longer than ${MAX_FEEDBACK_COMMENT} characters`);
  const trimmed = comment.trim();
  return trimmed ? { rating, comment: trimmed } : { rating };
}
