import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { harness, oneHarnessPerFile } from "./file-harness.ts";
import { GATEWAY_REQUEST_ID } from "./harness.ts";
import {
  MAX_ALIASES,
  MAX_DEPTH,
  MAX_UPSTREAM_CALLS,
  SMALL_LIMITS,
} from "./upstream-traffic-support.ts";

oneHarnessPerFile({ gateway: SMALL_LIMITS });

describe("the static cost check", () => {
  it("refuses an operation estimated over maxUpstreamCalls before any upstream call", async () => {
    const estimated = 6; // the agents page (3) and three agents' stats (3 × 1)

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
            requestId: GATEWAY_REQUEST_ID,
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
      estimated: 3, // two agent(id) (1 each, before DataLoader de-duplicates them), organization (1)
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
          extensions: {
            code: "DEPTH_LIMIT_EXCEEDED",
            requestId: GATEWAY_REQUEST_ID,
            http: { status: 400 },
            limit: MAX_DEPTH,
          },
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
          extensions: {
            code: "ALIAS_LIMIT_EXCEEDED",
            requestId: GATEWAY_REQUEST_ID,
            http: { status: 400 },
            limit: MAX_ALIASES,
          },
        },
      ],
    });
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });
});

describe("aliases of `__typename`", () => {
  it("counts them as any other alias: three pass a limit of 2 no more than three fields do", async () => {
    const response = await harness.graphql("{ a: __typename b: __typename c: __typename }");

    expect(response.status).toBe(400);
    expect(response.body.errors?.map((error) => error.extensions.code)).toEqual([
      "ALIAS_LIMIT_EXCEEDED",
    ]);
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
  ])("refuses %s with BAD_USER_INPUT naming the argument", async (query, message) => {
    const response = await harness.graphql(query);

    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      errors: [
        {
          message,
          extensions: {
            code: "BAD_USER_INPUT",
            requestId: GATEWAY_REQUEST_ID,
            http: { status: 400 },
            argument: message.startsWith("`last`") ? "last" : "first",
          },
        },
      ],
    });
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("refuses a bound given in a variable just the same", async () => {
    const response = await harness.graphql(
      "query Page($first: Int) { agents(first: $first) { totalCount } }",
      { first: 500 },
    );

    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      argument: "first",
    });
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
          extensions: { code: "GRAPHQL_VALIDATION_FAILED", requestId: GATEWAY_REQUEST_ID },
        },
      ],
    });
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });
});
