import { describe, expect, it } from "vitest";
import { DEMO_KEYS, SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { call, expectError, sandboxFor } from "./http.ts";

const sandbox = sandboxFor("file");

describe("authentication", () => {
  it("answers 401 UNAUTHORIZED without an Authorization header", async () => {
    const answer = await call(sandbox(), "/v1/organization", { key: null });
    expectError(answer, 401, "UNAUTHORIZED");
  });

  it("answers 401 for a malformed Authorization header", async () => {
    for (const authorization of ["sk_test_acme", "Basic sk_test_acme", "Bearer", "Bearer  "]) {
      const answer = await call(sandbox(), "/v1/organization", {
        key: null,
        headers: { authorization },
      });
      expectError(answer, 401, "UNAUTHORIZED");
    }
  });

  it("answers 401 for an unknown key", async () => {
    const answer = await call(sandbox(), "/v1/organization", { key: "sk_test_nobody" });
    expectError(answer, 401, "UNAUTHORIZED");
  });

  it("reads the scheme case-insensitively, with one or more spaces before the key", async () => {
    for (const authorization of ["bearer sk_test_acme", "BEARER  sk_test_acme"]) {
      const answer = await call(sandbox(), "/v1/organization", {
        key: null,
        headers: { authorization },
      });
      expect(answer.status).toBe(200);
      expect(answer.body.name).toBe("Acme Health");
    }
  });

  it("acts for the organization of the key", async () => {
    const acme = await call(sandbox(), "/v1/organization", { key: DEMO_KEYS.acme });
    const readonly = await call(sandbox(), "/v1/organization", { key: DEMO_KEYS.acmeReadonly });
    const globex = await call(sandbox(), "/v1/organization", { key: DEMO_KEYS.globex });
    expect([acme.status, readonly.status, globex.status]).toEqual([200, 200, 200]);
    expect(acme.body.id).toBe(SEED_IDS.acmeOrganization);
    expect(acme.body.name).toBe("Acme Health");
    expect(readonly.body).toEqual(acme.body);
    expect(globex.body.id).toBe(SEED_IDS.globexOrganization);
  });
});

describe("read-only key", () => {
  const key = DEMO_KEYS.acmeReadonly;

  it("reads everything the full key reads", async () => {
    for (const path of [
      `/v1/agents/${SEED_IDS.acmeAgent}`,
      "/v1/agents",
      "/v1/conversations",
      `/v1/conversations/${SEED_IDS.acmeConversation}/status`,
      "/v1/campaigns",
      `/v1/contacts/${SEED_IDS.acmeContact}/stats`,
      "/v1/tools/catalog",
      `/v1/documents/${SEED_IDS.acmeDocument}`,
    ]) {
      expect((await call(sandbox(), path, { key })).status, path).toBe(200);
    }
  });

  it("answers 403 FORBIDDEN on every write and changes nothing", async () => {
    const before = await Promise.all([
      call(sandbox(), "/v1/organization"),
      call(sandbox(), `/v1/agents/${SEED_IDS.acmeAgent}`),
      call(sandbox(), "/v1/agents?pageSize=100"),
      call(sandbox(), `/v1/campaigns/${SEED_IDS.acmeCampaignWithFailedRows}`),
    ]);
    const writes: Array<[string, string, unknown]> = [
      ["PATCH", "/v1/organization", { name: "Hacked" }],
      ["POST", "/v1/agents", { name: "Intruder" }],
      ["PATCH", `/v1/agents/${SEED_IDS.acmeAgent}`, { name: "Hacked" }],
      [
        "POST",
        "/v1/phone-numbers/assign",
        { phoneNumberId: SEED_IDS.acmePhoneNumberUnassigned, agentId: SEED_IDS.acmeAgent },
      ],
      ["DELETE", `/v1/properties/${SEED_IDS.acmeProperty}`, undefined],
      ["DELETE", `/v1/campaigns/${SEED_IDS.acmeCampaignWithoutFailedRows}`, undefined],
      ["POST", `/v1/campaigns/${SEED_IDS.acmeCampaignWithFailedRows}/retry`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const answer = await call(sandbox(), path, { key, method, body });
      expectError(answer, 403, "FORBIDDEN");
    }
    const after = await Promise.all([
      call(sandbox(), "/v1/organization"),
      call(sandbox(), `/v1/agents/${SEED_IDS.acmeAgent}`),
      call(sandbox(), "/v1/agents?pageSize=100"),
      call(sandbox(), `/v1/campaigns/${SEED_IDS.acmeCampaignWithFailedRows}`),
    ]);
    expect(after.map((answer) => answer.body)).toEqual(before.map((answer) => answer.body));
    const phone = await call(sandbox(), "/v1/phone-numbers/assign", {
      method: "POST",
      body: { phoneNumberId: SEED_IDS.acmePhoneNumberUnassigned, agentId: SEED_IDS.acmeAgent },
    });
    expect(phone.body.assignedAt).not.toBeNull(); // it was still unassigned: this call did it
    expect(
      (await call(sandbox(), `/v1/properties/${SEED_IDS.acmeProperty}`, { method: "DELETE" }))
        .status,
    ).toBe(204);
  });
});
