// The companion's metrics as prom-client keeps them: one Registry per handler, the counters and
// histograms metrics.ts names, and the process's default metrics. prom-client needs Node (its
// entry requires node:cluster), so it is loaded on first use by a name in a variable, as the API
// client loads undici: a Workers bundle of the handler leaves it out, and a handler without
// metrics never loads it.
import type { Counter, Histogram, Registry } from 'prom-client';
import {
  METRIC_PREFIX,
  type ClientCallMetrics,
  type MetricsRecorder,
  type RefusalReason,
  type ServiceOperation,
  type ServiceOutcome,
} from './metrics.js';

const PROM_CLIENT = 'prom-client';

/** The companion's metrics, as a host reads them (`handler.metrics`). */
export interface CompanionMetrics {
  /** The prom-client Registry that holds them, e.g. for `Registry.merge([register, await handler.metrics.registry()])`. */
  registry(): Promise<Registry>;
  /** The Prometheus text exposition and its content type, as `GET {base}/metrics` answers. */
  exposition(): Promise<{ contentType: string; body: string }>;
}

export interface PrometheusOptions {
  /** Also collect the process's default metrics (CPU, memory, event loop lag) with the prefix. Default true. */
  defaultMetrics?: boolean;
}

interface Instruments {
  registry: Registry;
  dialsCreated: Counter;
  refused: Counter<'reason'>;
  serviceDuration: Histogram<'operation' | 'outcome'>;
  ratings: Counter<'rating'>;
  timeToFirstAudio: Histogram;
  setupStage: Histogram<'stage'>;
}

async function instruments(options: PrometheusOptions): Promise<Instruments> {
  const prom = (await import(/* @vite-ignore */ PROM_CLIENT)) as typeof import('prom-client');
  const registry = new prom.Registry();
  if (options.defaultMetrics !== false) prom.collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });
  const registers = [registry];
  return {
    registry,
    dialsCreated: new prom.Counter({
      name: `${METRIC_PREFIX}dials_created_total`,
      help: 'Dials the companion created for visitors',
      registers,
    }),
    refused: new prom.Counter({
      name: `${METRIC_PREFIX}requests_refused_total`,
      help: 'Requests the companion refused, by reason (origin, host, handle, validation, duplicate, each rate limit, store unreachable)',
      labelNames: ['reason'],
      registers,
    }),
    serviceDuration: new prom.Histogram({
      name: `${METRIC_PREFIX}service_request_duration_seconds`,
      help: "Calls to the calling service, by operation and outcome (ok or the failure's code)",
      labelNames: ['operation', 'outcome'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    ratings: new prom.Counter({
      name: `${METRIC_PREFIX}ratings_total`,
      help: "Visitors' ratings of their calls",
      labelNames: ['rating'],
      registers,
    }),
    timeToFirstAudio: new prom.Histogram({
      name: `${METRIC_PREFIX}client_time_to_first_audio_seconds`,
      help: "Visitors' time from the call button to the agent's first audio, as their browsers reported it",
      buckets: [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 8, 13, 20],
      registers,
    }),
    setupStage: new prom.Histogram({
      name: `${METRIC_PREFIX}client_setup_stage_seconds`,
      help: "Each stage of visitors' call setup (microphone, dial, media, agent, firstAudio), as their browsers reported it",
      labelNames: ['stage'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15],
      registers,
    }),
  };
}

/**
 * A recorder whose metrics live in a prom-client Registry made on the first call. What is recorded
 * before prom-client has loaded is kept and applied once it has.
 */
export function createPrometheusMetrics(options: PrometheusOptions = {}): {
  recorder: MetricsRecorder;
  metrics: CompanionMetrics;
} {
  let ready: Instruments | null = null;
  let pending: Array<(instruments: Instruments) => void> = [];
  const loading = instruments(options).then((made) => {
    ready = made;
    for (const record of pending) record(made);
    pending = [];
    return made;
  });
  // A failure to load shows where the metrics are read (a 500 on /metrics), not as an unhandled rejection.
  loading.catch(() => {});
  const record = (apply: (instruments: Instruments) => void) => {
    if (ready) apply(ready);
    else pending.push(apply);
  };
  const recorder: MetricsRecorder = {
    dialCreated: () => record((m) => m.dialsCreated.inc()),
    refused: (reason: RefusalReason) => record((m) => m.refused.inc({ reason })),
    serviceCall: (operation: ServiceOperation, outcome: ServiceOutcome, seconds: number) =>
      record((m) => m.serviceDuration.observe({ operation, outcome }, seconds)),
    rating: (rating) => record((m) => m.ratings.inc({ rating })),
    clientMetrics: (call: ClientCallMetrics) =>
      record((m) => {
        if (call.timeToFirstAudioMs !== undefined) m.timeToFirstAudio.observe(call.timeToFirstAudioMs / 1000);
        for (const [stage, ms] of Object.entries(call.stages)) m.setupStage.observe({ stage }, ms / 1000);
      }),
  };
  return {
    recorder,
    metrics: {
      registry: () => loading.then((made) => made.registry),
      exposition: async () => {
        const { registry } = await loading;
        return { contentType: registry.contentType, body: await registry.metrics() };
      },
    },
  };
}
