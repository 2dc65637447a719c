import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { rateLimitHeaders, start, windowReset } from "./rate-limit-support.ts";

describe("rate-limit reporting", () => {
  it("reports the lowest remaining of several parallel upstream calls, in extensions and headers", async () => {
    const { graphql, takeUpstreamRequests } = await start(1000);
    const reset = windowReset();

    const response = await graphql(
      "{ organization { name } agents(first: 2) { nodes { id stats } } }",
    );

    expect(response.status).toBe(200);
    expect(takeUpstreamRequests().sort()).toEqual([
      "GET /v1/agents/agt_acme_reception/stats",
      "GET /v1/agents/agt_acme_scheduler/stats",
      "GET /v1/agents?page=1&pageSize=3",
      "GET /v1/organization",
    ]);
    expect(response.body.extensions).toEqual({
      cost: { estimated: 6, upstreamCalls: 4 }, // organization 1, agents 3, two stats 2
      rateLimit: { limit: 1000, remaining: 996, resetAt: new Date(reset * 1000).toISOString() },
    });
    expect(rateLimitHeaders(response.headers)).toEqual({
      limit: "1000",
      remaining: "996",
      reset: String(reset),
    });
  });

  it("keeps the lowest remaining even when a later answer shows a higher one", async () => {
    const { graphql, sandbox, takeUpstreamRequests } = await start(1000);
    const reset = windowReset();
    await graphql("{ organization { name } }"); // remaining 999
    // The stats call, sent beside the agent call, answers after it with a higher figure.
    sandbox.injectFault({
      path: `/v1/agents/${SEED_IDS.acmeAgent}/stats`,
      delayMs: 100,
      status: 200,
      body: { totalConversations: 3 },
      headers: {
        "X-RateLimit-Limit": "1000",
        "X-RateLimit-Remaining": "999",
        "X-RateLimit-Reset": String(reset),
      },
    });
    takeUpstreamRequests();

    const response = await graphql(`{ agent(id: "${SEED_IDS.acmeAgent}") { name stats } }`);

    expect(response.body.data).toEqual({
      agent: { name: "Reception", stats: { totalConversations: 3 } },
    });
    expect(takeUpstreamRequests().sort()).toEqual([
      `GET /v1/agents/${SEED_IDS.acmeAgent}`,
      `GET /v1/agents/${SEED_IDS.acmeAgent}/stats`,
    ]);
    expect(response.body.extensions?.rateLimit).toEqual({
      limit: 1000,
      remaining: 998,
      resetAt: new Date(reset * 1000).toISOString(),
    });
    expect(rateLimitHeaders(response.headers)).toEqual({
      limit: "1000",
      remaining: "998",
      reset: String(reset),
    });
  });

  it("reports no rate limit when no upstream call was made", async () => {
    const { graphql } = await start(1000);

    const response = await graphql("{ __typename }");

    expect(response.body.extensions).toEqual({ cost: { estimated: 0, upstreamCalls: 0 } });
    expect(rateLimitHeaders(response.headers)).toEqual({
      limit: null,
      remaining: null,
      reset: null,
    });
  });
});
