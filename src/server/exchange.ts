// What the handler's core reads of a request and what it answers: a few fields, not a Web
// `Request`/`Response`. The Fetch adapter is here (the public `(Request) => Response` handler);
// node.ts makes the same shape straight from an IncomingMessage, so on Node no Request, Headers,
// follow-up AbortSignal, Response or response body stream is built per request (together they
// were a fifth of the companion's CPU per read under load). Web APIs only.
import { readWebBody } from '../shared/capped-body.js';

/** A request as the handler's core sees it. */
export interface CompanionRequest {
  method: string;
  /** The path as WHATWG `URL` gives it (`url.pathname`): dot segments resolved, no query. */
  pathname: string;
  /** `http:` or `https:`, as `url.protocol`. */
  protocol: string;
  /** As `url.host`: lower case, default port left out. */
  host: string;
  /** A header's value (several joined by ", ", as `Headers.get`), or null when absent. */
  header(name: string): string | null;
  /** The body's bytes (empty when there is none), or null when it is longer than `maxBytes`. */
  readBody(maxBytes: number): Promise<Uint8Array | null>;
  /** Aborted when the client goes away before its answer is sent. */
  readonly signal: AbortSignal;
}

/** The handler's answer: JSON text (or no body) with lower-case header names. */
export interface CompanionAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

export function fromFetchRequest(request: Request): CompanionRequest {
  const url = new URL(request.url);
  return {
    method: request.method,
    pathname: url.pathname,
    protocol: url.protocol,
    host: url.host,
    header: (name) => request.headers.get(name),
    readBody: (maxBytes) => readWebBody(request.body, maxBytes),
    signal: request.signal,
  };
}

export function toFetchResponse(answer: CompanionAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}
