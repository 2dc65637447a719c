import { describe, expect, it } from "vitest";
import { closedAfterEachTest } from "../support/closing.ts";
import { sendJson, startRecordingUpstream } from "../upstream/recording-upstream.ts";
import { startHarness } from "./harness.ts";

// A page starts its items' loads before they resolve (src/schema/item-loads.ts): a page holding
// an item that is not an object is refused at that item, as before, not by the early start.

describe("a conversation page holding items that are not objects", () => {
  const closing = closedAfterEachTest();

  it("is refused at that item, as its fields decide", async () => {
    const upstream = closing(
      await startRecordingUpstream((request, res) => {
        const path = request.url?.split("?")[0];
        if (path === "/v1/conversations") {
          const item = { id: "cnv_1", agentId: "agt_1", contactId: "cnt_1" };
          return sendJson(res, 200, { items: [item, null], total: 2, limit: 3, offset: 0 });
        }
        if (path === "/v1/agents/agt_1") return sendJson(res, 200, { id: "agt_1", name: "A" });
        return sendJson(res, 200, { contactId: "cnt_1" });
      }),
    );
    const harness = closing(
      await startHarness({ upstream: { baseUrl: upstream.url, maxRetries: 0 } }),
    );
    const response = await harness.graphql(
      "{ conversations(first: 2) { nodes { id agent { id } contact { stats } } } }",
    );

    expect(response.body.data).toEqual({ conversations: null });
    expect(response.body.errors?.map((error) => [error.path, error.extensions?.code])).toEqual([
      [["conversations", "nodes", 1], "INTERNAL_SERVER_ERROR"],
    ]);
  });

  it.each([
    ["a number", 5],
    ["a string", "cnv_2"],
    ["a list", ["cnv_2"]],
  ])("refuses the page when an item is %s, and never loads it as an ID", async (_kind, odd) => {
    const upstream = closing(
      await startRecordingUpstream((request, res) => {
        const path = request.url?.split("?")[0];
        if (path === "/v1/conversations") {
          const item = { id: "cnv_1", agentId: "agt_1", contactId: "cnt_1" };
          return sendJson(res, 200, { items: [item, odd], total: 2, limit: 3, offset: 0 });
        }
        return sendJson(res, 200, { id: "agt_1", name: "A" });
      }),
    );
    const harness = closing(
      await startHarness({ upstream: { baseUrl: upstream.url, maxRetries: 0 } }),
    );
    const response = await harness.graphql("{ conversations(first: 2) { nodes { id status } } }");

    expect(response.body.data).toEqual({ conversations: null });
    expect(response.body.errors?.map((error) => [error.path, error.extensions?.code])).toEqual([
      [["conversations"], "UPSTREAM_UNAVAILABLE"],
    ]);
    expect(response.body.errors?.[0]?.extensions?.reason).toBe("INVALID_RESPONSE");
    expect(upstream.requests.map((request) => request.url?.split("?")[0])).toEqual([
      "/v1/conversations",
    ]);
  });
});
