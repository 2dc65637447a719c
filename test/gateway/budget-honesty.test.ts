import { afterEach, describe, expect, it } from "vitest";
import {
  type RecordingUpstream,
  sendJson,
  startRecordingUpstream,
} from "../upstream/recording-upstream.ts";
import { type Harness, startHarness } from "./harness.ts";

// One budget, honestly counted: retries are calls, a batch shares one budget,
// and the bytes of upstream answers are bounded per operation.

let harness: Harness;
let upstream: RecordingUpstream;
afterEach(async () => {
  await harness.close();
  await upstream.close();
});

const PAGE = "{ conversations(first: 100) { nodes { id agent { name } } } }";

/** A list of 100 conversations, each naming another agent; agents answered by `agent`. */
async function listUpstream(agent: (id: string, res: import("node:http").ServerResponse) => void) {
  return startRecordingUpstream((request, res) => {
    const id = /^\/v1\/agents\/(agt_\d+)$/.exec(request.url)?.[1];
    if (id) return agent(id, res);
    const items = Array.from({ length: 100 }, (_, i) => ({ id: `cnv_${i}`, agentId: `agt_${i}` }));
    return sendJson(res, 200, { items, total: 100, limit: 100, offset: 0 });
  });
}

const codes = (errors: ReadonlyArray<{ extensions?: Record<string, unknown> }> | undefined) =>
  new Set((errors ?? []).map((error) => error.extensions?.code));

describe("the runtime budget", () => {
  it("counts every retry as a call: with 503s, no more requests than MAX_UPSTREAM_CALLS, and reports them", async () => {
    upstream = await listUpstream((_id, res) =>
      sendJson(res, 503, { error: { code: "UNAVAILABLE", message: "down" } }),
    );
    harness = await startHarness({
      upstream: { baseUrl: upstream.url, maxRetries: 2 },
      gateway: { maxUpstreamCalls: 13 },
    });
    const response = await harness.graphql(PAGE);
    // Without counting retries: 2 list requests and 11 agents × 3 attempts = 35.
    expect(upstream.requests).toHaveLength(13);
    expect(response.body.extensions?.cost).toEqual({ estimated: 13, upstreamCalls: 13 });
    // The agents that were tried answer the upstream's 503; the rest were not tried at all.
    expect(codes(response.body.errors)).toEqual(new Set(["UPSTREAM_ERROR", "COST_LIMIT_EXCEEDED"]));
  });

  it("shares one budget across the operations of a batch (MAX_BATCH_SIZE)", async () => {
    upstream = await listUpstream((id, res) => sendJson(res, 200, { id, name: `Agent ${id}` }));
    harness = await startHarness({
      upstream: { baseUrl: upstream.url },
      // Without coalescing: ten identical operations joining each other's calls would make
      // fewer requests by how they happened to overlap, not by the budget.
      gateway: { maxUpstreamCalls: 13, maxBatchSize: 10, sharing: { coalesce: false } },
    });
    const response = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk_test_acme" },
      body: JSON.stringify(Array.from({ length: 10 }, () => ({ query: PAGE }))),
    });
    const answers = (await response.json()) as Array<{ errors?: unknown[] }>;
    expect(answers).toHaveLength(10);
    // Ten copies of 13 calls each would be 130: the batch spends its one budget of 13, no more.
    expect(upstream.requests).toHaveLength(13);
    expect(answers.every((answer) => (answer.errors ?? []).length > 0)).toBe(true);
  });

  it("bounds the bytes of upstream answers per operation (MAX_UPSTREAM_BYTES) with COST_LIMIT_EXCEEDED", async () => {
    const padding = "x".repeat(1024 * 1024);
    upstream = await listUpstream((id, res) => sendJson(res, 200, { id, name: id, padding }));
    harness = await startHarness({
      upstream: { baseUrl: upstream.url },
      gateway: { bounds: { maxUpstreamBytes: 4 * 1024 * 1024 }, maxUpstreamCalls: 200 },
    });
    const response = await harness.graphql(
      "{ conversations(first: 100) { nodes { id agent { name } } } }",
    );
    const refused = (response.body.errors ?? []).filter(
      (error) => error.extensions?.code === "COST_LIMIT_EXCEEDED",
    );
    const loaded = (
      response.body.data as { conversations: { nodes: Array<{ agent: unknown }> } }
    ).conversations.nodes.filter((node) => node.agent !== null).length;
    console.info(`1 MiB answers, 4 MiB bound: ${loaded} agents loaded, ${refused.length} refused`);
    // At most 4 answers of 1 MiB fit in 4 MiB (the list's own answer takes a little).
    expect(loaded).toBeLessThanOrEqual(4);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]?.extensions?.cost).toEqual({ maxUpstreamBytes: 4 * 1024 * 1024 });
    expect(refused[0]?.message).toContain("upstream answers passed");
  });
});
