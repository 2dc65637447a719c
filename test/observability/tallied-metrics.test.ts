import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GatewayMetrics } from "../../src/gateway/observability/metrics.ts";

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
