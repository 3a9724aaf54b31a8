// Companion config from environment variables (CONTRACT.md §2). Takes the variables as a plain
// object, so Workers (`env`), Deno (`Deno.env.toObject()`) and Node (`process.env`) can all use it.
import type { CompanionConfig } from './handler.js';

export type Environment = Record<string, string | undefined>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const list = (value: string | undefined) => (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);

function positiveInteger(env: Environment, name: string): number | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new ConfigError(`${name} must be a whole number ≥ 0`);
  return parsed;
}

/**
 * Reads: VOICE_AGENT_API_KEY (required), VOICE_AGENT_BASE_URL (required), VOICE_AGENT_AGENT_ID or
 * VOICE_AGENT_AGENTS (JSON name → id), VOICE_AGENT_GRAPHQL_URL (default: the base URL's origin + /query),
 * VOICE_AGENT_MEDIA_URL (replaces the media url from browserDialToken), COMPANION_SECRET (required unless
 * NODE_ENV=development), COMPANION_ALLOWED_ORIGINS, COMPANION_ALLOWED_INPUTS, COMPANION_TIMEOUT_MINUTES,
 * COMPANION_RATE_LIMIT_PER_ADDRESS, COMPANION_RATE_LIMIT_TOTAL (per minute), COMPANION_TRUST_PROXY=1,
 * COMPANION_BASE_PATH.
 */
export function companionConfigFromEnv(env: Environment): CompanionConfig {
  const apiKey = env.VOICE_AGENT_API_KEY;
  if (!apiKey) throw new ConfigError('VOICE_AGENT_API_KEY is required');
  const baseUrl = env.VOICE_AGENT_BASE_URL;
  if (!baseUrl) throw new ConfigError('VOICE_AGENT_BASE_URL is required (the service API base URL, or the emulator apiUrl)');
  let agents: Record<string, string> = {};
  if (env.VOICE_AGENT_AGENTS) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(env.VOICE_AGENT_AGENTS);
    } catch {
      throw new ConfigError('VOICE_AGENT_AGENTS must be a JSON object of agent name → agent id');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !Object.values(parsed).every((id) => typeof id === 'string' && id)) {
      throw new ConfigError('VOICE_AGENT_AGENTS must be a JSON object of agent name → agent id');
    }
    agents = parsed as Record<string, string>;
  }
  if (env.VOICE_AGENT_AGENT_ID) agents = { default: env.VOICE_AGENT_AGENT_ID, ...agents };
  if (Object.keys(agents).length === 0) throw new ConfigError('set VOICE_AGENT_AGENT_ID or VOICE_AGENT_AGENTS');
  const dev = env.NODE_ENV === 'development';
  if (!env.COMPANION_SECRET && !dev) throw new ConfigError('COMPANION_SECRET is required (at least 32 characters); only NODE_ENV=development makes a random one');

  const config: CompanionConfig = {
    apiKey,
    baseUrl,
    agents,
    dev,
    allowedOrigins: list(env.COMPANION_ALLOWED_ORIGINS),
    allowedInputs: list(env.COMPANION_ALLOWED_INPUTS),
    trustProxy: env.COMPANION_TRUST_PROXY === '1' || env.COMPANION_TRUST_PROXY === 'true',
  };
  if (env.COMPANION_SECRET) config.secret = env.COMPANION_SECRET;
  if (env.VOICE_AGENT_GRAPHQL_URL) {
    if (!URL.canParse(env.VOICE_AGENT_GRAPHQL_URL)) throw new ConfigError('VOICE_AGENT_GRAPHQL_URL must be an absolute URL, e.g. https://api.example.com/query');
    config.graphqlUrl = env.VOICE_AGENT_GRAPHQL_URL;
  }
  if (env.VOICE_AGENT_MEDIA_URL) config.mediaUrl = env.VOICE_AGENT_MEDIA_URL;
  if (env.COMPANION_BASE_PATH) config.basePath = env.COMPANION_BASE_PATH;
  const timeoutMinutes = positiveInteger(env, 'COMPANION_TIMEOUT_MINUTES');
  if (timeoutMinutes !== undefined) config.timeoutMinutes = timeoutMinutes;
  const perAddress = positiveInteger(env, 'COMPANION_RATE_LIMIT_PER_ADDRESS');
  const total = positiveInteger(env, 'COMPANION_RATE_LIMIT_TOTAL');
  if (perAddress !== undefined || total !== undefined) {
    config.rateLimit = {};
    if (perAddress !== undefined) config.rateLimit.perAddress = perAddress;
    if (total !== undefined) config.rateLimit.total = total;
  }
  return config;
}
