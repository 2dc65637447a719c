import { afterEach, describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { type Harness, startHarness } from "./harness.ts";

let harness: Harness;
afterEach(() => harness.close());

// Three dependent rounds: the agent, then its conversations, then each contact's stats.
const THREE_ROUNDS = `{
  agent(id: "${SEED_IDS.acmeAgent}") {
    name
    conversations(first: 1) { nodes { id contact { stats } } }
  }
}`;

describe("the whole-operation deadline", () => {
  it("cuts the rounds still waiting with UPSTREAM_UNAVAILABLE (OPERATION_DEADLINE) and keeps the rest", async () => {
    // The third round (the contact's stats) never answers: the operation's deadline ends it,
    // not the upstream timeout, however long a busy machine takes over the first two.
    harness = await startHarness({
      gateway: { operationDeadlineMs: 4_000 },
      upstream: { timeoutMs: 60_000 },
    });
    harness.sandbox.injectFault({ path: /^\/v1\/contacts\/[^/]+\/stats$/, hang: true });
    const response = await harness.graphql(THREE_ROUNDS);

    expect(response.status).toBe(200);
    const agent = response.body.data?.agent as {
      name: string;
      conversations: { nodes: Array<{ contact: { stats: unknown } }> };
    };
    expect(agent.name).toBe("Reception");
    expect(agent.conversations.nodes[0]?.contact.stats).toBeNull();
    expect(response.body.errors).toEqual([
      expect.objectContaining({
        path: ["agent", "conversations", "nodes", 0, "contact", "stats"],
        extensions: expect.objectContaining({
          code: "UPSTREAM_UNAVAILABLE",
          reason: "OPERATION_DEADLINE",
        }),
      }),
    ]);
  });

  it("never starts a retry past the deadline", async () => {
    harness = await startHarness({
      gateway: { operationDeadlineMs: 300 },
      upstream: { maxRetries: 5 },
    });
    // Each attempt answers 503 after 200 ms: a GET the client would retry five times.
    harness.sandbox.injectFault({ path: "/v1/organization", status: 503, delayMs: 200, times: 10 });
    const response = await harness.graphql("{ organization { name } }");
    expect(response.body.errors?.[0]?.extensions).toMatchObject({
      code: "UPSTREAM_UNAVAILABLE",
      reason: "OPERATION_DEADLINE",
    });
    // The first attempt and at most one retry fit in 300 ms at 200 ms each.
    expect(harness.takeUpstreamRequests().length).toBeLessThanOrEqual(2);
  });

  it("does not bound a subscription", async () => {
    harness = await startHarness({
      // The call outlives the deadline more than twice; each event alone stays well within it.
      sandbox: { callDurationMs: 3_000, callIntervalMs: 3_600_000 },
      gateway: { operationDeadlineMs: 1_000 },
    });
    const response = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "text/event-stream",
        authorization: "Bearer sk_test_acme",
      },
      body: JSON.stringify({
        query: `subscription { conversationStatus(id: "${SEED_IDS.acmeLiveConversation}") { conversation { status } ended } }`,
      }),
    });
    const text = await response.text();
    expect(text).toContain('"ended":true');
    expect(text).not.toContain("OPERATION_DEADLINE");
  });
});
