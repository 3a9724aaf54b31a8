// How a call ends, as data: every way a call can end is a row of `ENDINGS`, which says the reason
// it reports, how the dial is hung up, whether its record is read and may name the reason, and
// which `call-error` it reports. `CallSession`'s one `#end` follows the row; nothing else ends a call.
import { isTerminal, type DialRecord } from './companion-client.js';
import type { CallErrorCode, ReportedError } from './error-codes.js';
import type { CallResult, EndReason, NonSpeechLine, TranscriptEntry } from './types.js';

export interface TeardownSteps {
  /** Hang the dial up, awaited, before leaving the room. */
  hangupFirst?: true;
  /** A final dial record names the reason (`endReasonFromResult`). */
  fromRecord?: true;
  /** Read the dial's record after leaving the room: until final (bounded by `resultTimeoutMs`), once, or not at all. */
  read: 'poll' | 'once' | 'none';
  /** Hang up at once without waiting for an answer, and end the call at once. */
  now?: 'keepalive' | 'beacon';
}

/**
 * What ending a call does with its dial, after the state is `ending` and its steps are aborted.
 * Each leaves the room and lets go of the microphone and the audio, then reads the dial's record;
 * a dial still live after that gets a keepalive hang-up.
 */
export const TEARDOWNS = {
  /** This side ends the call: the dial is hung up first (awaited), the record read until final. */
  ours: { hangupFirst: true, read: 'poll' },
  /** The other side ended it: the record, read until final, names the reason. */
  theirs: { fromRecord: true, read: 'poll' },
  /** A setup step failed, or the room went before the call was up: a dial already over (e.g. at capacity) says why in one read. */
  setup: { fromRecord: true, read: 'once' },
  /** Nothing was spent: no dial exists to hang up or read. */
  unspent: { read: 'none' },
  /** Without waiting (the element left the document): a keepalive hang-up, and the call ends at once. */
  keepalive: { now: 'keepalive', read: 'none' },
  /** Without waiting (the page is going away): a beacon hang-up, and the call ends at once. */
  beacon: { now: 'beacon', read: 'none' },
  /** The dial goes on elsewhere (another tab took it up): nothing hung up, nothing read. */
  handedOver: { read: 'none' },
} as const satisfies Record<string, TeardownSteps>;

export interface EndPlan {
  /** The reason reported, unless the teardown lets a final dial record name it. */
  reason: EndReason;
  teardown: keyof typeof TEARDOWNS;
  /** The `call-error` it reports (the caller gives the message); a failed setup step gives its own. */
  code?: CallErrorCode;
  /** With `code`: whether starting a new call may help. */
  recoverable?: boolean;
}

/** Every way a call ends: the reason it reports, its teardown, and its `call-error`. */
export const ENDINGS = {
  'unsupported-browser': {
    reason: 'unsupported-browser',
    teardown: 'unspent',
    code: 'unsupported_browser',
    recoverable: false,
  },
  'microphone-denied': {
    reason: 'microphone-denied',
    teardown: 'unspent',
    code: 'microphone_denied',
    recoverable: false,
  },
  'microphone-unavailable': {
    reason: 'microphone-unavailable',
    teardown: 'unspent',
    code: 'microphone_unavailable',
    recoverable: true,
  },
  /**
   * Another call on the page is live (one live call per page): refused before anything is spent.
   * The visitor is in a conversation already; ending it for them would lose it.
   */
  'call-in-progress': {
    reason: 'setup-failed',
    teardown: 'unspent',
    code: 'call_in_progress',
    recoverable: true,
  },
  /** The caller gives the code (`setupFailure`), and `busy` for a rate limit. */
  'setup-failed': { reason: 'setup-failed', teardown: 'setup' },
  'network-lost-joining': { reason: 'network-lost', teardown: 'setup', code: 'network_lost', recoverable: true },
  'user-hangup': { reason: 'user-hangup', teardown: 'ours' },
  'agent-timeout': { reason: 'agent-unavailable', teardown: 'ours' },
  'microphone-lost': {
    reason: 'microphone-unavailable',
    teardown: 'ours',
    code: 'microphone_unavailable',
    recoverable: true,
  },
  'network-lost': { reason: 'network-lost', teardown: 'ours', code: 'network_lost', recoverable: true },
  'session-start-failed': {
    reason: 'setup-failed',
    teardown: 'ours',
    code: 'session_start_failed',
    recoverable: true,
  },
  'agent-left': { reason: 'agent-hangup', teardown: 'theirs' },
  'room-closed': { reason: 'failed', teardown: 'theirs' },
  /** The service or the record says the dial is over; the caller names the reason the service gave. */
  'dial-ended': { reason: 'failed', teardown: 'theirs' },
  'element-removed': { reason: 'element-removed', teardown: 'keepalive' },
  'page-unload': { reason: 'page-unload', teardown: 'beacon' },
  /** The room let this connection go for a newer one of the same caller (DUPLICATE_IDENTITY): another tab has the call. */
  moved: { reason: 'moved', teardown: 'handedOver' },
} as const satisfies Record<string, EndPlan>;

export type Ending = keyof typeof ENDINGS;

/** What the place that ends a call knows and the table cannot. */
export interface EndDetail {
  /** Instead of the row's reason (a failed setup step that is `busy`, the reason a service gave). */
  reason?: EndReason;
  /** The message of the row's `call-error`. */
  message?: string;
  /** The whole `call-error`, for a row without one (a failed setup step). */
  error?: ReportedError;
  /** With `unsupported_browser`: what the browser lacks. */
  missing?: ReportedError['missing'];
}

/** One call's end as planned: its row, and the reason and error it reports unless the record says otherwise. */
export interface PlannedEnd {
  readonly steps: TeardownSteps;
  readonly reason: EndReason;
  readonly error?: ReportedError;
}

export function planEnd(ending: Ending, detail: EndDetail = {}): PlannedEnd {
  const plan: EndPlan = ENDINGS[ending];
  const steps: TeardownSteps = TEARDOWNS[plan.teardown];
  const reason = detail.reason ?? plan.reason;
  const { code, recoverable = true } = plan;
  const error =
    detail.error ??
    (code && {
      code,
      message: detail.message ?? reason.replace('-', ' '),
      recoverable,
      ...(detail.missing ? { missing: detail.missing } : {}),
    });
  return error ? { steps, reason, error } : { steps, reason };
}

/** The reason and error a call ends with, once its dial's record was read (or not). */
export function settle(end: PlannedEnd, record: DialRecord | null): { reason: EndReason; error?: ReportedError } {
  // A join that failed after the room saw us leave reads USER_HANGUP; the visitor did not hang up.
  const ownLeave = end.reason === 'setup-failed' && record?.systemResultType === 'USER_HANGUP';
  // A call handed to a person (talk to a person) ends `transferred` when the visitor then hangs
  // up: the service records the whole call TRANSFERRED.
  if (end.reason === 'user-hangup' && record && isTerminal(record) && record.systemResultType === 'TRANSFERRED')
    return { reason: 'transferred' };
  if (end.steps.fromRecord && record && isTerminal(record) && !ownLeave) {
    const reason = endReasonFromResult(record.systemResultType, record.status);
    if (reason !== end.reason) return { reason };
  }
  return end.error ? { reason: end.reason, error: end.error } : { reason: end.reason };
}

/** The microphone request failed: refused (until the visitor allows it), or no microphone to use. */
export function microphoneEnding(error: unknown): {
  ending: 'microphone-denied' | 'microphone-unavailable';
  message: string;
} {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  const denied = name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError';
  const ending = denied ? 'microphone-denied' : 'microphone-unavailable';
  return { ending, message: error instanceof Error && error.message ? error.message : ending.replace('-', ' ') };
}

/** The service's `systemResultType` as the visitor's `EndReason`. */
const REASON_OF_RESULT: Readonly<Record<string, EndReason>> = {
  AGENT_HANGUP: 'agent-hangup',
  // For a browser call the counterparty is the visitor.
  USER_HANGUP: 'user-hangup',
  COUNTERPARTY_HANGUP: 'user-hangup',
  TIMEOUT: 'timeout',
  LONG_SILENCE_HANGUP: 'silence',
  TRANSFERRED: 'transferred',
  RATE_LIMITED: 'busy',
  BUSY: 'busy',
  CANCELLED: 'cancelled',
  // The agent never picked up: for a browser call that is the agent not joining.
  NO_ANSWER: 'agent-unavailable',
  FAILED: 'failed',
};

/** A final dial status without a `systemResultType`, as an `EndReason`. */
const REASON_OF_STATUS: Readonly<Record<string, EndReason>> = {
  busy: 'busy',
  canceled: 'cancelled',
  cancelled: 'cancelled',
  'no-answer': 'agent-unavailable',
};

/** The service's result of a dial as the visitor's `EndReason`; `failed` for anything else. */
export function endReasonFromResult(systemResultType: string | null | undefined, status?: string): EndReason {
  const reason = systemResultType ? REASON_OF_RESULT[systemResultType] : status && REASON_OF_STATUS[status];
  return reason || 'failed';
}

/** What `call-ended` carries: the reason, the transcript, and what the dial's record said. */
export function callResult(parts: {
  dialId: string | null;
  reason: EndReason;
  transcript: TranscriptEntry[];
  record: DialRecord | null;
  error: ReportedError | undefined;
  nonSpeechLines: NonSpeechLine[] | undefined;
}): CallResult {
  const { record, error, nonSpeechLines } = parts;
  const result: CallResult = { dialId: parts.dialId, reason: parts.reason, transcript: parts.transcript };
  if (record) {
    result.status = record.status;
    result.systemResultType = record.systemResultType;
    result.durationSeconds = record.durationSeconds;
    result.aiDurationSeconds = record.aiDurationSeconds;
    result.startedAt = record.startedAt;
    result.endedAt = record.endedAt;
    result.aiResult = record.aiResult ?? null;
  }
  if (error) {
    result.error = { code: error.code, message: error.message };
    if (error.missing) result.error.missing = [...error.missing];
  }
  if (nonSpeechLines?.length) result.nonSpeechLines = nonSpeechLines;
  return result;
}
