// The companion endpoint: one Web-standard `(Request) => Promise<Response>` handler that holds the
// service's API key and gives visitors signed, expiring handles for the dials they create.
// Web APIs only, so it mounts in Node (see node.ts), Workers, Deno, Bun and framework route handlers.
// This file composes the parts: config.ts (settings, made once), routes.ts (which route),
// origin.ts (host, origin, CORS, client address), dial-routes.ts (what each route does, reading
// bodies with body.ts and answering service failures through upstream-errors.ts), errors.ts (the
// error answers), and writes one log line per request. Watching it: tracing.ts (a span per request
// and per service call), metrics.ts and prometheus.ts (what is counted), scrape.ts (`GET /metrics`).
import { resolveConfig, type CompanionConfig, type CompanionSettings } from './config.js';
import { callMetrics } from './call-metrics-route.js';
import {
  createDial,
  endLeftDial,
  feedback,
  hangup,
  leave,
  read,
  serviceAnswer,
  token,
  type Exchange,
} from './dial-routes.js';
import { HttpError, errorAnswer } from './errors.js';
import { fromFetchRequest, toFetchResponse, type CompanionAnswer, type CompanionRequest } from './exchange.js';
import type { CompanionLogEntry, CompanionLogger } from './log.js';
import { NO_CORS, OriginPolicy, preflightAnswer } from './origin.js';
import { refusalOf, type MetricsRecorder } from './metrics.js';
import { createPrometheusMetrics, type CompanionMetrics } from './prometheus.js';
import { allowOf, dialIdOf, matchRoute, type Route } from './routes.js';
import { scrape } from './scrape.js';
import { endRequestSpan, observeService, startRequestSpan, withSpan } from './tracing.js';
import { transfer } from './transfer-route.js';

export type { CompanionConfig, CompanionFeedback } from './config.js';

export interface CompanionRequestContext {
  /** The client's network address (the Node adapter passes the socket's remote address). */
  clientAddress?: string;
}

export type { CompanionMetrics } from './prometheus.js';

export interface CompanionHandler {
  (request: Request, context?: CompanionRequestContext): Promise<Response>;
  /**
   * The companion's metrics (prom-client's Registry), when on (`metricsToken` or `metrics`), for a
   * host app's own `/metrics`; undefined when off.
   */
  readonly metrics?: CompanionMetrics;
}

/**
 * What an adapter must know of a handler's config (its logger, whether a proxy sits in front) and
 * the handler's core, which an adapter may call with a request of its own making (node.ts does).
 */
export interface HandlerTraits {
  log: CompanionLogger;
  trustProxy: boolean;
  /**
   * True when whatever the handler does with a request's signal ends with the request: its own
   * service client follows a signal without leaving a listener per call on it. Then an adapter may
   * hand the requests of one connection the same signal. Not so with a `serviceClient` passed in.
   */
  signalPerConnection: boolean;
  serve(request: CompanionRequest, context?: CompanionRequestContext): Promise<CompanionAnswer>;
}
const handlerTraits = new WeakMap<CompanionHandler, HandlerTraits>();

/** The traits of a handler made by `createCompanionHandler` (undefined for any other function). */
export function traitsOf(handler: CompanionHandler): HandlerTraits | undefined {
  return handlerTraits.get(handler);
}

/** The dial routes, by name. */
const DIAL_ROUTES = { token, read, hangup, leave, feedback, metrics: callMetrics, transfer } as const;

/** The route's answer, once host and origin passed: a preflight, a 405, or what the route does. */
function answerRoute(
  settings: CompanionSettings,
  exchange: Exchange,
  route: Route,
  cors: Readonly<Record<string, string>>,
) {
  const { method } = exchange.request;
  if (method === 'OPTIONS') return preflightAnswer(route, cors);
  if (!route.methods.includes(method))
    throw new HttpError('method_not_allowed', `use ${route.methods.join(' or ')}`, {
      headers: { allow: allowOf(route) },
    });
  if (route.name === 'create') return createDial(settings, exchange);
  if (route.name === 'service') return serviceAnswer(settings);
  if (route.name === 'scrape' || (route.name === 'metrics' && !settings.metrics))
    throw new HttpError('not_found', 'no such route');
  const dialId = dialIdOf(route.rawId);
  exchange.dialId = dialId;
  return DIAL_ROUTES[route.name](settings, exchange, dialId);
}

/** An unexpected failure: the visitor leaving mid-request (the body stream failing, say), or a bug. */
function unexpected(error: unknown, request: CompanionRequest): HttpError {
  const reason = error instanceof Error ? error.name : 'unknown error';
  return request.signal.aborted
    ? // not the companion's fault
      new HttpError('client_closed', 'the client closed the connection', { reason })
    : new HttpError('internal_error', 'the companion failed to handle the request', { reason });
}

/** What a request's answer adds to the metrics. */
function count(
  recorder: MetricsRecorder,
  route: Route | null,
  exchange: Exchange,
  status: number,
  failure?: HttpError,
) {
  // The operators' scrape is not visitors' traffic.
  if (route?.name === 'scrape') return;
  if (failure) {
    const reason = refusalOf(failure);
    if (reason !== null) recorder.refused(reason);
    return;
  }
  if (status !== 200 || route === null) return;
  if (route.name === 'create') recorder.dialCreated();
  else if (route.name === 'feedback' && exchange.rating !== undefined) recorder.rating(exchange.rating);
  else if (route.name === 'metrics' && exchange.callMetrics !== undefined) recorder.clientMetrics(exchange.callMetrics);
}

export function createCompanionHandler(config: CompanionConfig): CompanionHandler {
  const settings = resolveConfig(config);
  const { log, now } = settings;
  const origins = new OriginPolicy(settings);
  const prometheus = settings.metrics ? createPrometheusMetrics(settings.metrics) : null;
  const recorder = prometheus?.recorder ?? null;
  settings.service = observeService(settings.service, recorder);
  // Dials whose visitor left (`/leave`) and did not rejoin in time: this process's timers, and the
  // shared store's due entries when one is configured.
  const endLeft = (dialId: string) => endLeftDial(settings, dialId);
  settings.localEnds.start(endLeft);
  if (settings.pendingEnds !== settings.localEnds) settings.pendingEnds.start(endLeft);

  async function serve(request: CompanionRequest, context?: CompanionRequestContext): Promise<CompanionAnswer> {
    const started = now();
    const address = origins.clientAddress(request, context?.clientAddress);
    const exchange: Exchange = { request, address, addressKey: origins.addressKey(address) };
    let route: Route | null = null;
    let response: CompanionAnswer;
    let failure: HttpError | undefined;
    let cors = NO_CORS;
    const span = startRequestSpan(request.method, request.header);
    try {
      route = matchRoute(request.pathname, settings.basePath);
      // Operators' traffic, guarded by its own token: no host or origin rule, never CORS-readable.
      if (route?.name === 'scrape') response = await scrape(settings, prometheus?.metrics, request);
      else {
        const own = origins.requestOrigin(request);
        if (!own.hostAllowed) {
          throw new HttpError('host_not_allowed', 'this host name is not served here', {
            reason: `Host ${JSON.stringify(own.host.slice(0, 100))} is not a public origin's host (COMPANION_PUBLIC_ORIGIN), an IP address or a loopback name`,
          });
        }
        if (!origins.originAllowed(request, own)) {
          const refusal = origins.refusal(request, own);
          cors = refusal.cors;
          // The preflight is granted so that the page's request comes and reads the refusal.
          if (route && request.method === 'OPTIONS' && cors !== NO_CORS) {
            exchange.reason = (refusal.error.reason ?? '') + ' (preflight granted; the request will be refused)';
            response = preflightAnswer(route, cors);
          } else throw refusal.error;
        } else {
          cors = origins.corsHeaders(request);
          if (!route) throw new HttpError('not_found', 'no such route');
          const matched = route;
          response = await withSpan(span, () => answerRoute(settings, exchange, matched, cors));
          Object.assign(response.headers, cors);
        }
      }
    } catch (error) {
      failure = error instanceof HttpError ? error : unexpected(error, request);
      response = errorAnswer(failure, cors);
    }
    const entry: CompanionLogEntry = {
      time: new Date(started).toISOString(),
      // A visitor leaving mid-request is ordinary traffic, not an outage.
      level: response.status >= 500 && failure?.code !== 'client_closed' ? 'error' : 'info',
      route: route?.pattern ?? '-',
      method: request.method,
      status: response.status,
      durationMs: now() - started,
    };
    if (exchange.dialId !== undefined) entry.dialId = exchange.dialId;
    if (failure) {
      entry.code = failure.code;
      if (failure.reason !== undefined) entry.reason = failure.reason;
    } else if (exchange.reason !== undefined) {
      entry.reason = exchange.reason;
    }
    try {
      log(entry);
    } catch {
      // A broken logger must not break the answer.
    }
    if (recorder) count(recorder, route, exchange, response.status, failure);
    endRequestSpan(span, route?.pattern ?? '-', response.status, failure?.code);
    return response;
  }
  const handler: CompanionHandler = Object.assign(
    async (request: Request, context?: CompanionRequestContext) =>
      toFetchResponse(await serve(fromFetchRequest(request), context)),
    prometheus ? { metrics: prometheus.metrics } : {},
  );
  handlerTraits.set(handler, {
    log,
    trustProxy: settings.trustProxy,
    signalPerConnection: settings.ownServiceClient,
    serve,
  });
  return handler;
}
