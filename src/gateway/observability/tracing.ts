import { context, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { Plugin } from "graphql-yoga";
import { tracingIsOn, voicegraphTracer } from "../../upstream/upstream-span.ts";
import type { DocumentFactsCache } from "../shared/document-facts.ts";

export interface Tracing {
  /** Sends what is pending and stops exporting. */
  shutdown(): Promise<void>;
  /** Sends what is pending now. */
  flush(): Promise<void>;
}

/**
 * Registers an OpenTelemetry tracer provider exporting over OTLP/HTTP to `url` (main.ts: when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set, `<endpoint>/v1/traces`). Its context manager carries the
 * operation's span through resolvers and dataloader batches to the upstream client, whose calls
 * become child spans and send a W3C `traceparent`. Without it the API is a no-op: no spans, no
 * header. The SDK is loaded here, not at start-up: a gateway without tracing does not hold its
 * modules (about 24 MB of RSS).
 */
export async function startTracing(options: {
  url: string;
  serviceName?: string;
}): Promise<Tracing> {
  const [{ OTLPTraceExporter }, { resourceFromAttributes }, { BatchSpanProcessor }, sdkNode] =
    await Promise.all([
      import("@opentelemetry/exporter-trace-otlp-http"),
      import("@opentelemetry/resources"),
      import("@opentelemetry/sdk-trace-base"),
      import("@opentelemetry/sdk-trace-node"),
    ]);
  const provider = new sdkNode.NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": options.serviceName ?? "voicegraph" }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: options.url }))],
  });
  provider.register();
  return {
    async shutdown() {
      await provider.shutdown();
      // register() set process-wide globals: release them, so that a later gateway in this
      // process starts untraced (or registers its own provider) instead of inheriting a stopped one.
      trace.disable();
      propagation.disable();
      context.disable();
    },
    flush: () => provider.forceFlush(),
  };
}

/**
 * One span per executed operation (`graphql.<type> <name>`), active while it executes, so the
 * upstream calls it makes are its children. Errors in the result mark it as failed; their text
 * is not copied into the span.
 */
export function useOperationSpans(documents: DocumentFactsCache): Plugin {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      if (!tracingIsOn()) return;
      const operation = documents.of(args.document).operation(args.operationName);
      const type = operation?.operation ?? "query";
      const name = operation?.name?.value ?? "anonymous";
      const span = voicegraphTracer().startSpan(`graphql.${type} ${name}`, {
        kind: SpanKind.SERVER,
        attributes: { "graphql.operation.type": type, "graphql.operation.name": name },
      });
      const active = trace.setSpan(context.active(), span);
      setExecuteFn((executeArgs) => context.with(active, () => executeFn(executeArgs)));
      return {
        onExecuteDone({ result }) {
          if ("errors" in result && result.errors?.length) {
            span.setStatus({ code: SpanStatusCode.ERROR });
          }
          span.end();
        },
      };
    },
  };
}
