// OpenTelemetry through @opentelemetry/api: nothing happens without an SDK (no traceparent sent);
// with one installed (here a small one of our own: a tracer that keeps its spans, the W3C
// traceparent propagator and an AsyncLocalStorage context manager), each request has a server
// span, each service call a client span under it, and the service receives the call's traceparent.
import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { after, describe, test } from 'node:test';
import {
  ROOT_CONTEXT,
  SpanKind,
  context,
  propagation,
  trace,
  type Context,
  type ContextManager,
  type Span,
  type SpanContext,
  type SpanOptions,
  type TextMapPropagator,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { createDial, makeCompanion, post, present } from './companion-support.js';

interface Recorded {
  name: string;
  kind: SpanKind | undefined;
  context: SpanContext;
  parentSpanId: string | undefined;
  attributes: Record<string, unknown>;
  ended: boolean;
}

const spans: Recorded[] = [];

function makeSpan(name: string, options: SpanOptions, parent: Context): Span {
  const parentContext = trace.getSpanContext(parent);
  const record: Recorded = {
    name,
    kind: options.kind,
    context: {
      traceId: parentContext?.traceId ?? randomBytes(16).toString('hex'),
      spanId: randomBytes(8).toString('hex'),
      traceFlags: 1,
    },
    parentSpanId: parentContext?.spanId,
    attributes: {},
    ended: false,
  };
  spans.push(record);
  const span: Span = {
    spanContext: () => record.context,
    setAttribute: (key, value) => ((record.attributes[key] = value), span),
    setAttributes: (attributes) => (Object.assign(record.attributes, attributes), span),
    addEvent: () => span,
    addLink: () => span,
    addLinks: () => span,
    setStatus: () => span,
    updateName: (newName) => ((record.name = newName), span),
    end: () => {
      record.ended = true;
    },
    isRecording: () => !record.ended,
    recordException: () => {},
  };
  return span;
}

const tracer: Tracer = {
  startSpan: (name, options = {}, parent = context.active()) => makeSpan(name, options, parent),
  startActiveSpan: (() => {
    throw new Error('not used by the companion');
  }) as Tracer['startActiveSpan'],
};
const provider: TracerProvider = { getTracer: () => tracer };

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;
const w3c: TextMapPropagator = {
  inject(ctx, carrier, setter) {
    const span = trace.getSpanContext(ctx);
    if (span) setter.set(carrier, 'traceparent', `00-${span.traceId}-${span.spanId}-01`);
  },
  extract(ctx, carrier, getter) {
    const header = getter.get(carrier, 'traceparent');
    const match = TRACEPARENT.exec(Array.isArray(header) ? (header[0] ?? '') : (header ?? ''));
    if (!match?.[1] || !match[2]) return ctx;
    return trace.setSpanContext(ctx, { traceId: match[1], spanId: match[2], traceFlags: 1, isRemote: true });
  },
  fields: () => ['traceparent'],
};

class AsyncContextManager implements ContextManager {
  readonly #storage = new AsyncLocalStorage<Context>();
  active = () => this.#storage.getStore() ?? ROOT_CONTEXT;
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.#storage.run(ctx, () => fn.apply(thisArg, args));
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable = () => this;
  disable = () => this;
}

describe('OpenTelemetry', () => {
  after(() => {
    trace.disable();
    propagation.disable();
    context.disable();
  });

  test('without an SDK: no span is kept and no traceparent is sent', async () => {
    const { handler, service } = makeCompanion();
    await createDial(handler);
    assert.ok(service.calls.length >= 1);
    for (const call of service.calls) assert.equal(call.headers.get('traceparent'), null, call.path);
  });

  test("with an SDK: a server span per request, a client span per service call under it, and each call's traceparent sent on", async () => {
    assert.ok(trace.setGlobalTracerProvider(provider));
    assert.ok(propagation.setGlobalPropagator(w3c));
    assert.ok(context.setGlobalContextManager(new AsyncContextManager()));
    const { handler, service } = makeCompanion();
    const incoming = `00-${'a1'.repeat(16)}-${'b2'.repeat(8)}-01`;
    const response = await handler(post('/dials', {}, { traceparent: incoming }), { clientAddress: '203.0.113.7' });
    assert.equal(response.status, 200);

    const server = spans.filter((span) => span.kind === SpanKind.SERVER);
    assert.equal(server.length, 1);
    const request = present(server[0]);
    assert.equal(request.name, 'companion POST /dials');
    assert.equal(request.context.traceId, 'a1'.repeat(16), "the request joins the caller's trace");
    assert.equal(request.parentSpanId, 'b2'.repeat(8));
    assert.equal(request.attributes['http.response.status_code'], 200);
    assert.ok(request.ended);

    const clients = spans.filter((span) => span.kind === SpanKind.CLIENT);
    assert.deepEqual(
      clients.map((span) => span.name),
      // The create's own dial token authorises browserDialToken: no REST token call.
      ['service createDial', 'service browserDialToken'],
    );
    assert.equal(service.calls.length, clients.length);
    for (const [index, span] of clients.entries()) {
      assert.equal(span.parentSpanId, request.context.spanId, `${span.name} is the request's child`);
      assert.ok(span.ended);
      const sent = service.calls[index]?.headers.get('traceparent');
      assert.equal(sent, `00-${'a1'.repeat(16)}-${span.context.spanId}-01`, `${span.name} sent its traceparent`);
    }
  });
});
