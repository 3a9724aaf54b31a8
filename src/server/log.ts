// One JSON line per request (and per warning). The default writes to stderr through
// `console.error`, which exists in Node, Workers, Deno and Bun. Entries never carry the API key,
// the secret, a handle or an upstream body: only what is listed here.

export interface CompanionLogEntry {
  time: string;
  level: 'info' | 'warn' | 'error';
  /** Route pattern, e.g. `POST /dials/:id/token`, or `-` when none matched. */
  route?: string;
  method?: string;
  status?: number;
  durationMs?: number;
  dialId?: string;
  /** Error code of the answer, when it was an error. */
  code?: string;
  /** Why an error happened, in the companion's own words (never an upstream body). */
  reason?: string;
  message?: string;
}

export type CompanionLogger = (entry: CompanionLogEntry) => void;

export const consoleLogger: CompanionLogger = (entry) => {
  console.error(JSON.stringify(entry));
};

export const silentLogger: CompanionLogger = () => {};
