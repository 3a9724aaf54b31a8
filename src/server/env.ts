// Companion config from environment variables (README: "Run it as a process"). Takes the variables as a plain
// object, so Workers (`env`), Deno (`Deno.env.toObject()`) and Node (`process.env`) can all use it.
import { isLoopbackHostname, mediaUrlProblem, normalizeOrigin, secretProblem, serviceUrlProblem } from './checks.js';
import { E164, MAX_TIMEOUT_MINUTES, MIN_METRICS_TOKEN_LENGTH } from './config.js';
import type { CompanionConfig } from './handler.js';
import type { NodeServerLimits } from './node.js';

export type Environment = Record<string, string | undefined>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  /** Every problem found, one sentence each (the message joins them). */
  readonly problems: readonly string[];

  constructor(problems: string | readonly string[]) {
    const all = typeof problems === 'string' ? [problems] : problems;
    super(all.join('; '));
    this.problems = all;
  }
}

/**
 * Runs each check, collecting every ConfigError instead of stopping at the first: a run reports all
 * of its configuration problems at once. `finish()` throws them together.
 */
export class ConfigProblems {
  readonly #problems: string[] = [];

  add(problem: string): void {
    this.#problems.push(problem);
  }

  /** The check's value, or undefined when it failed (its problems are kept). */
  check<T>(read: () => T): T | undefined {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      this.#problems.push(...error.problems);
      return undefined;
    }
  }

  finish(): void {
    if (this.#problems.length > 0) throw new ConfigError(this.#problems);
  }
}

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

function positiveInteger(env: Environment, name: string): number | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new ConfigError(`${name} must be a whole number ≥ 0`);
  return parsed;
}

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on']);
const FALSE_WORDS = new Set(['', '0', 'false', 'no', 'off']);

/** A yes/no variable: only clear words, so a typo cannot silently mean "no". */
function flag(env: Environment, name: string): boolean {
  const value = (env[name] ?? '').trim().toLowerCase();
  if (TRUE_WORDS.has(value)) return true;
  if (FALSE_WORDS.has(value)) return false;
  throw new ConfigError(`${name} must be 1/true/yes/on or 0/false/no/off, not ${JSON.stringify(env[name])}`);
}

function origins(env: Environment, name: string): string[] {
  try {
    return list(env[name]).map((origin) => normalizeOrigin(origin, name));
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : `${name} is not a comma list of origins`);
  }
}

/**
 * Reads: VOICE_AGENT_API_KEY (required), VOICE_AGENT_BASE_URL (required; https unless on loopback
 * or NODE_ENV=development), VOICE_AGENT_AGENT_ID or VOICE_AGENT_AGENTS (JSON name → id),
 * VOICE_AGENT_GRAPHQL_URL (default: the base URL's origin + /query), VOICE_AGENT_MEDIA_URL
 * (replaces the media url from browserDialToken), COMPANION_SECRET (required unless
 * NODE_ENV=development), COMPANION_ALLOWED_ORIGINS, COMPANION_PUBLIC_ORIGIN, COMPANION_ALLOWED_INPUTS,
 * COMPANION_TIMEOUT_MINUTES, COMPANION_RESUME_GRACE_SECONDS, COMPANION_RATE_LIMIT_PER_ADDRESS, COMPANION_RATE_LIMIT_TOTAL,
 * COMPANION_RATE_LIMIT_PER_DIAL, COMPANION_RATE_LIMIT_READS_PER_ADDRESS (per minute),
 * COMPANION_TRUST_PROXY (1/true/yes/on or 0/false/no/off), COMPANION_BASE_PATH, COMPANION_METRICS_TOKEN
 * (serves `GET {base}/metrics` to that bearer token, at least 16 characters), COMPANION_TRANSFER_NUMBER
 * and VOICE_AGENT_TRANSFER_NUMBERS (JSON agent name → number; both E.164: talk to a person).
 * Weak values are refused with a ConfigError naming the variable.
 */
export function companionConfigFromEnv(env: Environment): CompanionConfig {
  const problems = new ConfigProblems();
  const apiKey = env.VOICE_AGENT_API_KEY ?? '';
  if (apiKey.trim() === '') problems.add('VOICE_AGENT_API_KEY is required');
  const baseUrl = env.VOICE_AGENT_BASE_URL ?? '';
  const dev = env.NODE_ENV === 'development';
  if (!baseUrl) {
    problems.add('VOICE_AGENT_BASE_URL is required (the service API base URL, or the emulator apiUrl)');
  } else {
    const baseUrlProblem = serviceUrlProblem(baseUrl);
    if (baseUrlProblem && 'fatal' in baseUrlProblem) problems.add(`VOICE_AGENT_BASE_URL ${baseUrlProblem.fatal}`);
    else if (baseUrlProblem && !dev)
      problems.add(`VOICE_AGENT_BASE_URL ${baseUrlProblem.insecure} (allowed only with NODE_ENV=development)`);
  }
  if (env.VOICE_AGENT_MEDIA_URL) {
    const problem = mediaUrlProblem(env.VOICE_AGENT_MEDIA_URL);
    if (problem) problems.add(`VOICE_AGENT_MEDIA_URL ${problem}`);
  }
  let agents: Record<string, string> = {};
  let agentsInvalid = false;
  if (env.VOICE_AGENT_AGENTS) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(env.VOICE_AGENT_AGENTS);
    } catch {
      parsed = null;
    }
    if (
      typeof parsed !== 'object' ||
      parsed === null ||
      Array.isArray(parsed) ||
      !Object.values(parsed).every((id) => typeof id === 'string' && id)
    ) {
      problems.add('VOICE_AGENT_AGENTS must be a JSON object of agent name → agent id');
      agentsInvalid = true;
    } else {
      agents = parsed as Record<string, string>;
    }
  }
  if (env.VOICE_AGENT_AGENT_ID) agents = { default: env.VOICE_AGENT_AGENT_ID, ...agents };
  if (Object.keys(agents).length === 0 && !agentsInvalid)
    problems.add('set VOICE_AGENT_AGENT_ID or VOICE_AGENT_AGENTS');
  if (!env.COMPANION_SECRET && !dev)
    problems.add('COMPANION_SECRET is required (at least 32 characters); only NODE_ENV=development makes a random one');
  if (env.COMPANION_SECRET) {
    const problem = secretProblem(env.COMPANION_SECRET, apiKey, 32);
    if (problem) problems.add(`COMPANION_SECRET: ${problem}`);
  }

  const config: CompanionConfig = {
    apiKey,
    baseUrl,
    agents,
    dev,
    allowedOrigins: problems.check(() => origins(env, 'COMPANION_ALLOWED_ORIGINS')) ?? [],
    allowedInputs: list(env.COMPANION_ALLOWED_INPUTS),
    trustProxy: problems.check(() => flag(env, 'COMPANION_TRUST_PROXY')) ?? false,
  };
  const publicOrigins = problems.check(() => origins(env, 'COMPANION_PUBLIC_ORIGIN')) ?? [];
  if (publicOrigins.length > 0) config.publicOrigin = publicOrigins;
  if (env.COMPANION_SECRET) config.secret = env.COMPANION_SECRET;
  if (env.VOICE_AGENT_GRAPHQL_URL) {
    if (!URL.canParse(env.VOICE_AGENT_GRAPHQL_URL))
      problems.add('VOICE_AGENT_GRAPHQL_URL must be an absolute URL, e.g. https://api.example.com/query');
    config.graphqlUrl = env.VOICE_AGENT_GRAPHQL_URL;
  }
  if (env.VOICE_AGENT_MEDIA_URL) config.mediaUrl = env.VOICE_AGENT_MEDIA_URL;
  problems.check(() => readTransferNumbers(env, config));
  if (env.COMPANION_BASE_PATH) config.basePath = env.COMPANION_BASE_PATH;
  if (env.COMPANION_METRICS_TOKEN !== undefined && env.COMPANION_METRICS_TOKEN !== '') {
    const problem = secretProblem(env.COMPANION_METRICS_TOKEN, apiKey, MIN_METRICS_TOKEN_LENGTH);
    if (problem) problems.add(`COMPANION_METRICS_TOKEN: ${problem.replace('the secret', 'the metrics token')}`);
    config.metricsToken = env.COMPANION_METRICS_TOKEN;
  }
  const timeoutMinutes = problems.check(() => positiveInteger(env, 'COMPANION_TIMEOUT_MINUTES'));
  if (timeoutMinutes !== undefined && (timeoutMinutes < 1 || timeoutMinutes > MAX_TIMEOUT_MINUTES))
    problems.add(`COMPANION_TIMEOUT_MINUTES must be 1 to ${MAX_TIMEOUT_MINUTES} (a day)`);
  if (timeoutMinutes !== undefined) config.timeoutMinutes = timeoutMinutes;
  const resumeGrace = problems.check(() => positiveInteger(env, 'COMPANION_RESUME_GRACE_SECONDS'));
  if (resumeGrace !== undefined && (resumeGrace < 1 || resumeGrace > 3600))
    problems.add('COMPANION_RESUME_GRACE_SECONDS must be 1 to 3600');
  if (resumeGrace !== undefined) config.resumeGraceSeconds = resumeGrace;
  const limits = {
    perAddress: problems.check(() => positiveInteger(env, 'COMPANION_RATE_LIMIT_PER_ADDRESS')),
    total: problems.check(() => positiveInteger(env, 'COMPANION_RATE_LIMIT_TOTAL')),
    perDial: problems.check(() => positiveInteger(env, 'COMPANION_RATE_LIMIT_PER_DIAL')),
    readsPerAddress: problems.check(() => positiveInteger(env, 'COMPANION_RATE_LIMIT_READS_PER_ADDRESS')),
  };
  for (const [name, value] of Object.entries(limits)) {
    if (value !== undefined) config.rateLimit = { ...config.rateLimit, [name]: value };
  }
  problems.finish();
  return config;
}

const E164_EXAMPLE = 'a phone number in E.164 form, e.g. +14155550123';

/** COMPANION_TRANSFER_NUMBER and VOICE_AGENT_TRANSFER_NUMBERS (JSON agent name → number), both E.164. */
function readTransferNumbers(env: Environment, config: CompanionConfig): void {
  const found: string[] = [];
  const single = env.COMPANION_TRANSFER_NUMBER?.trim();
  if (single) {
    if (E164.test(single)) config.transferNumber = single;
    else found.push(`COMPANION_TRANSFER_NUMBER must be ${E164_EXAMPLE}`);
  }
  if (env.VOICE_AGENT_TRANSFER_NUMBERS) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(env.VOICE_AGENT_TRANSFER_NUMBERS);
    } catch {
      parsed = null;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      found.push('VOICE_AGENT_TRANSFER_NUMBERS must be a JSON object of agent name → phone number');
    } else {
      const numbers = parsed as Record<string, unknown>;
      const agents = config.agents ?? {};
      for (const [name, number] of Object.entries(numbers)) {
        const label = JSON.stringify(name.slice(0, 60));
        if (typeof number !== 'string' || !E164.test(number))
          found.push(`VOICE_AGENT_TRANSFER_NUMBERS: the number of ${label} must be ${E164_EXAMPLE}`);
        else if (!Object.hasOwn(agents, name))
          found.push(`VOICE_AGENT_TRANSFER_NUMBERS names ${label}, which is not an agent name of VOICE_AGENT_AGENTS`);
      }
      config.transferNumbers = numbers as Record<string, string>;
    }
  }
  if (found.length > 0) throw new ConfigError(found);
}

export interface ListenEnvironment extends NodeServerLimits {
  port: number;
  host: string;
}

/**
 * Reads the Node server's settings: PORT (default 8787; 0 picks a free one), HOST (default
 * 127.0.0.1), COMPANION_HEADERS_TIMEOUT_MS, COMPANION_REQUEST_TIMEOUT_MS,
 * COMPANION_KEEP_ALIVE_TIMEOUT_MS, COMPANION_MAX_CONNECTIONS, COMPANION_MAX_CONNECTIONS_PER_ADDRESS.
 */
export function listenOptionsFromEnv(env: Environment): ListenEnvironment {
  const problems = new ConfigProblems();
  let port = env.PORT ? Number(env.PORT) : 8787;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    problems.add('PORT must be a port number (0 picks a free one)');
    port = 8787;
  }
  const options: ListenEnvironment = { port, host: env.HOST || '127.0.0.1' };
  const atLeastOne = (name: string) =>
    problems.check(() => {
      const value = positiveInteger(env, name);
      if (value === 0) throw new ConfigError(`${name} must be a whole number ≥ 1`);
      return value;
    });
  const headersTimeoutMs = atLeastOne('COMPANION_HEADERS_TIMEOUT_MS');
  const requestTimeoutMs = atLeastOne('COMPANION_REQUEST_TIMEOUT_MS');
  const keepAliveTimeoutMs = atLeastOne('COMPANION_KEEP_ALIVE_TIMEOUT_MS');
  const maxConnections = atLeastOne('COMPANION_MAX_CONNECTIONS');
  const maxConnectionsPerAddress = problems.check(() => positiveInteger(env, 'COMPANION_MAX_CONNECTIONS_PER_ADDRESS'));
  if (headersTimeoutMs !== undefined) options.headersTimeoutMs = headersTimeoutMs;
  if (requestTimeoutMs !== undefined) options.requestTimeoutMs = requestTimeoutMs;
  if (keepAliveTimeoutMs !== undefined) options.keepAliveTimeoutMs = keepAliveTimeoutMs;
  if (maxConnections !== undefined) options.maxConnections = maxConnections;
  if (maxConnectionsPerAddress !== undefined) options.maxConnectionsPerAddress = maxConnectionsPerAddress;
  if ((options.headersTimeoutMs ?? 10_000) > (options.requestTimeoutMs ?? 30_000)) {
    problems.add('COMPANION_HEADERS_TIMEOUT_MS must not exceed COMPANION_REQUEST_TIMEOUT_MS (default 30000)');
  }
  problems.finish();
  return options;
}

/** Settings that work but deserve a second look, one sentence each (the CLI logs them at warn). */
export function configWarnings(config: CompanionConfig, listenOptions: { host: string }): string[] {
  const warnings: string[] = [];
  const exposed = !isLoopbackHostname(listenOptions.host);
  if (exposed && !config.publicOrigin && !config.trustProxy) {
    warnings.push(
      `HOST=${listenOptions.host} without COMPANION_PUBLIC_ORIGIN: over plain http only IP addresses and loopback names are served; set COMPANION_PUBLIC_ORIGIN to the origin visitors use`,
    );
  }
  if (exposed && config.trustProxy) {
    warnings.push(
      `COMPANION_TRUST_PROXY with HOST=${listenOptions.host}: a client that reaches this port without the proxy chooses its own address and origin; listen on loopback or firewall the port`,
    );
  }
  return warnings;
}
