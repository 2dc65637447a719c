import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACME, corsPreflight, type Harness, startHarness } from "./harness.ts";
import { RATE_LIMIT } from "./sandbox-answers.ts";

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({
    gateway: { corsOrigins: ["https://app.example.com", "https://admin.example.com"] },
  });
});
afterAll(() => harness.close());

describe("CORS for browser frontends", () => {
  it("lets an allowed origin send the Authorization header", async () => {
    const preflight = await corsPreflight(harness, "https://app.example.com");
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect(preflight.headers.get("access-control-allow-headers")).toBe(
      "authorization, content-type",
    );
  });

  it("exposes the rate-limit headers to the page", async () => {
    const response = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: {
        origin: "https://app.example.com",
        "content-type": "application/json",
        authorization: ACME,
      },
      body: JSON.stringify({ query: "{ organization { name } }" }),
    });
    expect(response.headers.get("access-control-expose-headers")).toBe(
      "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Request-Id",
    );
    expect(response.headers.get("x-ratelimit-limit")).toBe(RATE_LIMIT);
  });

  it("does not allow an origin outside the list", async () => {
    const preflight = await fetch(`${harness.url}/graphql`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    // No CORS headers at all: not even the literal "null", which sandboxed frames match.
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
  });
});
