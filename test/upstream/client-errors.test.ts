import { describe, expect, it } from "vitest";
import { UpstreamError, UpstreamUnavailableError } from "../../src/upstream/errors.ts";
import type { RateLimit } from "../../src/upstream/rate-limit.ts";
import {
  clientsPerTest,
  type RecordingUpstream,
  sendJson,
  type UpstreamHandler,
} from "./recording-upstream.ts";

const KEY = "Bearer sk_test_acme_secret";

const { start } = clientsPerTest({ timeoutMs: 2_000, maxRetries: 0 });

/** The upstream the last failingGet asked, for a test that reads what it received. */
let upstream: RecordingUpstream | undefined;

async function failingGet(handler: UpstreamHandler, onRateLimit?: (rl: RateLimit) => void) {
  const { upstream: asked, client } = await start(handler);
  upstream = asked;
  const request = { method: "GET" as const, path: "/v1/agents/agt_404", authorization: KEY };
  return client.request({ ...request, onRateLimit }).then(
    () => expect.fail("expected the request to fail"),
    (error: unknown) => error,
  );
}

describe("upstream error answers", () => {
  it("parses the seed's error body into an UpstreamError with its rate limit", async () => {
    const seen: RateLimit[] = [];
    const error = await failingGet(
      (_req, res) =>
        sendJson(
          res,
          404,
          {
            error: { code: "NOT_FOUND", message: "Agent not found", details: { id: "agt_404" } },
            requestId: "req_body",
          },
          {
            "x-request-id": "req_header",
            "x-ratelimit-limit": "100",
            "x-ratelimit-remaining": "0",
            "x-ratelimit-reset": "1767225600",
          },
        ),
      (rateLimit) => seen.push(rateLimit),
    );

    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({
      name: "UpstreamError",
      status: 404,
      code: "NOT_FOUND",
      message: "Agent not found",
      requestId: "req_body",
      details: { id: "agt_404" },
      rateLimit: { limit: 100, remaining: 0, reset: 1767225600 },
    });
    expect(seen).toEqual([{ limit: 100, remaining: 0, reset: 1767225600 }]);
  });

  it("takes the requestId from X-Request-Id when the body has none", async () => {
    const error = await failingGet((_req, res) =>
      sendJson(
        res,
        429,
        { error: { code: "RATE_LIMITED", message: "Slow down" } },
        {
          "x-request-id": "req_header",
        },
      ),
    );

    expect(error).toMatchObject({ status: 429, code: "RATE_LIMITED", requestId: "req_header" });
    expect((error as UpstreamError).details).toBeUndefined();
    expect((error as UpstreamError).rateLimit).toBeUndefined();
  });

  it("falls back to HTTP_<status> and the status text when the body lacks them", async () => {
    const error = await failingGet((_req, res) => sendJson(res, 409, { unexpected: true }));

    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 409, code: "HTTP_409", message: "Conflict" });
    expect((error as UpstreamError).requestId).toBeUndefined();
  });

  it("reports an error status with an empty body as HTTP_<status>", async () => {
    const error = await failingGet((_req, res) => {
      res.writeHead(403);
      res.end();
    });

    expect(error).toMatchObject({ status: 403, code: "HTTP_403", message: "Forbidden" });
  });

  it("does not follow a redirect and reports it with its status", async () => {
    const error = await failingGet((_req, res) => {
      res.writeHead(302, { location: "/v1/elsewhere", "content-type": "text/html" });
      res.end("<a href='/v1/elsewhere'>moved</a>");
    });

    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 302, code: "HTTP_302", message: "Found" });
    expect(upstream?.requests.map((r) => r.url)).toEqual(["/v1/agents/agt_404"]);
  });

  it("rejects a 200 whose body is not JSON as INVALID_RESPONSE", async () => {
    const error = await failingGet((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>maintenance</html>");
    });

    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error).toMatchObject({ reason: "INVALID_RESPONSE" });
  });

  it("rejects an error status whose body is not JSON as INVALID_RESPONSE", async () => {
    const error = await failingGet((_req, res) => {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end("Internal Server Error");
    });

    expect(error).toMatchObject({ name: "UpstreamUnavailableError", reason: "INVALID_RESPONSE" });
  });
});

describe("an upstream that echoes the caller's key", () => {
  it("never lets the key reach the UpstreamError", async () => {
    const error = await failingGet((req, res) =>
      sendJson(res, 401, {
        error: {
          code: "UNAUTHORIZED",
          message: `Unknown key ${req.headers.authorization}`,
          details: { token: "sk_test_acme_secret", nested: ["sk_test_acme_secret"] },
        },
        requestId: "req_sk_test_acme_secret",
      }),
    );

    expect(error).toBeInstanceOf(UpstreamError);
    expect(
      JSON.stringify({ ...(error as UpstreamError), message: (error as Error).message }),
    ).not.toContain("sk_test_acme_secret");
    expect(error).toMatchObject({
      message: "Unknown key [REDACTED]",
      details: { token: "[REDACTED]", nested: ["[REDACTED]"] },
      requestId: "req_[REDACTED]",
    });
  });
});
