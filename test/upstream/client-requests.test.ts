import { describe, expect, it } from "vitest";
import type { RateLimit } from "../../src/upstream/rate-limit.ts";
import { clientsPerTest, closedPortUrl, sendJson } from "./recording-upstream.ts";

const KEY = "Bearer sk_test_acme";

const { start, createClient } = clientsPerTest({ timeoutMs: 2_000 });

/** A GET from an upstream answering 200 with `headers`: the response, and what onRateLimit saw. */
async function getWithRateLimitHeaders(headers: Record<string, string>) {
  const { client } = await start((_req, res) => sendJson(res, 200, {}, headers));
  const seen: RateLimit[] = [];
  const response = await client.request({
    method: "GET",
    path: "/v1/organization",
    authorization: KEY,
    onRateLimit: (rateLimit) => seen.push(rateLimit),
  });
  return { response, seen };
}

describe("upstream client requests", () => {
  it("forwards Authorization verbatim and sends no other caller header", async () => {
    const { upstream, client } = await start((_req, res) => sendJson(res, 200, { ok: true }));
    const authorization = "Bearer  sk_test_acme\t;odd=value";

    const response = await client.request({
      method: "GET",
      path: "/v1/organization",
      authorization,
    });

    expect(response).toEqual({
      status: 200,
      body: { ok: true },
      rateLimit: undefined,
      requestId: undefined,
    });
    expect(upstream.requests).toHaveLength(1);
    const { headers } = upstream.requests[0] ?? {};
    expect(headers).toEqual({
      host: upstream.url.replace("http://", ""),
      connection: "keep-alive",
      authorization,
      accept: "application/json",
      "user-agent": "voicegraph/0.1.0",
    });
  });

  it("sends a JSON body with Content-Type and returns the parsed answer", async () => {
    const { upstream, client } = await start((req, res) =>
      sendJson(res, 200, JSON.parse(req.body)),
    );

    const response = await client.request({
      method: "PATCH",
      path: "/v1/organization",
      body: { name: "Acme Health", city: "Zürich" },
      authorization: KEY,
    });

    expect(response.body).toEqual({ name: "Acme Health", city: "Zürich" });
    const recorded = upstream.requests[0];
    expect(recorded?.method).toBe("PATCH");
    expect(recorded?.body).toBe('{"name":"Acme Health","city":"Zürich"}');
    expect(recorded?.headers["content-type"]).toBe("application/json");
  });

  it("sends query parameters in the given order, encoded, without undefined ones", async () => {
    const { upstream, client } = await start((_req, res) => sendJson(res, 200, { items: [] }));

    await client.request({
      method: "GET",
      path: "/v1/conversations",
      query: { limit: 10, offset: 0, agentId: undefined, search: "late fee & refund/50%", z: "ü" },
      authorization: KEY,
    });

    expect(upstream.requests[0]?.url).toBe(
      "/v1/conversations?limit=10&offset=0&search=late%20fee%20%26%20refund%2F50%25&z=%C3%BC",
    );
  });

  it("keeps the base URL's path prefix and the caller's encoded path", async () => {
    const { upstream, client } = await start((_req, res) => sendJson(res, 200, {}), {
      basePath: "/api/",
    });

    await client.request({
      method: "GET",
      path: `/v1/agents/${encodeURIComponent("agt_1/../x y")}`,
      authorization: KEY,
    });

    expect(upstream.requests[0]?.url).toBe("/api/v1/agents/agt_1%2F..%2Fx%20y");
  });

  it("answers {} for a 2xx without a body", async () => {
    const { client } = await start((_req, res) => {
      res.writeHead(204, { "x-request-id": "req_204" });
      res.end();
    });

    const response = await client.request({
      method: "DELETE",
      path: "/v1/campaigns/cmp_1",
      authorization: KEY,
    });

    expect(response).toEqual({ status: 204, body: {}, rateLimit: undefined, requestId: "req_204" });
  });

  it("reuses one keep-alive connection for sequential requests", async () => {
    const { upstream, client } = await start((_req, res) => sendJson(res, 200, {}));

    await client.request({ method: "GET", path: "/v1/organization", authorization: KEY });
    // undici hands a socket back to the pool one event-loop turn after a response ends (a guard
    // against servers that close despite keep-alive), so the next request waits that turn.
    await new Promise((resolve) => setImmediate(resolve));
    await client.request({
      method: "POST",
      path: "/v1/agents",
      body: { name: "A" },
      authorization: KEY,
    });

    expect(upstream.requests).toHaveLength(2);
    expect(upstream.connectionCount()).toBe(1);
  });

  it("reports parsed rate-limit headers to onRateLimit and on the response", async () => {
    const { response, seen } = await getWithRateLimitHeaders({
      "x-ratelimit-limit": "600",
      "x-ratelimit-remaining": "599",
      "x-ratelimit-reset": "1767225600",
    });

    const expected = { limit: 600, remaining: 599, reset: 1767225600 };
    expect(response.rateLimit).toEqual(expected);
    expect(seen).toEqual([expected]);
  });

  it("ignores rate-limit headers unless all three are integers", async () => {
    const { response, seen } = await getWithRateLimitHeaders({
      "x-ratelimit-limit": "600",
      "x-ratelimit-remaining": "5.5",
      "x-ratelimit-reset": "1767225600",
    });

    expect(response.rateLimit).toBeUndefined();
    expect(seen).toEqual([]);
  });
});

describe("upstream reachability", () => {
  it("is reachable when the upstream answers 401 to a request without credentials", async () => {
    const { upstream, client } = await start((_req, res) =>
      sendJson(res, 401, { error: { code: "UNAUTHORIZED", message: "Missing API key" } }),
    );

    expect(await client.isReachable()).toBe(true);
    expect(upstream.requests[0]?.url).toBe("/v1/organization");
    expect(upstream.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("is not reachable when the connection is refused", async () => {
    const client = createClient({ baseUrl: await closedPortUrl(), timeoutMs: 1_000 });

    expect(await client.isReachable()).toBe(false);
  });
});
