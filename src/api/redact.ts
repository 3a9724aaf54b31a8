// Token-shaped text taken out of what the service says before it reaches a log: a service that
// echoes the dial token (or any credential) in an error message must not put it in the log.

const REDACTED = '[redacted]';

/** `Bearer <credential>`, `token=<credential>`, `"token": "<credential>"` and the like: the credential. */
const NAMED_CREDENTIAL =
  /\b(bearer|token|authToken|apiKey|api[_-]?key|secret|password)(["']?\s*[:=]?\s*["']?|\s+)([^\s"',;]+)/gi;
/** A JWT (three base64url parts, the first a JSON header). */
const JWT = /\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]*)?/g;
/** A run that could be an opaque token: long, without spaces. */
const OPAQUE_RUN = /[A-Za-z0-9_\-+/=~.]{20,}/g;
/** Ids the service names on purpose (a dial's, a room's): kept, they identify and grant nothing. */
const ID = /^(?:[a-z]+-)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a run without spaces looks like a secret: random-looking letters and digits, not an id or a word. */
function tokenShaped(run: string): boolean {
  if (ID.test(run)) return false;
  const digits = /[0-9]/.test(run);
  const lower = /[a-z]/.test(run);
  const upper = /[A-Z]/.test(run);
  return (run.length >= 20 && digits && lower && upper) || (run.length >= 32 && digits && (lower || upper));
}

/** A value after a credential's name: 8 characters or more, with a digit or mixed case (not a word like "expired"). */
function credentialShaped(value: string): boolean {
  return (
    value !== REDACTED && value.length >= 8 && (/[0-9]/.test(value) || (/[a-z]/.test(value) && /[A-Z]/.test(value)))
  );
}

/** `text` with every token-shaped part replaced by `[redacted]`. */
export function redactTokens(text: string): string {
  return text
    .replace(JWT, REDACTED)
    .replace(NAMED_CREDENTIAL, (match, name: string, separator: string, value: string) =>
      credentialShaped(value) ? `${name}${separator}${REDACTED}` : match,
    )
    .replace(OPAQUE_RUN, (run) => (tokenShaped(run) ? REDACTED : run));
}
