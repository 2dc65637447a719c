import { collectDefaultMetrics, Gauge, Registry } from "prom-client";
import { talliedCounter, talliedHistogram } from "./tallied-metrics.ts";

/** Latency buckets, from 5 ms to 10 s (the default operation deadline). */
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The gateway's Prometheus metrics, on a registry of its own (several gateways in one process
 * never share one). Labels hold only fixed vocabularies: operation types, catalogue codes, route
 * templates and HTTP statuses; never a key, an ID or any text of a client or the upstream.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  readonly operations = this.counter(
    "voicegraph_operations_total",
    "GraphQL operations by type and outcome (OK or the first error's catalogue code).",
    ["type", "outcome"],
  );
  readonly operationSeconds = this.histogram(
    "voicegraph_operation_duration_seconds",
    "Time to execute a GraphQL operation, by type.",
    ["type"],
  );
  readonly upstreamCalls = this.counter(
    "voicegraph_upstream_requests_total",
    "Upstream REST calls by route template and status (or unavailable).",
    ["route", "status"],
  );
  readonly upstreamSeconds = this.histogram(
    "voicegraph_upstream_request_duration_seconds",
    "Time of one upstream REST call, retries included, by route template.",
    ["route"],
  );
  readonly sharedCalls = this.counter(
    "voicegraph_upstream_shared_total",
    "Calls answered without an upstream request of their own: joined to an identical call in flight, or from the read cache.",
    ["route", "how"],
  );
  readonly compiledRuns = this.counter(
    "voicegraph_query_runs_total",
    "Queries by how they ran: compiled (graphql-jit) or interpreted (graphql-js).",
    ["how"],
  );
  readonly preparedAnswers = this.counter(
    "voicegraph_prepared_answers_total",
    "Queries answered by the prepared lane: validated and compiled before, run without yoga's request machinery.",
    [],
  );
  readonly unhandledRejections = this.counter(
    "voicegraph_unhandled_rejections_total",
    "Rejections nothing handled, which the process logged and survived (npm start): each a defect.",
    [],
  );
  readonly subscriptions = new Gauge({
    name: "voicegraph_active_subscriptions",
    help: "Subscriptions being served now.",
    registers: [this.registry],
  });

  constructor(
    pollers: { total: () => number; owned: () => number },
    options: { processMetrics?: boolean } = {},
  ) {
    // What every Node service's dashboard reads: prom-client's own, not a copy of ours.
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: "voicegraph_active_pollers",
      help: "Pollers of operation 8 running now (one per key and conversation).",
      registers: [this.registry],
      collect() {
        this.set(pollers.total());
      },
    });
    new Gauge({
      name: "voicegraph_fleet_pollers",
      help: "This instance's pollers by role: owned (it polls the upstream) or followed (another instance of the fleet does).",
      labelNames: ["role"],
      registers: [this.registry],
      collect() {
        const owned = pollers.owned();
        this.set({ role: "owned" }, owned);
        this.set({ role: "followed" }, pollers.total() - owned);
      },
    });
  }

  private counter<L extends string>(name: string, help: string, labelNames: readonly L[]) {
    return talliedCounter(this.registry, name, help, labelNames);
  }

  private histogram<L extends string>(name: string, help: string, labelNames: readonly L[]) {
    return talliedHistogram(this.registry, name, help, labelNames, SECONDS);
  }

  /** The CallContext hook of every call answered by another's call or the read cache. */
  readonly recordSharedCall = (call: { route: string; how: string }) => {
    this.sharedCalls.inc({ route: call.route, how: call.how });
  };

  /** The CallContext hook of every operation's REST calls. */
  readonly recordUpstreamCall = (call: { route: string; status: string; seconds: number }) => {
    this.upstreamCalls.inc({ route: call.route, status: call.status });
    this.upstreamSeconds.observe({ route: call.route }, call.seconds);
  };
}
