// OpenTelemetry and the service histogram: one span per request (handler.ts starts it here) and
// one per service call, whose W3C trace context goes on to the service as `traceparent`. Through
// `@opentelemetry/api` only: every call is a no-op until the host installs an SDK (a tracer
// provider, a propagator and, for spans to nest across awaits, a context manager). Web APIs only.
import { SpanKind, SpanStatusCode, context, propagation, trace, type Context, type Span } from '@opentelemetry/api';
import { ServiceError } from '../api/service-error.js';
import type { CallOptions, TraceContext } from '../api/transport.js';
import type { MetricsRecorder, ServiceOperation } from './metrics.js';
import type { ServiceClient } from './service-client.js';

const TRACER = 'voice-agent-call/companion';

/** The tracer of the moment (a proxy: an SDK installed after the handler was made still takes it). */
const tracer = () => trace.getTracer(TRACER);

/** The request's span, a child of the trace context the request brought (`traceparent`), if any. */
export function startRequestSpan(method: string, header: (name: string) => string | null): Span {
  const parent = propagation.extract(context.active(), null, {
    get: (_carrier, key) => header(key) ?? undefined,
    keys: () => [],
  });
  return tracer().startSpan(`companion ${method}`, { kind: SpanKind.SERVER }, parent);
}

/** Runs `work` with `span` as the active span, so service calls made in it are its children. */
export function withSpan<T>(span: Span, work: () => T): T {
  return context.with(trace.setSpan(context.active(), span), work);
}

/** Ends the request's span with what the log line says of it. */
export function endRequestSpan(span: Span, route: string, status: number, code: string | undefined): void {
  if (span.isRecording()) {
    span.updateName(route === '-' ? 'companion request' : `companion ${route}`);
    span.setAttribute('http.route', route);
    span.setAttribute('http.response.status_code', status);
    if (code !== undefined) span.setAttribute('error.type', code);
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/** The `outcome` label of a failed service call: the ServiceError code, or `error`. */
const outcomeOf = (error: unknown) => (error instanceof ServiceError ? error.code : 'error');

/**
 * The service client with each call in a client span (its trace context passed on) and, when
 * metrics are on, timed into `service_request_duration_seconds{operation, outcome}`.
 */
export function observeService(service: ServiceClient, recorder: MetricsRecorder | null): ServiceClient {
  const observe = async <T>(
    operation: ServiceOperation,
    options: { signal?: AbortSignal; traceContext?: TraceContext } | undefined,
    call: (options: { signal?: AbortSignal; traceContext?: TraceContext }) => Promise<T>,
  ): Promise<T> => {
    const span = tracer().startSpan(`service ${operation}`, { kind: SpanKind.CLIENT }, context.active());
    const carrier: TraceContext = {};
    if (span.isRecording()) propagation.inject(trace.setSpan(context.active() as Context, span), carrier);
    const started = performance.now();
    try {
      const answer = await call(carrier.traceparent ? { ...options, traceContext: carrier } : (options ?? {}));
      recorder?.serviceCall(operation, 'ok', (performance.now() - started) / 1000);
      return answer;
    } catch (error) {
      const outcome = outcomeOf(error);
      recorder?.serviceCall(operation, outcome, (performance.now() - started) / 1000);
      if (span.isRecording()) {
        span.setAttribute('error.type', outcome);
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      throw error;
    } finally {
      span.end();
    }
  };
  const transferCall = service.transferCall?.bind(service);
  return {
    createDial: (input, options) =>
      observe('createDial', options, (traced) => service.createDial(input, { ...options, ...traced })),
    getDialToken: (dialId, options) =>
      observe('getDialToken', options, (traced) => service.getDialToken(dialId, traced)),
    browserDialToken: (dialToken, sessionId, options) =>
      observe('browserDialToken', options, (traced) => service.browserDialToken(dialToken, sessionId, traced)),
    getDial: (dialId, options) => observe('getDial', options, (traced) => service.getDial(dialId, traced)),
    hangupDial: (dialId, options) => observe('hangupDial', options, (traced) => service.hangupDial(dialId, traced)),
    // Talk to a person, when the service client can (src/server/transfer-route.ts).
    ...(transferCall
      ? {
          transferCall: (dialId: string, transferNumber: string, options?: CallOptions) =>
            observe('transferCall', options, (traced) => transferCall(dialId, transferNumber, traced)),
        }
      : {}),
  };
}
