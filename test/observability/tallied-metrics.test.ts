import fc from "fast-check";
import { Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { GatewayMetrics } from "../../src/gateway/observability/metrics.ts";
import { talliedHistogram } from "../../src/gateway/observability/tallied-metrics.ts";

const pollers = { total: () => 0, owned: () => 0 };

/** A scrape's samples of one metric, as label values joined, to their value. */
async function samples(metrics: GatewayMetrics, name: string): Promise<Record<string, number>> {
  const metric = metrics.registry.getSingleMetric(name);
  const got = await metric?.get();
  return Object.fromEntries(
    (got?.values ?? []).map((value) => [Object.values(value.labels).join(" "), value.value]),
  );
}

describe("the gateway's counters, tallied before prom-client reads them", () => {
  it("read at every scrape every increment made before it, once, for any order of increments", async () => {
    const labelled = fc.record({
      route: fc.constantFrom("/v1/agents/{id}", "/v1/organization", "/v1/campaigns"),
      status: fc.constantFrom("200", "404", "unavailable"),
    });
    // Increments, with a scrape after some of them.
    const steps = fc.array(fc.oneof(labelled, fc.constant("scrape" as const)), { maxLength: 60 });
    await fc.assert(
      fc.asyncProperty(steps, async (plan) => {
        const metrics = new GatewayMetrics(pollers);
        const expected: Record<string, number> = {};
        for (const step of plan) {
          if (step === "scrape") {
            expect(await samples(metrics, "voicegraph_upstream_requests_total")).toEqual(expected);
            continue;
          }
          metrics.upstreamCalls.inc(step);
          const key = `${step.route} ${step.status}`;
          expected[key] = (expected[key] ?? 0) + 1;
        }
        expect(await samples(metrics, "voicegraph_upstream_requests_total")).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it("counts a counter without labels, and keeps two gateways' counts apart", async () => {
    const one = new GatewayMetrics(pollers);
    const other = new GatewayMetrics(pollers);
    one.preparedAnswers.inc();
    one.preparedAnswers.inc();
    other.preparedAnswers.inc();
    expect(await samples(one, "voicegraph_prepared_answers_total")).toEqual({ "": 2 });
    expect(await samples(other, "voicegraph_prepared_answers_total")).toEqual({ "": 1 });
    expect(await one.registry.metrics()).toContain("voicegraph_prepared_answers_total 2");
  });
});

describe("the gateway's histograms, prom-client's own fed at each read", () => {
  const bounds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
  const name = "voicegraph_test_duration_seconds";
  const help = "A duration.";

  it("answer every scrape, reset and read as JSON what prom-client's Histogram answers", async () => {
    const observed = fc.record({
      labels: fc.record({
        route: fc.constantFrom("/v1/agents/{id}", "/v1/organization", "/v1/campaigns"),
        status: fc.constantFrom("200", "404"),
      }),
      // Bounds themselves, values between and beyond them, zero and negative ones.
      value: fc.oneof(
        fc.constantFrom(...bounds, 0, 11, -1),
        fc.double({ min: -1, max: 20, noNaN: true }),
      ),
    });
    const step = fc.oneof(
      { weight: 8, arbitrary: observed },
      {
        weight: 1,
        arbitrary: fc.constantFrom("scrape" as const, "json" as const, "reset" as const),
      },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 80 }), async (plan) => {
        const ours = new Registry();
        const theirs = new Registry();
        const histogram = talliedHistogram(ours, name, help, ["route", "status"], bounds);
        const reference = new Histogram({
          name,
          help,
          labelNames: ["route", "status"],
          buckets: bounds,
          registers: [theirs],
        });
        for (const action of [...plan, "scrape" as const, "json" as const]) {
          if (action === "scrape") {
            expect(await ours.metrics()).toBe(await theirs.metrics());
          } else if (action === "json") {
            expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
          } else if (action === "reset") {
            ours.resetMetrics();
            theirs.resetMetrics();
          } else {
            histogram.observe(action.labels, action.value);
            reference.observe(action.labels, action.value);
          }
        }
        expect(await histogram.get()).toEqual(await reference.get());
      }),
      { numRuns: 200 },
    );
  });

  it("refuses a value that is not a finite number, as prom-client does", () => {
    const histogram = talliedHistogram(new Registry(), name, help, ["route"], bounds);
    expect(() => histogram.observe({ route: "/v1/organization" }, Number.NaN)).toThrow(TypeError);
  });

  it("times an operation into the gateway's own histogram", async () => {
    const metrics = new GatewayMetrics(pollers);
    metrics.operationSeconds.observe({ type: "query" }, 0.003);
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'voicegraph_operation_duration_seconds_bucket{le="0.005",type="query"} 1',
    );
    expect(text).toContain('voicegraph_operation_duration_seconds_count{type="query"} 1');
  });
});
