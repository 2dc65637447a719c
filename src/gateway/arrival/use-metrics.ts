import { timingSafeEqual } from "node:crypto";
import type { GraphQLError } from "graphql";
import { isAsyncIterable, type Plugin } from "graphql-yoga";
import { gatewayError } from "../../errors.ts";
import type { GatewayMetrics } from "../observability/metrics.ts";
import type { DocumentFactsCache } from "../shared/document-facts.ts";
import { refusalResponse } from "../shared/http-status.ts";
import { asLiveStream, LIVE_STREAM } from "../shared/live-stream.ts";
import { catalogueErrorOf } from "../shared/mask-error.ts";

/**
 * Serves `GET /metrics` (Prometheus text) and counts each operation by type and outcome: `OK`, or
 * the catalogue code of its first error. Subscriptions are counted when they start.
 */
export function useMetrics(
  metrics: GatewayMetrics,
  documents: DocumentFactsCache,
  access: MetricsAccess = {},
  endpoint = "/metrics",
): Plugin {
  return {
    // Not async: every other request goes on without waiting for a promise.
    onRequest({ url, request, endResponse, fetchAPI }) {
      if (url.pathname !== endpoint || access.separatePort) return;
      if (access.token !== undefined && !bearerMatches(request, access.token)) {
        const refusal = gatewayError(
          "UNAUTHENTICATED",
          `${endpoint} needs \`Authorization: Bearer <METRICS_TOKEN>\`.`,
        );
        return endResponse(refusalResponse(refusal, undefined, fetchAPI));
      }
      return metrics.registry.metrics().then((text) =>
        endResponse(
          new fetchAPI.Response(text, {
            headers: { "content-type": metrics.registry.contentType },
          }),
        ),
      );
    },
    // Per-tenant figures are no page's to read: no CORS header on this endpoint, whatever the origin.
    onResponse({ request, response }) {
      // Only a URL that holds the endpoint's text can have it as its path: the rest is not parsed.
      if (!request.url.includes(endpoint) || new URL(request.url).pathname !== endpoint) return;
      for (const name of [...response.headers.keys()]) {
        if (name.startsWith("access-control-")) response.headers.delete(name);
      }
    },
    onExecute({ args }) {
      const type =
        documents.of(args.document).operation(args.operationName)?.operation ?? "unknown";
      const meter = startOperationMeter(metrics, type);
      return {
        onExecuteDone({ result }) {
          if (isAsyncIterable(result)) {
            // A live query's stream says when it ends: no wrapper kept around it to hear it.
            const live = asLiveStream(result);
            if (live) {
              live[LIVE_STREAM](() => meter.timer());
              return undefined;
            }
            return { onEnd: () => meter.timer() };
          }
          meter.done(result.errors);
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

/**
 * One operation's figures: its time from now, and its count by outcome once it is done. Both
 * paths that execute (yoga's, and the prepared lane) measure an operation with this.
 */
export function startOperationMeter(metrics: GatewayMetrics, type: string): OperationMeter {
  return new OperationMeter(metrics, type);
}

/** One object, no closure: a live query's stream keeps its meter for as long as it is open. */
class OperationMeter {
  readonly #metrics: GatewayMetrics;
  readonly #type: string;
  readonly #started = performance.now();

  constructor(metrics: GatewayMetrics, type: string) {
    this.#metrics = metrics;
    this.#type = type;
  }

  /** Its time so far, observed. */
  timer(): void {
    const seconds = (performance.now() - this.#started) / 1e3;
    this.#metrics.operationSeconds.observe({ type: this.#type }, seconds);
  }

  /** Its time, and its count by outcome. */
  done(errors: ReadonlyArray<GraphQLError> | undefined): void {
    this.timer();
    this.#metrics.operations.inc({ type: this.#type, outcome: outcomeOf(errors) });
  }
}

/** Who may read `/metrics` (METRICS_TOKEN, METRICS_PORT; docs/limits.md). */
export interface MetricsAccess {
  /** When set, `Authorization: Bearer <token>` is required. */
  token?: string;
  /** Served on a port of its own (metrics-server.ts): not on the gateway's. */
  separatePort?: boolean;
}

function bearerMatches(request: Request, token: string): boolean {
  const given = Buffer.from(request.headers.get("authorization") ?? "");
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** `OK`, or the catalogue code the first error will be answered with (before masking). */
function outcomeOf(errors: ReadonlyArray<GraphQLError> | undefined): string {
  const first = errors?.[0];
  if (first === undefined) return "OK";
  const code = (catalogueErrorOf(first) ?? first).extensions?.code;
  return typeof code === "string" ? code : "INTERNAL_SERVER_ERROR";
}
