// What a page with `persist` keeps in the tab's `sessionStorage` when it goes away mid-call, so the
// next page of the site rejoins the same dial: the dial and its handle, the endpoint (a page for
// another endpoint does not take it), the transcript so far, when the call connected, the mute and
// the hold. One record per tab (`sessionStorage` is per tab and per origin). Small and free of
// other imports: the element's idle entry reads it to know whether to resume without a click.
import type { TranscriptEntry } from '../../call/types.js';

export const RESUME_KEY = 'voice-agent-call:resume';

/**
 * How long after the page left a record is still taken: the companion's default grace
 * (`COMPANION_RESUME_GRACE_SECONDS`, 30). Past it the companion has hung the dial up (or will), so
 * a later page starts nothing and removes the record.
 */
export const RESUME_WINDOW_MS = 30_000;

export interface ResumeRecord {
  v: 1;
  dialId: string;
  handle: string;
  /** The companion offered a transfer for this dial. */
  transfer?: true;
  /** The endpoint as an absolute URL (a relative one is read against the page that stored it). */
  endpoint: string;
  agent?: string;
  transcript: TranscriptEntry[];
  /** `Date.now()` when the call first connected: the timer counts from it on every page. */
  startedAt: number;
  /** When the visitor agreed to the consent gate (ISO 8601), when one applied. */
  consentAt?: string;
  muted: boolean;
  held: boolean;
  /** `Date.now()` when the page left. */
  leftAt: number;
}

/** The endpoint as an absolute URL without trailing slashes, so `/api/voice-call` and its full URL match. */
export function endpointKey(endpoint: string): string {
  try {
    return new URL(endpoint, location.href).href.replace(/\/+$/, '');
  } catch {
    return endpoint;
  }
}

function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    // Storage blocked (a sandboxed frame, privacy settings): nothing persists.
    return null;
  }
}

const isRecord = (value: unknown): value is ResumeRecord => {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Partial<ResumeRecord>;
  return (
    record.v === 1 &&
    typeof record.dialId === 'string' &&
    typeof record.handle === 'string' &&
    typeof record.endpoint === 'string' &&
    typeof record.startedAt === 'number' &&
    typeof record.leftAt === 'number' &&
    Array.isArray(record.transcript)
  );
};

/**
 * The record for `endpoint`, when there is one left less than `RESUME_WINDOW_MS` ago. A record too
 * old, unreadable or from a page in the future is removed; one for another endpoint is left alone.
 */
export function findResumeRecord(endpoint: string, now = Date.now()): ResumeRecord | null {
  const store = storage();
  let text: string | null = null;
  try {
    text = store?.getItem(RESUME_KEY) ?? null;
  } catch {
    return null;
  }
  if (text === null) return null;
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    record = null;
  }
  if (!isRecord(record) || now - record.leftAt > RESUME_WINDOW_MS || record.leftAt > now + 1000) {
    removeResumeRecord();
    return null;
  }
  return record.endpoint === endpointKey(endpoint) ? record : null;
}

export function saveResumeRecord(record: ResumeRecord): void {
  try {
    storage()?.setItem(RESUME_KEY, JSON.stringify(record));
  } catch {
    // Full or blocked: the next page starts fresh, and the companion's grace ends the dial.
  }
}

/** Removes the record, or only the one of `dialId` when given (another tab's call is not this one's to drop). */
export function removeResumeRecord(dialId?: string): void {
  const store = storage();
  try {
    if (dialId !== undefined) {
      const text = store?.getItem(RESUME_KEY);
      if (!text || !text.includes(JSON.stringify(dialId))) return;
    }
    store?.removeItem(RESUME_KEY);
  } catch {
    // Blocked: nothing was stored either.
  }
}
