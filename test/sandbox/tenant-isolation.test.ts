import { describe, expect, it } from "vitest";
import { DEMO_KEYS, SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { call, expectError, sandboxFor } from "./http.ts";

const sandbox = sandboxFor("file");

/** Every operation that names a resource, aimed at Globex's resources with Acme's key. */
const FOREIGN: Array<[string, string, unknown?]> = [
  ["GET", `/v1/agents/${SEED_IDS.globexAgent}`],
  ["PATCH", `/v1/agents/${SEED_IDS.globexAgent}`, { name: "Taken over" }],
  ["GET", `/v1/agents/${SEED_IDS.globexAgent}/stats`],
  ["GET", `/v1/conversations/${SEED_IDS.globexConversation}/status`],
  ["GET", `/v1/conversations/${SEED_IDS.globexLiveConversation}/status`],
  ["DELETE", `/v1/properties/${SEED_IDS.globexProperty}`],
  ["GET", `/v1/contacts/${SEED_IDS.globexContact}/stats`],
  ["GET", `/v1/campaigns/${SEED_IDS.globexCampaign}`],
  ["DELETE", `/v1/campaigns/${SEED_IDS.globexCampaign}`],
  ["POST", `/v1/campaigns/${SEED_IDS.globexCampaign}/retry`],
  ["GET", `/v1/documents/${SEED_IDS.globexDocument}`],
  [
    "POST",
    "/v1/phone-numbers/assign",
    { phoneNumberId: SEED_IDS.globexPhoneNumber, agentId: SEED_IDS.acmeAgent },
  ],
  [
    "POST",
    "/v1/phone-numbers/assign",
    { phoneNumberId: SEED_IDS.acmePhoneNumberUnassigned, agentId: SEED_IDS.globexAgent },
  ],
];

describe("tenant isolation", () => {
  it("answers 404 NOT_FOUND, never 403, for another organization's ids in every operation", async () => {
    for (const [method, path, body] of FOREIGN) {
      const answer = await call(sandbox(), path, { method, body });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expectError(answer, 404, "NOT_FOUND");
    }
  });

  it("leaves the other organization's data untouched", async () => {
    const key = DEMO_KEYS.globex;
    const agent = await call(sandbox(), `/v1/agents/${SEED_IDS.globexAgent}`, { key });
    expect(agent.body.name).toBe("Support");
    const campaign = await call(sandbox(), `/v1/campaigns/${SEED_IDS.globexCampaign}`, { key });
    expect(campaign.body).toMatchObject({ status: "COMPLETED", failedRows: 5 });
    const deleted = await call(sandbox(), `/v1/properties/${SEED_IDS.globexProperty}`, {
      key,
      method: "DELETE",
    });
    expect(deleted.status).toBe(204); // it still existed
  });

  it("lists only the caller's own resources", async () => {
    const acme = await call(sandbox(), "/v1/conversations?limit=100");
    const globex = await call(sandbox(), "/v1/conversations?limit=100", { key: DEMO_KEYS.globex });
    const globexIds = new Set(globex.body.items.map((item: { id: string }) => item.id));
    expect(acme.body.items.some((item: { id: string }) => globexIds.has(item.id))).toBe(false);
    const filtered = await call(sandbox(), `/v1/conversations?agentId=${SEED_IDS.globexAgent}`);
    expect(filtered.body).toMatchObject({ items: [], total: 0 });
    const campaigns = await call(sandbox(), "/v1/campaigns?limit=100");
    expect(campaigns.body.items.map((c: { id: string }) => c.id)).not.toContain(
      SEED_IDS.globexCampaign,
    );
  });
});
