import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { call, expectError, sandboxFor } from "./http.ts";

const sandbox = sandboxFor("file");

describe("error body and request ids", () => {
  it("answers a missing resource with NOT_FOUND in the seed's error body", async () => {
    const answer = await call(sandbox(), "/v1/agents/agt_doesnotexist");
    const details = expectError(answer, 404, "NOT_FOUND");
    expect(details).toEqual({ id: "agt_doesnotexist" });
    expect(answer.body.error.message).toBe("Agent agt_doesnotexist was not found.");
  });

  it("puts an X-Request-Id header on successful answers too, unique per request", async () => {
    const first = await call(sandbox(), "/v1/organization");
    const second = await call(sandbox(), "/v1/organization");
    expect(first.headers.get("x-request-id")).toMatch(/^req_[a-z0-9]{20}$/);
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect(first.headers.get("content-type")).toBe("application/json");
  });
});

describe("routing", () => {
  it("answers 404 NOT_FOUND for an unknown route under /v1", async () => {
    const details = expectError(await call(sandbox(), "/v1/widgets"), 404, "NOT_FOUND");
    expect(details).toEqual({ method: "GET", path: "/v1/widgets" });
    expectError(await call(sandbox(), "/v1/agents/"), 404, "NOT_FOUND");
    expectError(await call(sandbox(), `/v1/agents/${SEED_IDS.acmeAgent}/voices`), 404, "NOT_FOUND");
  });

  it("answers 404 for paths outside /v1, even without a key", async () => {
    expectError(await call(sandbox(), "/agents", { key: null }), 404, "NOT_FOUND");
    expectError(await call(sandbox(), "/", { key: null }), 404, "NOT_FOUND");
  });

  it("answers 405 with an Allow header for a known path with another method", async () => {
    const answer = await call(sandbox(), `/v1/agents/${SEED_IDS.acmeAgent}`, { method: "PUT" });
    const details = expectError(answer, 405, "METHOD_NOT_ALLOWED");
    expect(answer.headers.get("allow")).toBe("GET, PATCH");
    expect(details).toEqual({ method: "PUT", allowed: ["GET", "PATCH"] });
    const list = await call(sandbox(), "/v1/conversations", { method: "DELETE" });
    expectError(list, 405, "METHOD_NOT_ALLOWED");
    expect(list.headers.get("allow")).toBe("GET");
  });

  it("answers 404 for a path id with another resource's prefix (it cannot exist)", async () => {
    for (const path of [
      `/v1/agents/${SEED_IDS.acmeContact}`,
      `/v1/agents/${SEED_IDS.acmeContact}/stats`,
      `/v1/conversations/${SEED_IDS.acmeAgent}/status`,
      `/v1/contacts/${SEED_IDS.acmeAgent}/stats`,
      `/v1/campaigns/${SEED_IDS.acmeDocument}`,
      `/v1/documents/${SEED_IDS.acmeCampaignRunning}`,
    ]) {
      expectError(await call(sandbox(), path), 404, "NOT_FOUND");
    }
    const del = await call(sandbox(), `/v1/properties/${SEED_IDS.acmeDocument}`, {
      method: "DELETE",
    });
    expectError(del, 404, "NOT_FOUND");
  });

  it("decodes percent-encoded path ids", async () => {
    const answer = await call(sandbox(), `/v1/agents/${encodeURIComponent(SEED_IDS.acmeAgent)}`);
    expect(answer.status).toBe(200);
    expectError(await call(sandbox(), "/v1/agents/agt_%E0%A4%A"), 404, "NOT_FOUND");
  });

  it("serves the OpenAPI document without a key", async () => {
    const answer = await call(sandbox(), "/v1/openapi.json", { key: null });
    expect(answer.status).toBe(200);
    expect(answer.body.openapi).toMatch(/^3\.1/);
    expect(answer.headers.get("x-ratelimit-limit")).toBe("100000");
  });
});
