import { describe, expect, it } from "vitest";
import { AgentStatsAlongsideDocument, AgentStatsDeferredDocument } from "../generated/graphql.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { startBarrierUpstream } from "./barrier-upstream.ts";
import { type Harness, startHarness } from "./harness.ts";

/**
 * `agent(id) { stats }`: the stats need only the ID the caller gave, so their GET starts beside the
 * agent's instead of after it (one round trip, not two), and the upstream still sees each once.
 */
describe("reads that need only the node's ID start with the node's GET", () => {
  const closing = closedAfterEachTest();

  /** Answers the agent and its stats only when both are in flight at once. */
  async function barrier(maxWaitMs: number) {
    const upstream = closing(
      await startBarrierUpstream({
        size: 2,
        maxWaitMs,
        held: (path) => path.startsWith("/v1/agents/"),
      }),
    );
    const harness = closing(
      await startHarness({ upstream: { baseUrl: upstream.url, maxRetries: 0 } }),
    );
    return { upstream, harness };
  }

  it.each([
    [
      "in the selection",
      (harness: Harness) =>
        harness.graphql(AgentStatsAlongsideDocument, { id: "agt_b1", withStats: true }),
    ],
    [
      "in a deferred fragment",
      (harness: Harness) => harness.graphql(AgentStatsDeferredDocument, { id: "agt_b1" }),
    ],
  ])(
    "sends an agent's GET and its stats' GET concurrently, once each: stats %s",
    async (_where, ask) => {
      const { upstream, harness } = await barrier(2_000);

      const response = await ask(harness);

      expect(response.body).toEqual({
        data: { agent: { id: "agt_b1", stats: {} } },
        extensions: { cost: { estimated: 2, upstreamCalls: 2 } },
      });
      expect(upstream.requests.sort()).toEqual([
        "GET /v1/agents/agt_b1",
        "GET /v1/agents/agt_b1/stats",
      ]);
    },
  );

  it("reads no stats the selection skips (control: the barrier is never met)", async () => {
    const { upstream, harness } = await barrier(200);

    const response = await harness.graphql(AgentStatsAlongsideDocument, {
      id: "agt_b1",
      withStats: false,
    });

    expect(response.body.data).toEqual({ agent: null });
    expect(response.body.errors?.map((error) => error.extensions?.code)).toEqual([
      "UPSTREAM_ERROR",
    ]);
    expect(upstream.requests).toEqual(["GET /v1/agents/agt_b1"]);
  });

  it("follows @include's variable on every run of one document, compiled runs included", async () => {
    const harness = closing(await startHarness());

    for (const withStats of [true, false, false, true, true, false, false, true]) {
      const response = await harness.graphql(AgentStatsAlongsideDocument, {
        id: "agt_acme_reception",
        withStats,
      });

      expect(response.body.errors).toBeUndefined();
      expect(Object.keys(response.body.data?.agent ?? {})).toEqual(
        withStats ? ["id", "stats"] : ["id"],
      );
      expect(harness.takeUpstreamRequests().sort()).toEqual(
        withStats
          ? ["GET /v1/agents/agt_acme_reception", "GET /v1/agents/agt_acme_reception/stats"]
          : ["GET /v1/agents/agt_acme_reception"],
      );
    }
  });

  it("answers a missing agent with its NOT_FOUND alone, though its stats were read too", async () => {
    const harness = closing(await startHarness());

    const response = await harness.graphql(AgentStatsAlongsideDocument, {
      id: "agt_acme_missing",
      withStats: true,
    });

    expect(response.body.data).toEqual({ agent: null });
    expect(response.body.errors?.map((error) => [error.path, error.extensions?.code])).toEqual([
      [["agent"], "NOT_FOUND"],
    ]);
    expect(harness.takeUpstreamRequests().sort()).toEqual([
      "GET /v1/agents/agt_acme_missing",
      "GET /v1/agents/agt_acme_missing/stats",
    ]);
  });
});
