import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import {
  closedPortUrl,
  sendJson,
  startRecordingUpstream,
  waitFor,
} from "../upstream/recording-upstream.ts";
import { harness, oneHarnessPerFile } from "./file-harness.ts";
import { ACME, startHarness } from "./harness.ts";
import { SMALL_LIMITS } from "./upstream-traffic-support.ts";

oneHarnessPerFile({ gateway: SMALL_LIMITS });

describe("what reaches the upstream", () => {
  it("forwards the caller's Authorization header verbatim, odd spacing and case included", async () => {
    const response = await harness.graphql("{ organization { name } }", undefined, {
      authorization: "bearer  sk_test_acme",
    });

    expect(harness.sandbox.requests.map((request) => request.headers.authorization)).toEqual([
      "bearer  sk_test_acme",
    ]);
    // RFC 7235 allows any case and several spaces: the sandbox accepts the header as sent.
    expect(response.body).toMatchObject({ data: { organization: { name: "Acme Health" } } });
  });

  it("sends no other header of the caller's", async () => {
    const response = await harness.graphql("{ organization { name } }", undefined, {
      headers: {
        cookie: "session=abc",
        "x-forwarded-for": "203.0.113.7",
        "x-custom": "yes",
        "x-request-id": "req_from_caller",
        "accept-language": "fr",
        "user-agent": "caller/1.0",
        "x-ratelimit-remaining": "5",
      },
    });

    expect(response.body.data).toEqual({ organization: { name: "Acme Health" } });
    expect(harness.sandbox.requests.map((request) => request.headers)).toEqual([
      {
        host: new URL(harness.sandbox.url).host,
        connection: "keep-alive",
        authorization: ACME,
        accept: "application/json",
        "user-agent": "voicegraph/0.1.0",
        // The caller's sane request ID becomes the gateway's own, sent upstream and answered.
        "x-request-id": "req_from_caller",
      },
    ]);
    expect(response.headers.get("x-request-id")).toBe("req_from_caller");
  });

  it("makes its own request ID for a caller's that is not sane, and sends that upstream", async () => {
    const response = await harness.graphql("{ organization { name } }", undefined, {
      headers: { "x-request-id": "bad id\twith spaces" },
    });
    const requestId = response.headers.get("x-request-id") ?? "";
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(harness.sandbox.requests.map((request) => request.headers["x-request-id"])).toEqual([
      requestId,
    ]);
  });

  it("names the request ID in every error, as the header does (read here without the harness)", async () => {
    const response = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: ACME,
        "x-request-id": "req_from_caller",
      },
      body: JSON.stringify({
        query: '{ a: agent(id: "agt_gone_1") { id } b: node(id: "cnt_gone_2") { id } }',
      }),
    });
    const body = (await response.json()) as {
      errors: Array<{ path: string[]; extensions: Record<string, unknown> }>;
    };

    expect(response.headers.get("x-request-id")).toBe("req_from_caller");
    expect(body.errors.map((error) => [error.path[0], error.extensions.requestId])).toEqual([
      ["a", "req_from_caller"],
      ["b", "req_from_caller"],
    ]);
    // Two NOT_FOUNDs, each answered by the upstream: field errors beside each other.
    expect(harness.takeUpstreamRequests()).toHaveLength(2);
  });

  it("retries a GET answered 503 and succeeds on the second request", async () => {
    harness.sandbox.injectFault({ method: "GET", path: "/v1/organization", status: 503 });

    const response = await harness.graphql("{ organization { name } }");

    expect(response.body).toMatchObject({ data: { organization: { name: "Acme Health" } } });
    expect(response.body.errors).toBeUndefined();
    expect(harness.takeUpstreamRequests()).toEqual([
      "GET /v1/organization",
      "GET /v1/organization",
    ]);
    // Two requests reached the upstream: the retry is a call, counted and reported.
    expect(response.body.extensions?.cost).toEqual({ estimated: 1, upstreamCalls: 2 });
  });

  it("never retries a write: a PATCH answered 503 is UPSTREAM_ERROR after one request", async () => {
    harness.sandbox.injectFault({ method: "PATCH", path: "/v1/organization", status: 503 });

    const response = await harness.graphql(
      'mutation { updateOrganization(input: { city: "Springfield" }) { organization { city } } }',
    );

    expect(response.status).toBe(200);
    expect(response.body.data).toBeNull();
    expect(response.body.errors?.[0]).toMatchObject({
      message: "The upstream API failed (HTTP 503).",
      path: ["updateOrganization"],
      extensions: { code: "UPSTREAM_ERROR", upstream: { status: 503 } },
    });
    expect(harness.takeUpstreamRequests()).toEqual(["PATCH /v1/organization"]);
  });

  it("never retries a write after a reset connection either", async () => {
    harness.sandbox.injectFault({
      method: "POST",
      path: `/v1/campaigns/${SEED_IDS.acmeCampaignWithFailedRows}/retry`,
      destroy: true,
    });

    const response = await harness.graphql(
      `mutation { retryCampaign(id: "${SEED_IDS.acmeCampaignWithFailedRows}") { raw } }`,
    );

    expect(response.body.errors?.[0]?.extensions).toMatchObject({
      code: "UPSTREAM_UNAVAILABLE",
      reason: "CONNECTION_RESET",
    });
    expect(harness.takeUpstreamRequests()).toEqual([
      `POST /v1/campaigns/${SEED_IDS.acmeCampaignWithFailedRows}/retry`,
    ]);
  });
});

describe("a client that disconnects", () => {
  const closing = closedAfterEachTest();

  // A text's first run is yoga's; from its second, the prepared lane answers it.
  it.each([
    ["its text's first run", 0],
    ["a text run twice before (the prepared lane)", 2],
  ])(
    "aborts its upstream call on %s: the upstream sees the connection close, and no retry",
    async (_run, before) => {
      // The call after `before` answered ones is never answered; the rest are.
      let received = 0;
      const upstream = closing(
        await startRecordingUpstream((_request, res) => {
          received += 1;
          if (received !== before + 1) sendJson(res, 200, { id: "org_acme", name: "Acme Health" });
        }),
      );
      // A long upstream timeout: only the client's disconnect can end the call early.
      const gateway = closing(
        await startHarness({ upstream: { baseUrl: upstream.url, timeoutMs: 10_000 } }),
      );
      for (let i = 0; i < before; i += 1) {
        const answered = await gateway.graphql("{ organization { name } }");
        expect(answered.body.data).toEqual({ organization: { name: "Acme Health" } });
      }
      const client = new AbortController();
      const pending = fetch(`${gateway.url}/graphql`, {
        method: "POST",
        signal: client.signal,
        headers: { "content-type": "application/json", authorization: ACME },
        body: JSON.stringify({ query: "{ organization { name } }" }),
      }).catch((error: unknown) => error);
      await waitFor(() => upstream?.requests.length === before + 1);
      expect(upstream.closedConnectionCount()).toBe(0);

      client.abort();

      expect(await pending).toMatchObject({ name: "AbortError" });
      await waitFor(() => upstream.closedConnectionCount() === 1);
      const next = await gateway.graphql("{ organization { name } }");
      expect(next.body.data).toEqual({ organization: { name: "Acme Health" } });
      expect(upstream.requests.map((request) => `${request.method} ${request.url}`)).toEqual(
        Array.from({ length: before + 2 }, () => "GET /v1/organization"),
      );
    },
  );
});

describe("health", () => {
  it("answers /healthz 200 and /readyz 200 while the upstream is reachable", async () => {
    const health = await fetch(`${harness.url}/healthz`);
    const ready = await fetch(`${harness.url}/readyz`);

    expect(health.status).toBe(200);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      ready: true,
      upstream: "reachable",
      redis: "not configured",
    });
    // The readiness probe carries no key: it is not an operation of anyone's.
    expect(harness.sandbox.requests.map((request) => request.headers.authorization)).toEqual([
      undefined,
    ]);
  });

  it("answers /readyz 503 (and /healthz still 200) when the upstream is down", async () => {
    const down = await startHarness({ upstream: { baseUrl: await closedPortUrl() } });
    try {
      const health = await fetch(`${down.url}/healthz`);
      const ready = await fetch(`${down.url}/readyz`);

      expect(health.status).toBe(200);
      expect(ready.status).toBe(503);
      // The body says what is not ready.
      expect(await ready.json()).toEqual({
        ready: false,
        upstream: "unreachable",
        redis: "not configured",
      });
    } finally {
      await down.close();
    }
  });
});
