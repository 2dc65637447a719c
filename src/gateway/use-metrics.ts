import { type GraphQLError, getOperationAST } from "graphql";
import { isAsyncIterable, type Plugin } from "graphql-yoga";
import { catalogueErrorOf } from "./mask-error.ts";
import type { GatewayMetrics } from "./metrics.ts";

/**
 * Serves `GET /metrics` (Prometheus text) and counts each operation by type and outcome: `OK`, or
 * the catalogue code of its first error. Subscriptions are counted when they start.
 */
export function useMetrics(metrics: GatewayMetrics, endpoint = "/metrics"): Plugin {
  return {
    // Not async: every other request goes on without waiting for a promise.
    onRequest({ url, endResponse, fetchAPI }) {
      if (url.pathname !== endpoint) return;
      return metrics.registry.metrics().then((text) =>
        endResponse(
          new fetchAPI.Response(text, {
            headers: { "content-type": metrics.registry.contentType },
          }),
        ),
      );
    },
    onExecute({ args }) {
      const type = getOperationAST(args.document, args.operationName)?.operation ?? "unknown";
      const stop = metrics.operationSeconds.startTimer({ type });
      return {
        onExecuteDone({ result }) {
          if (isAsyncIterable(result)) {
            return { onEnd: () => stop() };
          }
          stop();
          metrics.operations.inc({ type, outcome: outcomeOf(result.errors) });
          return undefined;
        },
      };
    },
    onSubscribe() {
      return {
        onSubscribeResult({ result }) {
          if (!isAsyncIterable(result)) {
            metrics.operations.inc({ type: "subscription", outcome: outcomeOf(result.errors) });
            return undefined;
          }
          metrics.operations.inc({ type: "subscription", outcome: "OK" });
          metrics.subscriptions.inc();
          return { onEnd: () => metrics.subscriptions.dec() };
        },
      };
    },
  };
}

/** `OK`, or the catalogue code the first error will be answered with (before masking). */
function outcomeOf(errors: ReadonlyArray<GraphQLError> | undefined): string {
  const first = errors?.[0];
  if (first === undefined) return "OK";
  const code = (catalogueErrorOf(first) ?? first).extensions?.code;
  return typeof code === "string" ? code : "INTERNAL_SERVER_ERROR";
}
