// `GET {base}/metrics`: the Prometheus text exposition, for the operators' scraper only. Absent
// (404) unless a metrics token is configured, refused (401) without it; no CORS header ever, so no
// page can read it, and no rate limit, so a scrape never spends a visitor's allowance. Web APIs only.
import type { CompanionSettings } from './config.js';
import { BASE_HEADERS, HttpError } from './errors.js';
import type { CompanionAnswer, CompanionRequest } from './exchange.js';
import type { CompanionMetrics } from './prometheus.js';
import { secretCheck } from '../shared/secret.js';

/** Each handler's check of its metrics token, made once (secretCheck: the timing says nothing of a guess). */
const tokenChecks = new WeakMap<CompanionSettings, (given: string) => Promise<boolean>>();

function isMetricsToken(settings: CompanionSettings, token: string, given: string): Promise<boolean> {
  let check = tokenChecks.get(settings);
  if (!check) tokenChecks.set(settings, (check = secretCheck(token)));
  return check(given);
}

export async function scrape(
  settings: CompanionSettings,
  metrics: CompanionMetrics | undefined,
  request: CompanionRequest,
): Promise<CompanionAnswer> {
  const token = settings.metricsToken;
  if (token === null || metrics === undefined) throw new HttpError('not_found', 'no such route');
  if (request.method !== 'GET') throw new HttpError('method_not_allowed', 'use GET', { headers: { allow: 'GET' } });
  const match = /^Bearer +([^\s]+)$/i.exec((request.header('authorization') ?? '').trim());
  if (!match?.[1] || !(await isMetricsToken(settings, token, match[1])))
    throw new HttpError('invalid_handle', 'the metrics token is missing or wrong', {
      headers: { 'www-authenticate': 'Bearer realm="metrics"' },
      reason: 'metrics scrape without the metrics token',
    });
  let exposition;
  try {
    exposition = await metrics.exposition();
  } catch (error) {
    throw new HttpError('internal_error', 'the companion failed to handle the request', {
      reason: `the metrics could not be read (${error instanceof Error ? error.name : 'unknown error'})`,
    });
  }
  return { status: 200, headers: { ...BASE_HEADERS, 'content-type': exposition.contentType }, body: exposition.body };
}
