import {
  context,
  ProxyTracerProvider,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import type { OperationCall } from "./operations.ts";
import { routeTemplate } from "./route-template.ts";

const TRACER_NAME = "voicegraph";

/**
 * The registered provider's tracer, asked for at each use: a tracer kept from an earlier provider
 * (a process may start tracing, shut it down and start again) would record into the stopped one.
 */
export function voicegraphTracer() {
  return trace.getTracer(TRACER_NAME);
}

/**
 * Whether a tracer provider is registered (gateway/observability/tracing.ts, OTEL_EXPORTER_OTLP_ENDPOINT).
 * Without one the API would hand out non-recording spans and inject nothing: the spans and their
 * context are skipped instead, which saves their allocations on every call.
 */
export function tracingIsOn(): boolean {
  const provider = trace.getTracerProvider();
  return (
    !(provider instanceof ProxyTracerProvider) ||
    provider.getDelegateTracer(TRACER_NAME) !== undefined
  );
}

const NO_TRACE_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * Runs one upstream attempt in a client span, child of the operation's span when tracing is on,
 * and hands it the W3C `traceparent` (and `tracestate`) headers naming that span. With no tracer
 * provider registered the API is a no-op: no span and no header.
 */
export function inUpstreamSpan<O extends { response: { status: number } } | { error: unknown }>(
  call: { method: string; path: string; operation?: OperationCall },
  run: (traceHeaders: Record<string, string>) => Promise<O>,
): Promise<O> {
  // Without tracing, the attempt's own promise: no async frame of its own around every call.
  return tracingIsOn() ? inSpan(call, run) : run(NO_TRACE_HEADERS);
}

async function inSpan<O extends { response: { status: number } } | { error: unknown }>(
  call: { method: string; path: string; operation?: OperationCall },
  run: (traceHeaders: Record<string, string>) => Promise<O>,
): Promise<O> {
  const { method, path } = call;
  const span = voicegraphTracer().startSpan(`upstream ${routeTemplate(call)}`, {
    kind: SpanKind.CLIENT,
    attributes: { "http.request.method": method, "url.path": path },
  });
  const traceHeaders: Record<string, string> = {};
  propagation.inject(trace.setSpan(context.active(), span), traceHeaders);
  try {
    const outcome = await run(traceHeaders);
    if ("response" in outcome) {
      span.setAttribute("http.response.status_code", outcome.response.status);
    } else {
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    return outcome;
  } finally {
    span.end();
  }
}
