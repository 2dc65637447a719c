import { isObjectType } from "graphql";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { UpstreamCostExtensions } from "../../src/gateway/estimate-upstream-calls.ts";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { schema } from "../../src/schema/index.ts";
import {
  closedPortUrl,
  type RecordingUpstream,
  sendJson,
  startRecordingUpstream,
  waitFor,
} from "../upstream/recording-upstream.ts";
import { ACME, type Harness, startHarness } from "./harness.ts";

/** The upstream calls a field declares (its schema owner's bound), read from the schema. */
function declaredCalls(typeName: string, fieldName: string): number {
  const type = schema.getType(typeName);
  const field = isObjectType(type) ? type.getFields()[fieldName] : undefined;
  const calls = (field?.extensions as UpstreamCostExtensions | undefined)?.upstreamCalls;
  if (typeof calls !== "number") throw new Error(`${typeName}.${fieldName} declares no cost`);
  return calls;
}

/** The estimate of `{ agents(first: n) { nodes { stats } } }`: the page, then n agents' stats. */
function agentPageWithStats(n: number): number {
  return declaredCalls("Query", "agents") + n * declaredCalls("Agent", "stats");
}

// Small limits, so that the cost, depth and alias checks are easy to cross: two agents' stats
// fit in the upstream-call budget exactly, three do not.
const MAX_UPSTREAM_CALLS = agentPageWithStats(2);
const MAX_DEPTH = 4;
const MAX_ALIASES = 2;

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({
    gateway: { maxUpstreamCalls: MAX_UPSTREAM_CALLS, maxDepth: MAX_DEPTH, maxAliases: MAX_ALIASES },
  });
});
afterAll(() => harness.close());
afterEach(() => {
  harness.sandbox.clearFaults();
  harness.takeUpstreamRequests();
});

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

  it("retries a GET answered 503 and succeeds on the second request", async () => {
    harness.sandbox.injectFault({ method: "GET", path: "/v1/organization", status: 503 });

    const response = await harness.graphql("{ organization { name } }");

    expect(response.body).toMatchObject({ data: { organization: { name: "Acme Health" } } });
    expect(response.body.errors).toBeUndefined();
    expect(harness.takeUpstreamRequests()).toEqual([
      "GET /v1/organization",
      "GET /v1/organization",
    ]);
    // One operation sent upstream; its retry is not a second call.
    expect(response.body.extensions?.cost).toEqual({ estimated: 1, upstreamCalls: 1 });
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
  let upstream: RecordingUpstream | undefined;
  let gateway: Harness | undefined;
  afterEach(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it("aborts its upstream call: the upstream sees the connection close, and no retry", async () => {
    // The first request is never answered; later ones are, so the gateway stays usable.
    let received = 0;
    upstream = await startRecordingUpstream((_request, res) => {
      received += 1;
      if (received > 1) sendJson(res, 200, { id: "org_acme", name: "Acme Health" });
    });
    // A long upstream timeout: only the client's disconnect can end the first call early.
    gateway = await startHarness({ upstream: { baseUrl: upstream.url, timeoutMs: 10_000 } });
    const client = new AbortController();
    const pending = fetch(`${gateway.url}/graphql`, {
      method: "POST",
      signal: client.signal,
      headers: { "content-type": "application/json", authorization: ACME },
      body: JSON.stringify({ query: "{ organization { name } }" }),
    }).catch((error: unknown) => error);
    await waitFor(() => upstream?.requests.length === 1);
    expect(upstream.closedConnectionCount()).toBe(0);

    client.abort();

    expect(await pending).toMatchObject({ name: "AbortError" });
    await waitFor(() => upstream?.closedConnectionCount() === 1);
    const next = await gateway.graphql("{ organization { name } }");
    expect(next.body.data).toEqual({ organization: { name: "Acme Health" } });
    expect(upstream.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      "GET /v1/organization",
      "GET /v1/organization",
    ]);
  });
});

describe("the static cost check", () => {
  it("refuses an operation estimated over maxUpstreamCalls before any upstream call", async () => {
    const estimated = agentPageWithStats(3);

    const response = await harness.graphql("{ agents(first: 3) { nodes { stats } } }");

    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      errors: [
        {
          message:
            `This operation could make ${estimated} upstream calls; the limit is ${MAX_UPSTREAM_CALLS}. ` +
            "Ask for smaller pages or fewer nested lists.",
          extensions: {
            code: "COST_LIMIT_EXCEEDED",
            http: { status: 400 },
            cost: { estimated, upstreamCalls: 0, limit: MAX_UPSTREAM_CALLS },
          },
        },
      ],
      extensions: { cost: { estimated, upstreamCalls: 0 } },
    });
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("runs an operation estimated at exactly the limit, reporting both figures", async () => {
    const response = await harness.graphql("{ agents(first: 2) { nodes { id stats } } }");

    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    // The estimate is an upper bound; the page needed one request here.
    expect(response.body.extensions?.cost).toEqual({
      estimated: MAX_UPSTREAM_CALLS,
      upstreamCalls: 3,
    });
    expect(harness.takeUpstreamRequests().sort()).toEqual([
      `GET /v1/agents/${SEED_IDS.acmeAgent}/stats`,
      `GET /v1/agents/${SEED_IDS.acmeAgentPaused}/stats`,
      "GET /v1/agents?page=1&pageSize=3",
    ]);
  });

  it("counts the calls made, after DataLoader de-duplication, beside the estimate", async () => {
    const response = await harness.graphql(
      `{ a: agent(id: "${SEED_IDS.acmeAgent}") { name } b: agent(id: "${SEED_IDS.acmeAgent}") { id } organization { name } }`,
    );

    expect(response.body.data).toEqual({
      a: { name: "Reception" },
      b: { id: SEED_IDS.acmeAgent },
      organization: { name: "Acme Health" },
    });
    expect(response.body.extensions?.cost).toEqual({
      estimated: 2 * declaredCalls("Query", "agent") + declaredCalls("Query", "organization"),
      upstreamCalls: 2,
    });
    expect(harness.takeUpstreamRequests().sort()).toEqual([
      `GET /v1/agents/${SEED_IDS.acmeAgent}`,
      "GET /v1/organization",
    ]);
  });

  it("refuses an operation deeper than maxDepth with DEPTH_LIMIT_EXCEEDED and no upstream call", async () => {
    const response = await harness.graphql(
      `{ agent(id: "${SEED_IDS.acmeAgent}") { conversations { nodes { agent { name } } } } }`,
    );

    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      errors: [
        {
          message: "Query depth limit of 4 exceeded, found 5.",
          extensions: { code: "DEPTH_LIMIT_EXCEEDED", http: { status: 400 }, limit: MAX_DEPTH },
        },
      ],
    });
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("accepts an operation exactly maxDepth deep", async () => {
    const response = await harness.graphql(
      `{ agent(id: "${SEED_IDS.acmeAgent}") { conversations(first: 1) { nodes { id } } } }`,
    );

    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
  });

  it("refuses more aliases than maxAliases with ALIAS_LIMIT_EXCEEDED and no upstream call", async () => {
    const response = await harness.graphql(
      "{ a: organization { name } b: organization { name } c: organization { name } }",
    );

    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      errors: [
        {
          message: "Aliases limit of 2 exceeded, found 3.",
          extensions: { code: "ALIAS_LIMIT_EXCEEDED", http: { status: 400 }, limit: MAX_ALIASES },
        },
      ],
    });
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });
});

describe("connection bounds, judged before any upstream call", () => {
  it.each([
    ["{ agents(first: 101) { totalCount } }", "`first` must be between 0 and 100, got 101"],
    ["{ agents(first: -1) { totalCount } }", "`first` must be between 0 and 100, got -1"],
    ["{ conversations(last: 101) { totalCount } }", "`last` must be between 0 and 100, got 101"],
    [
      `{ agent(id: "${SEED_IDS.acmeAgent}") { conversations(first: 101) { totalCount } } }`,
      "`first` must be between 0 and 100, got 101",
    ],
  ])("refuses %s with BAD_USER_INPUT", async (query, message) => {
    const response = await harness.graphql(query);

    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      errors: [{ message, extensions: { code: "BAD_USER_INPUT", http: { status: 400 } } }],
    });
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("refuses a bound given in a variable just the same", async () => {
    const response = await harness.graphql(
      "query Page($first: Int) { agents(first: $first) { totalCount } }",
      { first: 500 },
    );

    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.extensions.code).toBe("BAD_USER_INPUT");
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("has no `last` on campaigns (a forward-only list): a validation error", async () => {
    const response = await harness.graphql("{ campaigns(last: 1) { totalCount } }");

    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      errors: [
        {
          message: 'Unknown argument "last" on field "Query.campaigns".',
          locations: [{ line: 1, column: 13 }],
          extensions: { code: "GRAPHQL_VALIDATION_FAILED" },
        },
      ],
    });
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });
});

describe("health", () => {
  it("answers /healthz 200 and /readyz 200 while the upstream is reachable", async () => {
    const health = await fetch(`${harness.url}/healthz`);
    const ready = await fetch(`${harness.url}/readyz`);

    expect(health.status).toBe(200);
    expect(ready.status).toBe(200);
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
    } finally {
      await down.close();
    }
  });
});
