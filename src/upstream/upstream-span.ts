import { context, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { routeTemplate } from "./route-template.ts";

const tracer = trace.getTracer("voicegraph");

/**
 * Runs one upstream attempt in a client span, child of the operation's span when tracing is on,
 * and hands it the W3C `traceparent` (and `tracestate`) headers naming that span. With no tracer
 * provider registered the API is a no-op: no span and no header.
 */
export async function inUpstreamSpan<
  O extends { response: { status: number } } | { error: unknown },
>(
  method: string,
  path: string,
  run: (traceHeaders: Record<string, string>) => Promise<O>,
): Promise<O> {
  const span = tracer.startSpan(`upstream ${routeTemplate(method, path)}`, {
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
