import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { call, sandboxFor } from "./http.ts";

const sandbox = sandboxFor("test");

describe("organization", () => {
  it("returns the seeded organization with the nine writable fields", async () => {
    const answer = await call(sandbox(), "/v1/organization");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      id: SEED_IDS.acmeOrganization,
      name: "Acme Health",
      description: "Family clinics with same-day appointments.",
      url: "https://acme-health.example",
      industry: "Healthcare",
      country: "US",
      city: "Boston",
      telephone: "+16175550100",
      email: "hello@acme-health.example",
      timezone: "America/New_York",
      createdAt: "2025-12-06T09:00:00.000Z",
      updatedAt: "2025-12-06T09:00:00.000Z",
    });
  });

  it("updates the given fields, keeps the omitted ones and bumps updatedAt", async () => {
    const before = (await call(sandbox(), "/v1/organization")).body;
    const answer = await call(sandbox(), "/v1/organization", {
      method: "PATCH",
      body: { name: "Acme Health Group", timezone: "Europe/Paris", description: "" },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ...before,
      name: "Acme Health Group",
      timezone: "Europe/Paris",
      description: "",
      updatedAt: answer.body.updatedAt,
    });
    expect(Date.parse(answer.body.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    expect((await call(sandbox(), "/v1/organization")).body).toEqual(answer.body);
  });

  it("treats an empty object as a no-op", async () => {
    const before = (await call(sandbox(), "/v1/organization")).body;
    const answer = await call(sandbox(), "/v1/organization", { method: "PATCH", body: {} });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(before);
  });
});
