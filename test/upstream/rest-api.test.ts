import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createUpstreamClient, type UpstreamClient } from "../../src/upstream/client.ts";
import { createKeyHasher } from "../../src/upstream/key-memory.ts";
import type { RateLimit } from "../../src/upstream/rate-limit.ts";
import { createRestApi, type RestApi } from "../../src/upstream/rest-api.ts";
import { type RecordingUpstream, sendJson, startRecordingUpstream } from "./recording-upstream.ts";

const KEY = "Bearer sk_test_acme";

let upstream: RecordingUpstream;
let client: UpstreamClient;
let api: RestApi;
const rateLimits: RateLimit[] = [];

beforeAll(async () => {
  // Echoes what it received, so each call's result shows the request it made; DELETEs get 204.
  upstream = await startRecordingUpstream((req, res) => {
    if (req.method === "DELETE") {
      res.writeHead(204);
      res.end();
      return;
    }
    const body = req.body === "" ? null : JSON.parse(req.body);
    sendJson(
      res,
      200,
      { received: `${req.method} ${req.url}`, body },
      {
        "x-ratelimit-limit": "100",
        "x-ratelimit-remaining": "42",
        "x-ratelimit-reset": "1767225600",
      },
    );
  });
  client = createUpstreamClient({ baseUrl: upstream.url, timeoutMs: 2_000 });
  api = createRestApi(client, {
    authorization: KEY,
    keyHash: createKeyHasher(),
    onRateLimit: (rl) => rateLimits.push(rl),
  });
});

afterAll(async () => {
  await client.close();
  await upstream.close();
});

beforeEach(() => {
  upstream.requests.length = 0;
  rateLimits.length = 0;
});

describe("REST operations", () => {
  it.each<[string, string, (api: RestApi) => Promise<unknown>, unknown]>([
    ["getOrganization", "GET /v1/organization", (a) => a.getOrganization(), null],
    [
      "updateOrganization",
      "PATCH /v1/organization",
      (a) => a.updateOrganization({ name: "Acme", timezone: "Europe/Zurich" }),
      { name: "Acme", timezone: "Europe/Zurich" },
    ],
    ["getAgent", "GET /v1/agents/agt_1", (a) => a.getAgent("agt_1"), null],
    [
      "updateAgent",
      "PATCH /v1/agents/agt_1",
      (a) => a.updateAgent("agt_1", { greeting: "Hi" }),
      { greeting: "Hi" },
    ],
    ["getAgentStats", "GET /v1/agents/agt_1/stats", (a) => a.getAgentStats("agt_1"), null],
    [
      "assignPhoneNumber",
      "POST /v1/phone-numbers/assign",
      (a) => a.assignPhoneNumber({ phoneNumberId: "phn_1", agentId: "agt_1" }),
      { phoneNumberId: "phn_1", agentId: "agt_1" },
    ],
    [
      "getConversationStatus",
      "GET /v1/conversations/cnv_1/status",
      (a) => a.getConversationStatus("cnv_1"),
      null,
    ],
    ["getContactStats", "GET /v1/contacts/cnt_1/stats", (a) => a.getContactStats("cnt_1"), null],
    ["retryCampaign", "POST /v1/campaigns/cmp_1/retry", (a) => a.retryCampaign("cmp_1"), null],
    ["getToolCatalog", "GET /v1/tools/catalog", (a) => a.getToolCatalog(), null],
    ["getDocument", "GET /v1/documents/doc_1", (a) => a.getDocument("doc_1"), null],
    ["createAgent", "POST /v1/agents", (a) => a.createAgent({ name: "Ava" }), { name: "Ava" }],
    ["getCampaign", "GET /v1/campaigns/cmp_1", (a) => a.getCampaign("cmp_1"), null],
  ])("%s sends %s", async (_name, received, call, body) => {
    const result = await call(api);

    expect(result).toEqual({ received, body });
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]?.headers.authorization).toBe(KEY);
    expect(rateLimits).toEqual([{ limit: 100, remaining: 42, reset: 1767225600 }]);
  });

  it.each<[string, string, (api: RestApi) => Promise<unknown>]>([
    [
      "deletePropertyDefinition",
      "/v1/properties/prp_1",
      (a) => a.deletePropertyDefinition("prp_1"),
    ],
    ["deleteCampaign", "/v1/campaigns/cmp_1", (a) => a.deleteCampaign("cmp_1")],
  ])("%s sends DELETE %s and answers {} for a 204", async (_name, url, call) => {
    expect(await call(api)).toEqual({});
    expect(upstream.requests.map((r) => `${r.method} ${r.url}`)).toEqual([`DELETE ${url}`]);
  });

  it("encodes path segments", async () => {
    await api.getAgent("agt_1/../../organization?x=1#y");

    expect(upstream.requests[0]?.url).toBe("/v1/agents/agt_1%2F..%2F..%2Forganization%3Fx%3D1%23y");
  });

  it("lists conversations with limit,offset first, then filters in declared order", async () => {
    await api.listConversations({
      endDate: "2026-01-31T23:59:59Z",
      search: "refund please",
      channel: "VOICE",
      status: "FAILED",
      offset: 50,
      agentId: "agt_1",
      limit: 25,
      direction: undefined,
      contactId: "cnt_1",
      startDate: "2026-01-01T00:00:00Z",
    });

    expect(upstream.requests[0]?.url).toBe(
      "/v1/conversations?limit=25&offset=50&agentId=agt_1&contactId=cnt_1&status=FAILED" +
        "&channel=VOICE&search=refund%20please&startDate=2026-01-01T00%3A00%3A00Z" +
        "&endDate=2026-01-31T23%3A59%3A59Z",
    );
  });

  it("lists agents with page,pageSize and sends nothing when no page is asked for", async () => {
    await api.listAgents({ pageSize: 10, page: 3 });
    await api.listAgents({});

    expect(upstream.requests.map((r) => r.url)).toEqual([
      "/v1/agents?page=3&pageSize=10",
      "/v1/agents",
    ]);
  });

  it("lists campaigns with cursor,limit first, then the status filter", async () => {
    await api.listCampaigns({ status: "FAILED", limit: 5, cursor: "opaque+/=" });

    expect(upstream.requests[0]?.url).toBe(
      "/v1/campaigns?cursor=opaque%2B%2F%3D&limit=5&status=FAILED",
    );
  });

  it("forwards the call's signal so an aborted caller makes no upstream call", async () => {
    const aborted = createRestApi(client, {
      authorization: KEY,
      keyHash: createKeyHasher(),
      signal: AbortSignal.abort(),
    });

    await expect(aborted.getOrganization()).rejects.toMatchObject({ reason: "ABORTED" });
    expect(upstream.requests).toHaveLength(0);
  });
});
