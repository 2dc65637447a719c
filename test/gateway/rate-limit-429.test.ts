import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { GATEWAY_REQUEST_ID } from "./harness.ts";
import {
  rateLimitHeaders,
  secondsUntil,
  start,
  TWO_ROOT_FIELDS,
  windowReset,
} from "./rate-limit-support.ts";

import { sandboxErrorCode } from "./sandbox-answers.ts";

describe("HTTP 429 when every root field was rate-limited", () => {
  it("answers 429 with Retry-After, each error RATE_LIMITED with retryAfter", async () => {
    const { graphql, takeUpstreamRequests } = await start(2);
    const reset = windowReset();
    await graphql(TWO_ROOT_FIELDS); // uses the window's two requests
    takeUpstreamRequests();

    const most = secondsUntil(reset);
    const response = await graphql(TWO_ROOT_FIELDS);
    const least = secondsUntil(reset);

    expect(response.status).toBe(429);
    expect(takeUpstreamRequests().sort()).toEqual([
      `GET /v1/agents/${SEED_IDS.acmeAgent}`,
      `GET /v1/documents/${SEED_IDS.acmeDocument}`,
    ]);
    expect(response.body.data).toEqual({ agent: null, document: null });
    const errors = [...(response.body.errors ?? [])].sort((a, b) =>
      String(a.path?.[0]).localeCompare(String(b.path?.[0])),
    );
    expect(errors).toEqual(
      ["agent", "document"].map((field) => ({
        message: "Rate limit exceeded; retry after the window resets.",
        locations: [expect.any(Object)],
        path: [field],
        extensions: {
          code: "RATE_LIMITED",
          requestId: GATEWAY_REQUEST_ID,
          upstream: {
            status: 429,
            code: sandboxErrorCode("RATE_LIMITED"),
            message: "Rate limit exceeded; retry after the window resets.",
            requestId: expect.stringMatching(/^req_/),
            details: { limit: 2, reset, retryAfter: expect.any(Number) },
          },
          retryAfter: expect.any(Number),
        },
      })),
    );
    const retryAfters = errors.map((error) => error.extensions.retryAfter as number);
    for (const retryAfter of retryAfters) {
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(least);
      expect(retryAfter).toBeLessThanOrEqual(most);
    }
    expect(response.headers.get("retry-after")).toBe(String(Math.max(...retryAfters)));
    expect(rateLimitHeaders(response.headers)).toEqual({
      limit: "2",
      remaining: "0",
      reset: String(reset),
    });
    expect(response.body.extensions).toEqual({
      cost: { estimated: 2, upstreamCalls: 2 },
      rateLimit: { limit: 2, remaining: 0, resetAt: new Date(reset * 1000).toISOString() },
    });
  });

  it("answers 429 when the only root field was rate-limited", async () => {
    const { graphql, takeUpstreamRequests } = await start(1);
    await graphql("{ organization { name } }");
    takeUpstreamRequests();

    const response = await graphql("{ organization { name } }");

    expect(response.status).toBe(429);
    expect(response.body.data).toEqual({ organization: null });
    expect(response.body.errors?.map((error) => error.extensions.code)).toEqual(["RATE_LIMITED"]);
    expect(response.headers.get("retry-after")).toBe(
      String(response.body.errors?.[0]?.extensions.retryAfter),
    );
    expect(takeUpstreamRequests()).toEqual(["GET /v1/organization"]);
  });

  it("answers 200 when one root field was rate-limited and another succeeded", async () => {
    const { graphql, sandbox, takeUpstreamRequests } = await start(1000);
    const reset = windowReset();
    sandbox.injectFault({
      path: `/v1/documents/${SEED_IDS.acmeDocument}`,
      status: 429,
      headers: {
        "X-RateLimit-Limit": "1000",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": String(reset),
      },
    });

    const response = await graphql(TWO_ROOT_FIELDS);

    expect(response.status).toBe(200);
    expect(response.headers.get("retry-after")).toBeNull();
    expect(response.body.data).toEqual({ agent: { name: "Reception" }, document: null });
    expect(response.body.errors?.map((error) => [error.path, error.extensions.code])).toEqual([
      [["document"], "RATE_LIMITED"],
    ]);
    expect(Number.isInteger(response.body.errors?.[0]?.extensions.retryAfter)).toBe(true);
    expect(rateLimitHeaders(response.headers)).toEqual({
      limit: "1000",
      remaining: "0",
      reset: String(reset),
    });
    expect(takeUpstreamRequests().sort()).toEqual([
      `GET /v1/agents/${SEED_IDS.acmeAgent}`,
      `GET /v1/documents/${SEED_IDS.acmeDocument}`,
    ]);
  });

  it("takes retryAfter from Retry-After when a 429 carries no X-RateLimit headers", async () => {
    const { graphql, sandbox, takeUpstreamRequests } = await start(1000);
    sandbox.injectFault({ path: "/v1/organization", status: 429, headers: { "Retry-After": "7" } });

    const response = await graphql("{ organization { name } }");

    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("7");
    expect(rateLimitHeaders(response.headers)).toEqual({
      limit: null,
      remaining: null,
      reset: null,
    });
    expect(response.body.errors?.[0]?.extensions).toMatchObject({
      code: "RATE_LIMITED",
      retryAfter: 7,
    });
    expect(response.body.extensions).toEqual({ cost: { estimated: 1, upstreamCalls: 1 } });
    expect(takeUpstreamRequests()).toEqual(["GET /v1/organization"]);
  });

  it("reads a Retry-After given as an HTTP date", async () => {
    const { graphql, sandbox } = await start(1000);
    const at = Math.ceil(Date.now() / 1000) + 20;
    sandbox.injectFault({
      path: "/v1/organization",
      status: 429,
      headers: { "Retry-After": new Date(at * 1000).toUTCString() },
    });

    const most = secondsUntil(at);
    const response = await graphql("{ organization { name } }");
    const least = secondsUntil(at);

    const retryAfter = response.body.errors?.[0]?.extensions.retryAfter as number;
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(least);
    expect(retryAfter).toBeLessThanOrEqual(most);
    expect(response.headers.get("retry-after")).toBe(String(retryAfter));
  });

  it("reads a 429 with a text body (a proxy's) as RATE_LIMITED, not as an unusable answer", async () => {
    const { graphql, sandbox, takeUpstreamRequests } = await start(1000);
    sandbox.injectFault({
      path: "/v1/organization",
      status: 429,
      body: "Too Many Requests",
      headers: { "Retry-After": "3" },
    });

    const response = await graphql("{ organization { name } }");

    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("3");
    expect(response.body.errors?.[0]?.extensions).toEqual({
      code: "RATE_LIMITED",
      requestId: GATEWAY_REQUEST_ID,
      upstream: {
        status: 429,
        code: "HTTP_429",
        message: "Too Many Requests",
        requestId: expect.stringMatching(/^req_/),
        details: null,
      },
      retryAfter: 3,
    });
    expect(takeUpstreamRequests()).toEqual(["GET /v1/organization"]);
  });

  it("still gives retryAfter (1 second) when a 429 says nothing about when to retry", async () => {
    const { graphql, sandbox } = await start(1000);
    sandbox.injectFault({ path: "/v1/organization", status: 429 });

    const response = await graphql("{ organization { name } }");

    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(response.body.errors?.[0]?.extensions).toMatchObject({
      code: "RATE_LIMITED",
      retryAfter: 1,
    });
  });
});
