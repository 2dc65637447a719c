import { describe, expect, it } from "vitest";
import {
  DEMO_KEYS,
  EXTRA_ORGANIZATION_AGENTS,
  extraOrganizationId,
  extraOrganizationKey,
  SEED_COUNTS,
  SEED_IDS,
} from "../../src/sandbox/seed-data.ts";
import { startSandbox } from "../../src/sandbox/server.ts";
import { call, expectError, sandboxFor } from "./http.ts";

const sandbox = sandboxFor("file", { extraOrganizations: 3 });

describe("extra organizations (the bench's many keys)", () => {
  it("gives each its own key, organization and agents", async () => {
    for (const n of [1, 3]) {
      const key = extraOrganizationKey(n);
      const organization = await call(sandbox(), "/v1/organization", { key });
      expect(organization.body.id).toBe(extraOrganizationId(n));
      const agents = await call(sandbox(), "/v1/agents?pageSize=100", { key });
      expect(agents.body.total).toBe(EXTRA_ORGANIZATION_AGENTS);
      const ids: string[] = agents.body.items.map((agent: { id: string }) => agent.id);
      expect(ids.every((id) => id.startsWith(`agt_extra0${n}_`))).toBe(true);
      const one = await call(sandbox(), `/v1/agents/${ids[0]}`, { key });
      expect(one.status).toBe(200);
    }
  });

  it("keeps each organization's agents from the others' keys", async () => {
    const first = `/v1/agents/agt_extra01_001`;
    expectError(await call(sandbox(), first, { key: extraOrganizationKey(2) }), 404, "NOT_FOUND");
    expectError(await call(sandbox(), first, { key: DEMO_KEYS.acme }), 404, "NOT_FOUND");
    const acmeAgent = `/v1/agents/${SEED_IDS.acmeAgent}`;
    const key = extraOrganizationKey(1);
    expectError(await call(sandbox(), acmeAgent, { key }), 404, "NOT_FOUND");
  });

  it("leaves the demo data as it is", async () => {
    const agents = await call(sandbox(), "/v1/agents");
    expect(agents.body.total).toBe(SEED_COUNTS.acme.agents);
    const organization = await call(sandbox(), "/v1/organization");
    expect(organization.body.id).toBe(SEED_IDS.acmeOrganization);
  });

  it("knows no extra key unless asked", async () => {
    const plain = await startSandbox();
    try {
      const answer = await call(plain, "/v1/organization", { key: extraOrganizationKey(1) });
      expectError(answer, 401, "UNAUTHORIZED");
    } finally {
      await plain.close();
    }
  });

  it("refuses a count out of bounds", async () => {
    await expect(startSandbox({ extraOrganizations: -1 })).rejects.toThrow(RangeError);
    await expect(startSandbox({ extraOrganizations: 100 })).rejects.toThrow(RangeError);
  });
});
