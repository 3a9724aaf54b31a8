// What the companion counts (docs/companion.md, "Watching it in production"): the names, the
// label values (a fixed, small set each: never a dial id, an address or an agent id a visitor
// chooses) and the one interface the handler records through. The Prometheus side, which loads
// prom-client, is prometheus.ts. Web APIs only.
import type { HttpError } from './errors.js';

/** Every metric's name starts with this. */
export const METRIC_PREFIX = 'voice_agent_companion_';

/** Why the companion refused a request: the `reason` label of `requests_refused_total`. */
export const REFUSAL_REASONS = [
  'origin',
  'host',
  'handle',
  'validation',
  'duplicate',
  'rate_limit_per_address',
  'rate_limit_total',
  'rate_limit_per_dial',
  'rate_limit_reads_per_address',
  'rate_limit_feedback_per_dial',
  'rate_limit_metrics_per_dial',
  'rate_limit_transfer_per_dial',
  'store_unreachable',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** The service calls the companion makes: the `operation` label of `service_request_duration_seconds`. */
export const SERVICE_OPERATIONS = [
  'createDial',
  'getDialToken',
  'browserDialToken',
  'getDial',
  'hangupDial',
  'transferCall',
] as const;
export type ServiceOperation = (typeof SERVICE_OPERATIONS)[number];

/** The stages of a call's setup a browser reports (`client_setup_stage_seconds{stage}`). */
export const SETUP_STAGES = ['microphone', 'dial', 'media', 'agent', 'firstAudio'] as const;
export type SetupStage = (typeof SETUP_STAGES)[number];

/** A visitor's call timings as `POST /dials/:id/metrics` received them, checked. */
export interface ClientCallMetrics {
  timeToFirstAudioMs?: number;
  /** Each stage's duration, in ms. */
  stages: Partial<Record<SetupStage, number>>;
  reconnects?: number;
}

/** The limiter names `rateLimited()` in dial-routes.ts writes into a 429's reason (`${name} limit`). */
const LIMIT_REASON: Readonly<Record<string, RefusalReason>> = {
  'per-address limit': 'rate_limit_per_address',
  'total limit': 'rate_limit_total',
  'per-dial limit': 'rate_limit_per_dial',
  'reads-per-address limit': 'rate_limit_reads_per_address',
  'feedback-per-dial limit': 'rate_limit_feedback_per_dial',
  'metrics-per-dial limit': 'rate_limit_metrics_per_dial',
  'transfer-per-dial limit': 'rate_limit_transfer_per_dial',
};

/**
 * The refusal an error answer is, or null when it is not one (a 404, a 405, the service or the
 * companion failing: those show in the service histogram and the log, not as refusals).
 */
export function refusalOf(error: HttpError): RefusalReason | null {
  switch (error.code) {
    case 'origin_not_allowed':
      return 'origin';
    case 'host_not_allowed':
      return 'host';
    case 'invalid_handle':
      return 'handle';
    case 'invalid_request':
    case 'payload_too_large':
      return 'validation';
    case 'duplicate_request':
      return 'duplicate';
    case 'rate_limited':
      if (error.reason?.includes('store unreachable')) return 'store_unreachable';
      return (error.reason !== undefined ? LIMIT_REASON[error.reason] : undefined) ?? 'rate_limit_per_dial';
    default:
      return null;
  }
}

/** The `outcome` label of a service call: `ok`, or the `ServiceError` code (a fixed set) it failed with. */
export type ServiceOutcome = string;

/** What the handler records; prometheus.ts turns it into prom-client metrics. */
export interface MetricsRecorder {
  dialCreated(): void;
  refused(reason: RefusalReason): void;
  serviceCall(operation: ServiceOperation, outcome: ServiceOutcome, seconds: number): void;
  rating(rating: 'up' | 'down'): void;
  clientMetrics(metrics: ClientCallMetrics): void;
}
