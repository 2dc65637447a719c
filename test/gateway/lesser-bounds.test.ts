import { createClient } from "graphql-ws";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { serveMetrics } from "../../src/gateway/observability/metrics-server.ts";
import {
  type RecordingUpstream,
  sendJson,
  startRecordingUpstream,
} from "../upstream/recording-upstream.ts";
import { ACME, type Harness, startHarness } from "./harness.ts";

// The lesser bounds, over real HTTP and WebSocket.

let harness: Harness;
let upstream: RecordingUpstream | undefined;
afterEach(async () => {
  await harness.close();
  await upstream?.close();
  upstream = undefined;
});

const TOKEN = "metrics-token-0123456789";

describe("a document nested deeper than the parser can take", () => {
  const deep = (levels: number) =>
    `{ agents(first: 1, filter: ${"{a: ".repeat(levels)}1${"}".repeat(levels)}) { totalCount } }`;

  it("is BAD_USER_INPUT over HTTP, with or without a key, before any upstream call", async () => {
    harness = await startHarness();
    for (const authorization of [ACME, null]) {
      const response = await harness.graphql(deep(1600), {}, { authorization });
      expect(response.status).toBe(400);
      expect(response.body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
      expect(response.body.errors?.[0]?.message).toContain("more than 128 levels deep");
    }
    // Strings and comments are not nesting: a document quoting 500 braces still runs its checks.
    const quoted = await harness.graphql(
      `# ${"{".repeat(500)}\n{ organization { name } } # "${"[".repeat(500)}`,
    );
    expect(quoted.body.data).toEqual({ organization: { name: "Acme Health" } });
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/organization"]);
  });

  it("is BAD_USER_INPUT over graphql-ws, and the socket lives on", async () => {
    harness = await startHarness();
    const client = createClient({
      url: `${harness.url.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: ACME },
      retryAttempts: 0,
    });
    try {
      const refused = await client
        .iterate({ query: deep(1600) })
        .next()
        .catch((error: unknown) => error);
      expect(JSON.stringify(refused)).toContain("BAD_USER_INPUT");
      const after = await client.iterate({ query: "{ organization { name } }" }).next();
      expect(after.value).toMatchObject({ data: { organization: { name: "Acme Health" } } });
    } finally {
      await client.dispose();
    }
  });
});

describe("/readyz", () => {
  it("makes one upstream call for 50 hits within its 2 s cache", async () => {
    harness = await startHarness();
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) {
      const response = await fetch(`${harness.url}/readyz`);
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    expect(new Set(statuses)).toEqual(new Set([200]));
    // One check (two if the 50 hits straddle the cache's expiry).
    expect(harness.takeUpstreamRequests().length).toBeLessThanOrEqual(2);
  });
});

describe("/metrics", () => {
  it("counts real upstream calls only: locally answered 429s are not upstream requests", async () => {
    upstream = await startRecordingUpstream((_request, res) =>
      sendJson(
        res,
        429,
        { error: { code: "RATE_LIMITED", message: "Slow down." } },
        { "Retry-After": "600" },
      ),
    );
    harness = await startHarness({ upstream: { baseUrl: upstream.url } });
    for (let i = 0; i < 5; i++) await harness.graphql("{ organization { name } }");
    expect(upstream.requests).toHaveLength(1);
    const text = await (await fetch(`${harness.url}/metrics`)).text();
    expect(text).toContain(
      'voicegraph_upstream_requests_total{route="GET /v1/organization",status="429"} 1',
    );
  });

  it("behind METRICS_TOKEN: 401 without it, and never readable from another origin", async () => {
    harness = await startHarness({ gateway: { metricsAccess: { token: TOKEN } } });
    const anonymous = await fetch(`${harness.url}/metrics`);
    expect(anonymous.status).toBe(401);
    await anonymous.arrayBuffer();
    const wrong = await fetch(`${harness.url}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}x` },
    });
    expect(wrong.status).toBe(401);
    await wrong.arrayBuffer();
    const scraper = await fetch(`${harness.url}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}`, origin: "https://evil.example" },
    });
    expect(scraper.status).toBe(200);
    expect(await scraper.text()).toContain("voicegraph_operations_total");
    expect(scraper.headers.get("access-control-allow-origin")).toBeNull();
    // The same origin still reads GraphQL answers: only /metrics goes without CORS.
    const graphql = await fetch(`${harness.url}/graphql?query=%7B__typename%7D`, {
      headers: { origin: "https://evil.example", accept: "application/json" },
    });
    expect(graphql.headers.get("access-control-allow-origin")).toBe("https://evil.example");
    await graphql.arrayBuffer();
  });

  it("on METRICS_PORT: served there, not on the gateway's port", async () => {
    harness = await startHarness({ gateway: { metricsAccess: { separatePort: true } } });
    const onGateway = await fetch(`${harness.url}/metrics`);
    expect(onGateway.status).toBe(404);
    await onGateway.arrayBuffer();
    const metrics = await serveMetrics(harness.gateway.metrics, 0, "127.0.0.1");
    try {
      const response = await fetch(`${metrics.url}/metrics`, {
        headers: { origin: "https://evil.example" },
      });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain("voicegraph_upstream_requests_total");
      expect(response.headers.get("access-control-allow-origin")).toBeNull();
    } finally {
      await metrics.close();
    }
  });
});

describe("an upstream node without an id", () => {
  it('is INVALID_RESPONSE, never the ID "undefined"', async () => {
    upstream = await startRecordingUpstream((_request, res) =>
      sendJson(res, 200, { name: "Nameless", status: "ACTIVE" }),
    );
    harness = await startHarness({ upstream: { baseUrl: upstream.url } });
    const response = await harness.graphql('{ agent(id: "agt_1") { id name } }');
    expect(JSON.stringify(response.body)).not.toContain('"undefined"');
    expect(response.body.data).toEqual({ agent: null });
    expect(response.body.errors?.[0]?.extensions).toMatchObject({
      code: "UPSTREAM_UNAVAILABLE",
      reason: "INVALID_RESPONSE",
    });
  });
});
