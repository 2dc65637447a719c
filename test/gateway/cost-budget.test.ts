import { afterEach, describe, expect, it } from "vitest";
import {
  type RecordingUpstream,
  sendJson,
  startRecordingUpstream,
} from "../upstream/recording-upstream.ts";
import { type Harness, startHarness } from "./harness.ts";

let harness: Harness;
afterEach(() => harness.close());

const PAGE_WITH_PARTIES = `{
  conversations(first: 100) { nodes { id agent { name } contact { stats } } }
}`;

describe("the static estimate counts what loaders share once per list", () => {
  it("accepts a page of 100 conversations with their agents and contacts' stats", async () => {
    harness = await startHarness();
    const response = await harness.graphql(PAGE_WITH_PARTIES);

    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    const requests = harness.takeUpstreamRequests();
    const lists = requests.filter((request) => request.startsWith("GET /v1/conversations?"));
    const agents = requests.filter((request) => request.startsWith("GET /v1/agents/"));
    const contacts = requests.filter((request) => request.startsWith("GET /v1/contacts/"));
    // The page in 2 requests (the seed's 50 a request, then one more for an exact hasNextPage),
    // then one GET per distinct agent (3) and per distinct contact's stats (12): 17 in all.
    expect(lists).toHaveLength(2);
    expect(new Set(agents).size).toBe(3);
    expect(agents).toHaveLength(3);
    expect(new Set(contacts).size).toBe(12);
    expect(contacts).toHaveLength(12);
    expect(requests).toHaveLength(17);
    expect(response.body.extensions?.cost).toEqual({
      // 3 for the page (its most requests), 10 agents and 10 contacts' stats per list.
      estimated: 23,
      upstreamCalls: 17,
    });
  });

  it("still counts what items cannot share once per item: 100 agents' stats", async () => {
    harness = await startHarness({ gateway: { maxUpstreamCalls: 100 } });
    const response = await harness.graphql("{ agents(first: 100) { nodes { stats } } }");
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.extensions).toMatchObject({
      code: "COST_LIMIT_EXCEEDED",
      cost: { estimated: 103, upstreamCalls: 0, limit: 100 },
    });
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("estimates one document afresh for each page size its variables ask, its ID aside", async () => {
    harness = await startHarness({ gateway: { maxUpstreamCalls: 100 } });
    const query = `query ($id: ID!, $n: Int) {
      agent(id: $id) { name }
      agents(first: $n) { nodes { stats } }
    }`;
    // The agent's ID changes nothing of the count; the page size does, on every run.
    for (const [id, n, estimated] of [
      ["agt_acme_reception", 2, 6],
      ["agt_acme_scheduler", 2, 6],
      ["agt_acme_reception", 100, 104],
      ["agt_acme_scheduler", 3, 7],
      ["agt_acme_reception", 100, 104],
    ] as const) {
      const response = await harness.graphql(query, { id, n });
      const cost = response.body.extensions?.cost as { estimated?: number } | undefined;
      expect(cost?.estimated).toBe(estimated);
      expect(response.status).toBe(estimated > 100 ? 400 : 200);
    }
  });
});

describe("the runtime budget", () => {
  let upstream: RecordingUpstream;
  afterEach(() => upstream.close());

  it("stops calling upstream after MAX_UPSTREAM_CALLS real calls, failing only the fields left", async () => {
    // A list whose 100 conversations each name another agent: far more than the estimate's 10.
    upstream = await startRecordingUpstream((request, res) => {
      const agent = /^\/v1\/agents\/(agt_\d+)$/.exec(request.url)?.[1];
      if (agent) return sendJson(res, 200, { id: agent, name: `Agent ${agent}` });
      const items = Array.from({ length: 100 }, (_, i) => ({
        id: `cnv_${i}`,
        agentId: `agt_${i}`,
      }));
      return sendJson(res, 200, { items, total: 100, limit: 100, offset: 0 });
    });
    // 13 is what the static check estimates for this page (3 + 10 agents): it is let through.
    harness = await startHarness({
      upstream: { baseUrl: upstream.url },
      gateway: { maxUpstreamCalls: 13 },
    });
    const response = await harness.graphql(
      "{ conversations(first: 100) { nodes { id agent { name } } } }",
    );

    expect(upstream.requests).toHaveLength(13);
    const data = response.body.data as { conversations: { nodes: Array<{ agent: unknown }> } };
    const nodes = data.conversations.nodes;
    expect(nodes).toHaveLength(100);
    const loaded = nodes.filter((node) => node.agent !== null).length;
    // Two list requests (100 items and the one after them, for an exact hasNextPage) and 11 agents.
    expect(loaded).toBe(11);
    const refused = (response.body.errors ?? []).filter(
      (error) => error.extensions?.code === "COST_LIMIT_EXCEEDED",
    );
    expect(refused).toHaveLength(89);
    expect(refused[0]?.path).toEqual(["conversations", "nodes", expect.any(Number), "agent"]);
    expect(response.body.extensions?.cost).toEqual({ estimated: 13, upstreamCalls: 13 });
  });
});
