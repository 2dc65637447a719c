import { describe, expect, it, vi } from "vitest";
import { DEMO_KEYS, SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { startSandbox } from "../../src/sandbox/server.ts";
import { WAIT_MS } from "../support/wait.ts";
import { call, expectError, sandboxPerTest } from "./http.ts";

const start = sandboxPerTest();

describe("injected faults", () => {
  it("answers a given status with the seed's error body, `times` times, then normally", async () => {
    const s = await start();
    s.injectFault({ method: "GET", path: "/v1/organization", status: 503, times: 2 });
    const first = await call(s, "/v1/organization");
    expectError(first, 503, "SERVICE_UNAVAILABLE");
    expect(first.headers.get("x-ratelimit-limit")).toBeNull(); // the fault replaces all handling
    expectError(await call(s, "/v1/organization"), 503, "SERVICE_UNAVAILABLE");
    expect((await call(s, "/v1/organization")).status).toBe(200);
  });

  it("matches faults in order, by method and by path regex", async () => {
    const s = await start();
    s.injectFault({ method: "POST", status: 500 });
    s.injectFault({
      path: /^\/v1\/agents\//,
      status: 502,
      body: { oops: true },
      headers: { "x-test": "1" },
    });
    s.injectFault({ status: 504 });
    const agent = await call(s, `/v1/agents/${SEED_IDS.acmeAgent}`);
    expect([agent.status, agent.body, agent.headers.get("x-test")]).toEqual([
      502,
      { oops: true },
      "1",
    ]);
    expectError(await call(s, "/v1/organization"), 504, "GATEWAY_TIMEOUT");
    expectError(
      await call(s, "/v1/agents", { method: "POST", body: { name: "X" } }),
      500,
      "INTERNAL_ERROR",
    );
    expect((await call(s, "/v1/organization")).status).toBe(200);
  });

  it("sends a string body raw as text/plain", async () => {
    const s = await start();
    s.injectFault({ status: 502, body: "<html>Bad gateway</html>" });
    const answer = await call(s, "/v1/organization");
    expect(answer.status).toBe(502);
    expect(answer.body).toBe("<html>Bad gateway</html>");
    expect(answer.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  });

  it("delays a request, then handles it normally", async () => {
    const s = await start();
    s.injectFault({ delayMs: 150 });
    const started = Date.now();
    const answer = await call(s, "/v1/organization");
    expect(answer.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("hangs a request until the client gives up, recording status 0", async () => {
    const s = await start();
    s.injectFault({ hang: true });
    await expect(
      call(s, "/v1/organization", { signal: AbortSignal.timeout(150) }),
    ).rejects.toThrow();
    expect((await call(s, "/v1/organization")).status).toBe(200);
    expect(s.requests.map((r) => r.status)).toEqual([0, 200]);
  });

  it("resets the connection without answering", async () => {
    const s = await start();
    s.injectFault({ destroy: true });
    await expect(call(s, "/v1/organization")).rejects.toThrow();
    expect((await call(s, "/v1/organization")).status).toBe(200);
  });

  it("forgets faults on clearFaults", async () => {
    const s = await start();
    s.injectFault({ status: 500, times: 10 });
    s.clearFaults();
    expect((await call(s, "/v1/organization")).status).toBe(200);
  });

  it("closes while a request hangs", async () => {
    const s = await start();
    s.injectFault({ hang: true });
    const pending = call(s, "/v1/organization");
    await vi.waitFor(() => expect(s.requests).toHaveLength(1), { timeout: WAIT_MS });
    await s.close();
    await expect(pending).rejects.toThrow();
  });
});

describe("random faults and latency", () => {
  it("answers errorRate of requests with 500 INTERNAL_ERROR", async () => {
    const s = await start({ errorRate: 0.5, random: () => 0.25 });
    expectError(await call(s, "/v1/organization"), 500, "INTERNAL_ERROR");
    const other = await startSandbox({ errorRate: 0.5, random: () => 0.75 });
    try {
      expect((await call(other, "/v1/organization")).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it("never answers hangRate of requests", async () => {
    const s = await start({ hangRate: 1 });
    await expect(
      call(s, "/v1/organization", { signal: AbortSignal.timeout(150) }),
    ).rejects.toThrow();
    // The OpenAPI document is not subject to random faults.
    expect((await call(s, "/v1/openapi.json", { key: null })).status).toBe(200);
  });

  it("adds latencyMs to every request", async () => {
    const s = await start({ latencyMs: 120 });
    const started = Date.now();
    expect((await call(s, "/v1/organization")).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
  });
});

describe("request log", () => {
  it("records every /v1 request in arrival order, as received", async () => {
    const s = await start();
    await call(s, "/v1/conversations?limit=10&offset=0");
    await call(s, `/v1/agents/${SEED_IDS.acmeAgent}`, {
      method: "PATCH",
      body: { greeting: "Hi" },
    });
    await call(s, "/v1/organization", { method: "PATCH", body: "not json", key: DEMO_KEYS.globex });
    await call(s, "/v1/openapi.json", { key: null });
    await call(s, "/healthz", { key: null });
    expect(s.requests).toHaveLength(4);
    const [list, patch, raw, openapi] = s.requests;
    expect(list).toMatchObject({
      method: "GET",
      url: "/v1/conversations?limit=10&offset=0",
      path: "/v1/conversations",
      query: { limit: "10", offset: "0" },
      body: undefined,
      status: 200,
    });
    expect(list?.headers.authorization).toBe(`Bearer ${DEMO_KEYS.acme}`);
    expect(patch).toMatchObject({
      method: "PATCH",
      body: { greeting: "Hi" },
      status: 200,
      query: {},
    });
    expect(patch?.headers["content-type"]).toBe("application/json");
    expect(raw).toMatchObject({ body: "not json", status: 400 });
    expect(openapi).toMatchObject({ path: "/v1/openapi.json", status: 200 });
    expect(openapi?.headers.authorization).toBeUndefined();
    s.clearRequests();
    expect(s.requests).toEqual([]);
    await call(s, "/v1/organization");
    expect(s.requests).toHaveLength(1);
  });
});

describe("options", () => {
  it("refuses nonsense options", async () => {
    await expect(startSandbox({ errorRate: 2 })).rejects.toThrow(/errorRate/);
    await expect(startSandbox({ rateLimit: 0 })).rejects.toThrow(/rateLimit/);
    await start();
  });

  it("gives every sandbox its own store", async () => {
    const s = await start();
    await call(s, `/v1/properties/${SEED_IDS.acmeProperty}`, { method: "DELETE" });
    const other = await startSandbox();
    try {
      const again = await call(other, `/v1/properties/${SEED_IDS.acmeProperty}`, {
        method: "DELETE",
      });
      expect(again.status).toBe(204);
    } finally {
      await other.close();
    }
  });
});
