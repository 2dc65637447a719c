import { describe, expect, it } from "vitest";
import type { UpstreamRequest } from "../../src/upstream/client.ts";
import type { RateLimit } from "../../src/upstream/rate-limit.ts";
import { clientsPerTest, sendJson, type UpstreamHandler, waitFor } from "./recording-upstream.ts";

const KEY = "Bearer sk_test_acme";
const GET_AGENT: UpstreamRequest = { method: "GET", path: "/v1/agents/agt_1", authorization: KEY };
const UNAVAILABLE = { error: { code: "UNAVAILABLE", message: "Try again" }, requestId: "req_503" };

const { start, startUpstream, createClient } = clientsPerTest({
  retryDelayMs: 5,
  timeoutMs: 2_000,
});

function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail("expected the request to fail"),
    (error: unknown) => error,
  );
}

/** Answers 503 to the first `failures` requests, then 200. */
function unavailableThenOk(failures: number): UpstreamHandler {
  let seen = 0;
  return (_req, res) => {
    seen += 1;
    if (seen <= failures) sendJson(res, 503, UNAVAILABLE);
    else sendJson(res, 200, { id: "agt_1" });
  };
}

describe("upstream retries", () => {
  it("retries a GET answered 503 and returns the later success", async () => {
    const { upstream, client } = await start(unavailableThenOk(1));

    const response = await client.request(GET_AGENT);

    expect(response.body).toEqual({ id: "agt_1" });
    expect(upstream.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      "GET /v1/agents/agt_1",
      "GET /v1/agents/agt_1",
    ]);
  });

  it("retries a GET on 502 and 504 too", async () => {
    let seen = 0;
    const { upstream, client } = await start((_req, res) => {
      seen += 1;
      if (seen === 1) sendJson(res, 502, {});
      else if (seen === 2) sendJson(res, 504, {});
      else sendJson(res, 200, { id: "agt_1" });
    });

    await expect(client.request(GET_AGENT)).resolves.toMatchObject({ status: 200 });
    expect(upstream.requests).toHaveLength(3);
  });

  it("gives up after maxRetries and reports the last 503 with its parsed body", async () => {
    const { upstream, client } = await start(unavailableThenOk(10), { maxRetries: 2 });

    const error = await failure(client.request(GET_AGENT));

    expect(error).toMatchObject({ status: 503, code: "UNAVAILABLE", requestId: "req_503" });
    expect(upstream.requests).toHaveLength(3);
  });

  it("retries a GET on a reset connection, at most maxRetries times", async () => {
    const { upstream, client } = await start(
      (_req, res) => {
        res.socket?.destroy();
      },
      { maxRetries: 2 },
    );

    const error = await failure(client.request(GET_AGENT));

    expect(error).toMatchObject({ name: "UpstreamUnavailableError", reason: "CONNECTION_RESET" });
    expect(upstream.requests).toHaveLength(3);
  });

  it("recovers from a reset connection when the next attempt succeeds", async () => {
    let seen = 0;
    const { upstream, client } = await start((_req, res) => {
      seen += 1;
      if (seen === 1) res.socket?.destroy();
      else sendJson(res, 200, { id: "agt_1" });
    });

    await expect(client.request(GET_AGENT)).resolves.toMatchObject({ body: { id: "agt_1" } });
    expect(upstream.requests).toHaveLength(2);
  });

  it.each([
    ["POST", "/v1/campaigns/cmp_1/retry"],
    ["PATCH", "/v1/agents/agt_1"],
    ["DELETE", "/v1/campaigns/cmp_1"],
  ] as const)("never retries a %s answered 503", async (method, path) => {
    const { upstream, client } = await start(unavailableThenOk(1));

    const error = await failure(client.request({ method, path, body: {}, authorization: KEY }));

    expect(error).toMatchObject({ status: 503, code: "UNAVAILABLE" });
    expect(upstream.requests).toHaveLength(1);
  });

  it("never retries a POST on a reset connection", async () => {
    const { upstream, client } = await start((_req, res) => {
      res.socket?.destroy();
    });

    const error = await failure(
      client.request({
        method: "POST",
        path: "/v1/agents",
        body: { name: "A" },
        authorization: KEY,
      }),
    );

    expect(error).toMatchObject({ reason: "CONNECTION_RESET" });
    expect(upstream.requests).toHaveLength(1);
  });

  it("does not retry a GET that timed out", async () => {
    const { upstream, client } = await start(() => {}, { timeoutMs: 200 });

    const error = await failure(client.request(GET_AGENT));

    expect(error).toMatchObject({ reason: "TIMEOUT" });
    expect(upstream.requests).toHaveLength(1);
  });

  it("stops retrying once the caller aborts during the backoff", async () => {
    const upstream = await startUpstream(unavailableThenOk(10));
    const client = createClient({ baseUrl: upstream.url, retryDelayMs: 400, maxRetries: 5 });
    const controller = new AbortController();
    const { requests } = upstream;

    const pending = failure(client.request({ ...GET_AGENT, signal: controller.signal }));
    await waitFor(() => requests.length === 1);
    controller.abort();

    expect(await pending).toMatchObject({ reason: "ABORTED" });
    expect(requests).toHaveLength(1);
  });

  it("reports the rate limit of every attempt, retried ones included", async () => {
    let remaining = 10;
    const { client } = await start((_req, res) => {
      remaining -= 1;
      const headers = {
        "x-ratelimit-limit": "10",
        "x-ratelimit-remaining": String(remaining),
        "x-ratelimit-reset": "1767225600",
      };
      if (remaining === 9) sendJson(res, 503, UNAVAILABLE, headers);
      else sendJson(res, 200, {}, headers);
    });
    const seen: RateLimit[] = [];

    await client.request({ ...GET_AGENT, onRateLimit: (rateLimit) => seen.push(rateLimit) });

    expect(seen.map((rateLimit) => rateLimit.remaining)).toEqual([9, 8]);
  });
});
