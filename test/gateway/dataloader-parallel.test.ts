import { describe, expect, it } from "vitest";
import {
  ConversationPageAgentsDocument,
  OrganizationAgentAndDocumentDocument,
  ThreeAgentsDocument,
} from "../generated/graphql.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { BARRIER_AGENT_IDS, startBarrierUpstream } from "./barrier-upstream.ts";
import { sorted } from "./dataloader-support.ts";
import { startHarness } from "./harness.ts";

describe("independent fetches run in parallel", () => {
  const closing = closedAfterEachTest();

  async function start(options: Parameters<typeof startBarrierUpstream>[0]) {
    const barrier = closing(await startBarrierUpstream(options));
    const harness = closing(
      await startHarness({ upstream: { baseUrl: barrier.url, maxRetries: 0 } }),
    );
    return { barrier, harness };
  }

  it("sends the GETs of three agent root fields concurrently", async () => {
    const { barrier, harness } = await start({ size: 3, maxWaitMs: 2_000, held: () => true });

    const [first, second, third] = BARRIER_AGENT_IDS;
    const response = await harness.graphql(ThreeAgentsDocument, { first, second, third });

    expect(response.body.errors).toBeUndefined();
    expect(response.body.data).toEqual({
      first: { id: "agt_b1", name: "Agent agt_b1" },
      second: { id: "agt_b2", name: "Agent agt_b2" },
      third: { id: "agt_b3", name: "Agent agt_b3" },
    });
    expect(sorted(barrier.requests)).toEqual([
      "GET /v1/agents/agt_b1",
      "GET /v1/agents/agt_b2",
      "GET /v1/agents/agt_b3",
    ]);
  });

  it("sends the organization, agent and document root fields concurrently", async () => {
    const { barrier, harness } = await start({ size: 3, maxWaitMs: 2_000, held: () => true });

    const response = await harness.graphql(OrganizationAgentAndDocumentDocument, {
      agentId: "agt_b1",
      documentId: "doc_b1",
    });

    expect(response.body.errors).toBeUndefined();
    expect(response.body.data).toEqual({
      organization: { name: "Barrier Inc." },
      agent: { name: "Agent agt_b1" },
      document: { name: "Document doc_b1" },
    });
    expect(sorted(barrier.requests)).toEqual([
      "GET /v1/agents/agt_b1",
      "GET /v1/documents/doc_b1",
      "GET /v1/organization",
    ]);
  });

  it("sends the agent GETs of a conversation page concurrently, after the list", async () => {
    const { barrier, harness } = await start({
      size: 3,
      maxWaitMs: 2_000,
      held: (path) => path.startsWith("/v1/agents/"),
    });

    const response = await harness.graphql(ConversationPageAgentsDocument, { first: 3 });

    expect(response.body.errors).toBeUndefined();
    expect(response.body.data?.conversations?.nodes).toEqual(
      BARRIER_AGENT_IDS.map((id, index) => ({
        id: `cnv_b${index + 1}`,
        agent: { id, name: `Agent ${id}`, status: "ACTIVE" },
      })),
    );
    expect(barrier.requests[0]).toBe("GET /v1/conversations?limit=4&offset=0");
    expect(sorted(barrier.requests.slice(1))).toEqual([
      "GET /v1/agents/agt_b1",
      "GET /v1/agents/agt_b2",
      "GET /v1/agents/agt_b3",
    ]);
  });

  it("fails when fewer requests than the barrier's size arrive together (control)", async () => {
    const { barrier, harness } = await start({ size: 3, maxWaitMs: 200, held: () => true });

    // Two distinct agents: the third alias repeats the first, so only two GETs are ever sent.
    const response = await harness.graphql(ThreeAgentsDocument, {
      first: "agt_b1",
      second: "agt_b2",
      third: "agt_b1",
    });

    expect(response.body.data).toEqual({ first: null, second: null, third: null });
    expect(response.body.errors?.map((error) => [error.path?.[0], error.extensions?.code])).toEqual(
      expect.arrayContaining([
        ["first", "UPSTREAM_ERROR"],
        ["second", "UPSTREAM_ERROR"],
        ["third", "UPSTREAM_ERROR"],
      ]),
    );
    expect(response.body.errors).toHaveLength(3);
    expect(sorted(barrier.requests)).toEqual(["GET /v1/agents/agt_b1", "GET /v1/agents/agt_b2"]);
  });
});
