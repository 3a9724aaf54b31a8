// `POST /dials/:id/metrics`: a visitor's own call timings (the element's `metrics="server"`), once
// per dial, with the dial's handle (in the header, or in the body when `sendBeacon` sent it as the
// page left). Checked field by field; a refused post records nothing. What it records becomes the
// histograms `client_time_to_first_audio_seconds` and `client_setup_stage_seconds{stage}`.
import { parseJson, readBody } from './body.js';
import { isPlainObject } from './checks.js';
import type { CompanionSettings } from './config.js';
import { authorize, limitDialCall, rateLimited, type Exchange } from './dial-routes.js';
import { HttpError, jsonAnswer } from './errors.js';
import type { CompanionAnswer } from './exchange.js';
import { SETUP_STAGES, type ClientCallMetrics, type SetupStage } from './metrics.js';

/** The body's cap: the metrics of one call are about 600 bytes. */
export const MAX_CALL_METRICS_BYTES = 4096;

/** Longest time a stage or the wait for first audio may report: ten minutes. */
const MAX_MS = 600_000;

const FIELDS = new Set(['handle', 'timeToFirstAudioMs', 'stages', 'reconnects', 'rttMs', 'jitterMs', 'packetLoss']);
const STAGE_FIELDS = new Set(['startMs', 'durationMs']);
const STAGES = new Set<string>(SETUP_STAGES);

function milliseconds(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_MS)
    throw new HttpError('invalid_request', `${name} must be a number of milliseconds from 0 to ${MAX_MS}`);
  return value;
}

/** The call's metrics from a parsed body, checked (a 400 naming the first field that is wrong). */
export function checkCallMetrics(body: Record<string, unknown>): ClientCallMetrics {
  const unknown = Object.keys(body).find((field) => !FIELDS.has(field));
  if (unknown !== undefined)
    throw new HttpError('invalid_request', `unknown field ${JSON.stringify(unknown.slice(0, 40))}`);
  const metrics: ClientCallMetrics = { stages: {} };
  if (body.timeToFirstAudioMs !== undefined)
    metrics.timeToFirstAudioMs = milliseconds(body.timeToFirstAudioMs, 'timeToFirstAudioMs');
  if (body.stages !== undefined) {
    if (!isPlainObject(body.stages)) throw new HttpError('invalid_request', 'stages must be an object');
    for (const [stage, timing] of Object.entries(body.stages)) {
      if (!STAGES.has(stage)) throw new HttpError('invalid_request', `stages may only name ${SETUP_STAGES.join(', ')}`);
      if (!isPlainObject(timing) || Object.keys(timing).some((field) => !STAGE_FIELDS.has(field)))
        throw new HttpError('invalid_request', `stages.${stage} must be { startMs, durationMs }`);
      milliseconds(timing.startMs, `stages.${stage}.startMs`);
      metrics.stages[stage as SetupStage] = milliseconds(timing.durationMs, `stages.${stage}.durationMs`);
    }
  }
  if (body.reconnects !== undefined) {
    if (!Number.isInteger(body.reconnects) || (body.reconnects as number) < 0 || (body.reconnects as number) > 1000)
      throw new HttpError('invalid_request', 'reconnects must be a whole number from 0 to 1000');
    metrics.reconnects = body.reconnects as number;
  }
  if (body.rttMs !== undefined) milliseconds(body.rttMs, 'rttMs');
  if (body.jitterMs !== undefined) milliseconds(body.jitterMs, 'jitterMs');
  if (
    body.packetLoss !== undefined &&
    (typeof body.packetLoss !== 'number' || !(body.packetLoss >= 0 && body.packetLoss <= 1))
  )
    throw new HttpError('invalid_request', 'packetLoss must be a fraction from 0 to 1');
  return metrics;
}

export async function callMetrics(
  settings: CompanionSettings,
  exchange: Exchange,
  dialId: string,
): Promise<CompanionAnswer> {
  const { request } = exchange;
  const text = await readBody(request, Math.min(settings.maxBodyBytes, MAX_CALL_METRICS_BYTES));
  const body = parseJson(text);
  if (!isPlainObject(body)) throw new HttpError('invalid_request', 'the body must be a JSON object');
  const bodyHandle = request.header('authorization') === null && typeof body.handle === 'string' ? body.handle : '';
  await authorize(settings, exchange, dialId, bodyHandle || undefined);
  await limitDialCall(settings, exchange, dialId, 'metrics');
  const metrics = checkCallMetrics(body);
  const verdict = await settings.limiters.metricsPerDial.take(dialId);
  if (!verdict.allowed) {
    if (verdict.storeUnreachable)
      throw rateLimited('metrics cannot be taken right now; try again later', verdict, 'metrics-per-dial');
    throw new HttpError('duplicate_request', "this call's metrics were sent already", {
      reason: 'metrics-per-dial limit',
    });
  }
  exchange.callMetrics = metrics;
  return jsonAnswer(200, { success: true });
}
