import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { schema } from "../../src/schema/index.ts";
import { createUpstreamClient, type UpstreamClient } from "../../src/upstream/client.ts";
import { createKeyHasher } from "../../src/upstream/key-memory.ts";
import {
  OPERATIONS,
  type OperationName,
  REST_OPERATIONS,
  type RestOperation,
  readsChangedBy,
} from "../../src/upstream/operations.ts";
import { createRestApi, type RestApi } from "../../src/upstream/rest-api.ts";
import { type RecordingUpstream, sendJson, startRecordingUpstream } from "./recording-upstream.ts";

/**
 * The operations table (src/upstream/operations.ts) is what the REST client, the retries and the
 * schema read. These tests hold each reader to its row: a row changed changes what is sent, what
 * is retried and what the schema declares. (What the rows say is proven against the seed by
 * rest-api.test.ts, whose expectations are written out by hand, not read from the table.)
 */

// One call of every REST client method, with IDs `x_1`, `x_2`… for the template's `{id}`s.
const CALLS: Record<OperationName, (api: RestApi) => Promise<unknown>> = {
  getOrganization: (a) => a.getOrganization(),
  updateOrganization: (a) => a.updateOrganization({ name: "Acme" }),
  getAgent: (a) => a.getAgent("x_1"),
  updateAgent: (a) => a.updateAgent("x_1", { greeting: "Hi" }),
  getAgentStats: (a) => a.getAgentStats("x_1"),
  assignPhoneNumber: (a) => a.assignPhoneNumber({ phoneNumberId: "phn_1", agentId: "agt_1" }),
  listConversations: (a) => a.listConversations({}),
  getConversationStatus: (a) => a.getConversationStatus("x_1"),
  deletePropertyDefinition: (a) => a.deletePropertyDefinition("x_1"),
  getContactStats: (a) => a.getContactStats("x_1"),
  deleteCampaign: (a) => a.deleteCampaign("x_1"),
  retryCampaign: (a) => a.retryCampaign("x_1"),
  getToolCatalog: (a) => a.getToolCatalog(),
  getDocument: (a) => a.getDocument("x_1"),
  createAgent: (a) => a.createAgent({ name: "Ava" }),
  listAgents: (a) => a.listAgents({}),
  listCampaigns: (a) => a.listCampaigns({}),
  getCampaign: (a) => a.getCampaign("x_1"),
};

const MAX_RETRIES = 2;
let upstream: RecordingUpstream;
let client: UpstreamClient;
let api: RestApi;

beforeAll(async () => {
  // Every call fails with a 503, which a read may retry and a write must not.
  upstream = await startRecordingUpstream((_req, res) =>
    sendJson(res, 503, { error: { code: "UNAVAILABLE", message: "try again" } }),
  );
  client = createUpstreamClient({
    baseUrl: upstream.url,
    timeoutMs: 5_000,
    maxRetries: MAX_RETRIES,
    retryDelayMs: 1,
  });
  api = createRestApi(client, {
    authorization: "Bearer sk_test_table",
    keyHash: createKeyHasher(),
  });
});

afterAll(async () => {
  await client.close();
  await upstream.close();
});

beforeEach(() => {
  upstream.requests.length = 0;
});

describe("the operations table", () => {
  it.each(Object.keys(OPERATIONS) as OperationName[])(
    "%s: the client sends its row's method and template, and retries only a row that may be",
    async (name) => {
      const row = OPERATIONS[name];
      await expect(CALLS[name](api)).rejects.toMatchObject({ status: 503 });

      let id = 0;
      const path = row.template.replace(/\{id\}/g, () => `x_${++id}`);
      const sent = upstream.requests.map((r) => `${r.method} ${r.url.split("?")[0]}`);
      expect(sent).toEqual(Array(row.retry ? 1 + MAX_RETRIES : 1).fill(`${row.method} ${path}`));
      expect(row.retry).toBe(row.method === "GET");
    },
  );

  it("names only GET rows among the reads a write may change, and every write says which", () => {
    for (const [name, row] of Object.entries(OPERATIONS) as [string, RestOperation][]) {
      if (row.method === "GET") {
        expect(row.changes, `${name} is a read`).toBeUndefined();
        continue;
      }
      expect(row.changes, `${name} says which reads it may change`).toBeDefined();
      const reads = row.changes?.({ ids: ["x_1"], body: { agentId: "agt_1" } }) ?? [];
      for (const { read } of reads) {
        const target = (OPERATIONS as Record<string, RestOperation>)[read];
        expect(target?.method, `${name} changes ${read}`).toBe("GET");
      }
    }
    // A write the table does not know may have changed any read of its key.
    const unknown = readsChangedBy({ method: "POST", path: "/v1/somewhere-new" });
    expect(unknown.length).toBe(REST_OPERATIONS.filter((row) => row.method === "GET").length);
    expect(readsChangedBy({ method: "PATCH", path: "/v1/agents/agt_1", body: {} })).toEqual([
      { route: "GET /v1/agents/{id}", ids: ["agt_1"] },
      { route: "GET /v1/agents" },
    ]);
  });

  it("names every REST client method once, and no row without one", () => {
    expect(Object.keys(OPERATIONS).sort()).toEqual(Object.keys(CALLS).sort());
    const templates = Object.values(OPERATIONS).map((row) => `${row.method} ${row.template}`);
    expect(new Set(templates).size).toBe(templates.length);
  });

  it.each([
    ["agents", "listAgents"],
    ["campaigns", "listCampaigns"],
    ["conversations", "listConversations"],
  ] as const)(
    "Query.%s declares its row's default page size, window calls and paging direction",
    (field, name) => {
      const list = OPERATIONS[name].list;
      const declared = schema.getQueryType()?.getFields()[field];
      expect(declared?.extensions).toMatchObject({
        upstreamCalls: list.windowCalls,
        connection: { defaultSize: list.defaultSize },
      });
      expect(declared?.description).toContain(`${list.defaultSize} a page by default`);
      const argNames = declared?.args.map((arg) => arg.name) ?? [];
      expect(argNames.includes("last")).toBe(list.form !== "cursor");
    },
  );

  it("sends each list's filters in its row's order, after the paging parameters", async () => {
    const filters = OPERATIONS.listConversations.list.filters;
    const query = Object.fromEntries([...filters].reverse().map((f) => [f, `v_${f}`]));
    await api.listConversations({ ...query, offset: 5, limit: 10 }).catch(() => undefined);

    const url = new URL(upstream.requests[0]?.url ?? "", "http://upstream");
    expect([...url.searchParams.keys()]).toEqual(["limit", "offset", ...filters]);
  });
});
